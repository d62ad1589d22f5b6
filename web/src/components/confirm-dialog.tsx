import { type ReactNode, useId } from "react";
import { describeError } from "../lib/errors";
import { ModalDialog } from "./modal-dialog";

/**
 * Asks before something that cannot be undone: the one confirmation dialog of the app.
 * Escape and "Cancel" close it (unless the action is under way), and the safe choice has
 * focus first.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pendingLabel,
  tone = "danger",
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  tone?: "danger" | "primary";
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const id = useId();

  return (
    <ModalDialog
      open={open}
      labelledBy={`${id}-title`}
      describedBy={`${id}-text`}
      onCancel={() => {
        if (!pending) onCancel();
      }}
    >
      <h2 id={`${id}-title`} className="dialog__title">
        {title}
      </h2>
      <div id={`${id}-text`} className="dialog__text">
        {children}
      </div>
      <p className="field__error" role="alert">
        {error}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onCancel} disabled={pending} autoFocus>
          Cancel
        </button>
        <button type="button" className={tone === "danger" ? "button button--danger" : "button button--primary"} onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}

/**
 * The `pending`, `error` and `onCancel` of a ConfirmDialog that runs `mutation`: it says
 * when the action is under way or why it failed, and cancelling also forgets a failed try.
 */
export function confirmsMutation(mutation: { isPending: boolean; error: unknown; reset: () => void }, close: () => void) {
  return {
    pending: mutation.isPending,
    error: mutation.error ? describeError(mutation.error) : null,
    onCancel: () => {
      close();
      mutation.reset();
    },
  };
}
