import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useNow } from "../../lib/use-now";
import { EmailAddress } from "../email-address";
import { Spinner } from "../spinner";
import { Field } from "../field";

/** Asking again too soon mostly burns the hourly allowance of codes; a short pause helps. */
const RESEND_PAUSE_MS = 30_000;

export interface SentCode {
  email: string;
  expiresAt: string;
  /** When this code was sent (ms), to pace "send a new code". */
  sentAt: number;
}

function timeOf(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
}

export function CodeStep({
  sent,
  resent,
  onVerify,
  onCodeInput,
  verifying,
  verifyError,
  signedIn,
  onResend,
  resending,
  resendError,
  onUseAnotherAddress,
}: {
  sent: SentCode;
  /** True once "send a new code" has succeeded at least once. */
  resent: boolean;
  onVerify: (code: string) => void;
  /** The person is typing: earlier errors no longer apply. */
  onCodeInput: () => void;
  verifying: boolean;
  verifyError: string | null;
  signedIn: boolean;
  onResend: () => void;
  resending: boolean;
  resendError: string | null;
  onUseAnotherAddress: () => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState("");
  // The last code sent for checking: typing it again should not spend another try.
  const lastTried = useRef<string | null>(null);

  const now = useNow(1000);
  const expired = now >= Date.parse(sent.expiresAt);
  const resendWaitMs = sent.sentAt + RESEND_PAUSE_MS - now;
  const resendWaitS = Math.ceil(resendWaitMs / 1000);

  // A new code arrived: start fresh.
  useEffect(() => {
    setCode("");
    lastTried.current = null;
    inputRef.current?.focus();
  }, [sent.sentAt]);

  // After a failed try, select what was typed so the next digits replace it.
  useEffect(() => {
    if (verifyError) {
      inputRef.current?.focus();
      inputRef.current?.select();
    }
  }, [verifyError]);

  const verify = (digits: string) => {
    if (verifying || signedIn) return;
    lastTried.current = digits;
    onVerify(digits);
  };

  const change = (event: ChangeEvent<HTMLInputElement>) => {
    // People paste "123 456" or "Your code: 123456"; keep the digits only.
    const digits = event.target.value.replace(/\D/g, "").slice(0, 6);
    setCode(digits);
    onCodeInput();
    if (digits.length === 6 && digits !== lastTried.current) verify(digits);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length === 6) verify(code);
    else inputRef.current?.focus();
  };

  const status = signedIn
    ? "Signed in. Opening your workspace…"
    : resent && !resending && !resendError
      ? `A new code is on its way to ${sent.email}. Only the newest code works.`
      : "";
  const error = verifyError ?? resendError;

  return (
    <form className="auth-step" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="auth-step__title">
        Check your e-mail
      </h1>
      <p className="auth-step__lead">
        We sent a six-digit code to{" "}
        <strong className="auth-step__email">
          <EmailAddress email={sent.email} />
        </strong>
        .
      </p>
      <p className="auth-step__hint" id={`${id}-hint`}>
        {expired ? "This code has expired. Send a new code to continue." : `It works until ${timeOf(sent.expiresAt)}. Can’t find it? Look in your spam folder.`}
      </p>
      <Field label="Six-digit code">
        {(control) => (
          <input
            ref={inputRef}
            {...control}
            className="field__input field__input--code"
            type="text"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            spellCheck={false}
            placeholder="······"
            value={code}
            onChange={change}
            readOnly={signedIn}
            // The hint shows above the field, the error under it, apart from the field.
            aria-invalid={verifyError ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          />
        )}
      </Field>
      <p id={`${id}-error`} className="field__error" role="alert">
        {error}
      </p>
      <p className="notice" role="status" aria-live="polite">
        {status}
      </p>
      <button type="submit" className="button button--primary button--block" disabled={verifying || signedIn} aria-disabled={verifying || signedIn}>
        {verifying || signedIn ? (
          <>
            <Spinner inline /> {signedIn ? "Signing in…" : "Checking…"}
          </>
        ) : (
          "Sign in"
        )}
      </button>
      <div className="auth-step__actions">
        <button type="button" className="button button--link" onClick={onUseAnotherAddress} disabled={signedIn}>
          Use another address
        </button>
        {/* While pausing, the button stays focusable (aria-disabled) so its countdown can be found. */}
        <button
          type="button"
          className="button button--link"
          onClick={() => {
            if (resendWaitMs <= 0) onResend();
          }}
          disabled={resending || signedIn}
          aria-disabled={resendWaitMs > 0 ? true : undefined}
        >
          {resending ? "Sending…" : resendWaitMs > 0 ? `Send a new code (${resendWaitS}s)` : "Send a new code"}
        </button>
      </div>
    </form>
  );
}
