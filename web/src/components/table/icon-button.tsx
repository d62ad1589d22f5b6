const ICONS = {
  edit: "M11.2 2.3a1.6 1.6 0 0 1 2.3 2.3L5.6 12.5l-3 .8.8-3z",
  history: "M8 2.5a5.5 5.5 0 1 1-5.2 3.8M2.5 2.8v3.4h3.4M8 5v3.2l2.2 1.4",
  delete: "M2.8 4.3h10.4M6.3 4.3V2.8h3.4v1.5M4.2 4.3l.6 9h6.4l.6-9M6.7 6.8v4M9.3 6.8v4",
} as const;

/** A small square button with an icon, named for screen readers by `label`. */
export function IconButton({
  action,
  icon,
  label,
  onClick,
  title,
  disabled = false,
  danger = false,
}: {
  /** data-action, to find the button again (the grid returns focus to "edit"). */
  action?: string;
  icon: keyof typeof ICONS;
  label: string;
  onClick: () => void;
  title: string;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      data-action={action}
      className={`icon-button ${danger ? "icon-button--danger" : ""}`}
      onClick={onClick}
      disabled={disabled}
      title={title}
    >
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path d={ICONS[icon]} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </button>
  );
}
