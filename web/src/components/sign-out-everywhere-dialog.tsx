import { useEffect, useId, useRef } from "react";

/** Asks before ending every session; a native modal <dialog> keeps focus inside it. */
export function SignOutEverywhereDialog({
  open,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        // Escape: close through our state, so React and the element agree.
        event.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <h2 id={`${id}-title`} className="dialog__title">
        Sign out everywhere?
      </h2>
      <p id={`${id}-text`} className="dialog__text">
        This ends your sessions on every device and browser, including this one. You’ll need a new code from your
        e-mail to sign in again. Agent tokens are not affected.
      </p>
      <p className="field__error" role="alert">
        {error}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onCancel} disabled={pending} autoFocus>
          Cancel
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={pending}>
          {pending ? "Signing out…" : "Sign out everywhere"}
        </button>
      </div>
    </dialog>
  );
}
