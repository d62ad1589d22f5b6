import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import "./modal-dialog.css";

/**
 * A native modal <dialog>, opened and closed by `open`: the browser keeps focus inside it
 * and puts the rest of the page out of reach. Escape goes through `onCancel`, so React's
 * state and the element always agree (the caller decides whether it may close now).
 * `onOpen` runs each time it opens, before it shows (to start a form afresh).
 */
export function ModalDialog({
  open,
  onOpen,
  onCancel,
  className = "dialog",
  labelledBy,
  describedBy,
  children,
}: {
  open: boolean;
  onOpen?: () => void;
  onCancel: () => void;
  className?: string;
  labelledBy: string;
  describedBy?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      onOpen?.();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    // Runs when the dialog opens or closes, not when its contents change.
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}

/** The foot of a dialog's form: Cancel, and the submit button, which says when it is busy. */
export function DialogActions({
  pending,
  submitLabel,
  pendingLabel = "Creating…",
  onCancel,
}: {
  pending: boolean;
  submitLabel: string;
  pendingLabel?: string;
  onCancel: () => void;
}) {
  return (
    <div className="dialog__actions">
      <button type="button" className="button" onClick={onCancel} disabled={pending}>
        Cancel
      </button>
      <button type="submit" className="button button--primary" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}

/**
 * A dialog that is a form ("New page", "New table"): its title, the fields, a message for
 * what no field explains, and Cancel / submit. Escape and Cancel close it unless it is busy.
 */
export function FormDialog({
  open,
  onOpen,
  onClose,
  busy,
  title,
  className,
  onSubmit,
  error,
  submitLabel,
  children,
}: {
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  busy: boolean;
  title: string;
  className: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  error: string | null;
  submitLabel: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <ModalDialog
      open={open}
      onOpen={onOpen}
      className={className}
      labelledBy={`${id}-title`}
      onCancel={() => {
        if (!busy) onClose();
      }}
    >
      <form className="dialog__form" onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-title`} className="dialog__title">
          {title}
        </h2>
        {children}
        <p className="field__error" role="alert">
          {error}
        </p>
        <DialogActions pending={busy} submitLabel={submitLabel} onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}
