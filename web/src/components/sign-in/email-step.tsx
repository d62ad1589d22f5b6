import { type FormEvent, useEffect, useId, useRef } from "react";
import { Spinner } from "../spinner";
import { Field } from "../field";
import type { SignInContext } from "./sign-in-screen";

export function EmailStep({
  email,
  onEmailChange,
  onSubmit,
  sending,
  error,
  notice,
  context,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  onSubmit: () => void;
  sending: boolean;
  error: string | null;
  notice: string | null;
  context?: SignInContext | undefined;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  // Coming back from the code step ("use another address") lands in the field, ready to edit.
  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);
  useEffect(() => {
    if (error) inputRef.current?.focus();
  }, [error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!sending) onSubmit();
  };

  return (
    <form className="auth-step" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      {context?.above}
      <h1 id={`${id}-title`} className="auth-step__title">
        {context?.title ?? "Sign in to Atelier"}
      </h1>
      <p className="auth-step__lead">
        {context?.lead ??
          "Enter your e-mail address and we’ll send you a six-digit code. No password needed — and if you’re new, the same code creates your account."}
      </p>
      <p className="notice" role="status" aria-live="polite">
        {notice}
      </p>
      <Field label="E-mail address">
        {(control) => (
          <input
            ref={inputRef}
            {...control}
            className="field__input"
            type="email"
            name="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            inputMode="email"
            placeholder="you@example.com"
            required
            value={email}
            onChange={(e) => onEmailChange(e.target.value)}
            // The error shows under the button, apart from the field.
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        )}
      </Field>
      <p id={`${id}-error`} className="field__error" role="alert">
        {error}
      </p>
      <button type="submit" className="button button--primary button--block" disabled={sending} aria-disabled={sending}>
        {sending ? (
          <>
            <Spinner inline /> Sending your code…
          </>
        ) : (
          "Send me a code"
        )}
      </button>
    </form>
  );
}
