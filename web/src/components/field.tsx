import { type ReactNode, useId } from "react";

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
      {error ? (
        <p id={errorId} className="field__message field__message--error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
