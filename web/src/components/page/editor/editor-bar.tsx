/** The editor's top bar: its status, Write/Preview on phones, and Cancel/Done and Save. */
export function EditorBar({
  status,
  dirty,
  pane,
  onPane,
  showPanes,
  saving,
  showSave,
  onClose,
}: {
  status: string;
  dirty: boolean;
  pane: "write" | "preview";
  onPane: (pane: "write" | "preview") => void;
  /** There is a body to write and preview, and no conflict on screen. */
  showPanes: boolean;
  saving: boolean;
  /** Hidden while a conflict waits for a choice. */
  showSave: boolean;
  onClose: () => void;
}) {
  return (
    <div className="editor__bar">
      <p className={`editor__status ${dirty ? "editor__status--dirty" : ""}`} role="status" aria-live="polite">
        {status}
      </p>
      {showPanes ? (
        <div className="segmented editor__panes" role="group" aria-label="Show">
          <button type="button" aria-pressed={pane === "write"} onClick={() => onPane("write")}>
            Write
          </button>
          <button type="button" aria-pressed={pane === "preview"} onClick={() => onPane("preview")}>
            Preview
          </button>
        </div>
      ) : null}
      <div className="editor__actions">
        <button type="button" className="button button--small" onClick={onClose} disabled={saving}>
          Done
        </button>
        {showSave ? (
          <button
            type="submit"
            className="button button--primary button--small"
            disabled={saving || !dirty}
            aria-keyshortcuts="Control+S Meta+S"
            title="Save (Ctrl+S or ⌘S)"
          >
            {saving ? "Saving…" : "Save"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
