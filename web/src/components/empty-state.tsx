import type { ReactNode } from "react";
import "./empty-state.css";

/**
 * A list with nothing in it yet, said in a sentence, with the first step when there is one.
 * `heading`: the title is a heading of its own (a section of the page), else a line.
 */
export function EmptyState({
  title,
  heading = false,
  action = null,
  children,
}: {
  title: string;
  heading?: boolean;
  action?: { label: string; onClick: () => void } | null;
  children: ReactNode;
}) {
  const body = (
    <>
      {heading ? <h2 className="empty-state__title">{title}</h2> : <p className="empty-state__title">{title}</p>}
      <p className="empty-state__text">{children}</p>
      {action ? (
        <button type="button" className="button button--primary" onClick={action.onClick}>
          {action.label}
        </button>
      ) : null}
    </>
  );
  return heading ? <section className="empty-state empty-state--compact">{body}</section> : <div className="empty-state empty-state--compact">{body}</div>;
}
