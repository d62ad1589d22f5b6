import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from "react";
import "./field.css";

/** What a field's control needs to be named and described by its label, hint and error. */
export interface FieldControl {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/**
 * A labelled form field: the label, the control (rendered by `children` with the ids that
 * tie it to its label, hint and error), a hint, and the error when there is one.
 */
export function Field({
  label,
  hint,
  error,
  className,
  labelClassName = "field__label",
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  className?: string;
  labelClassName?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label className={labelClassName} htmlFor={id}>
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined })}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** A field whose control is a one-line text input. */
export function TextField({
  label,
  hint,
  error,
  inputRef,
  value,
  onChange,
  ...input
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  inputRef?: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className" | "value" | "onChange" | "aria-invalid" | "aria-describedby">) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <input ref={inputRef} {...input} {...control} className="field__input" value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** The problem with a field, under it; nothing when there is none. */
export function FieldError({ id, children }: { id?: string | undefined; children: string | null | undefined }) {
  return children ? (
    <p id={id} className="field__message field__message--error">
      {children}
    </p>
  ) : null;
}
