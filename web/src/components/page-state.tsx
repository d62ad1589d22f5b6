import { describeError } from "../lib/errors";
import { BrandMark } from "./brand";
import { Spinner } from "./spinner";
import "./page-state.css";

/**
 * A quiet loading indicator. It fades in only after a short delay (CSS), so fast answers
 * never flash a spinner.
 */
export function PageLoading({ label = "Loading…", fullPage = false }: { label?: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? "page-state page-state--full" : "page-state"} role="status" aria-live="polite">
      <Spinner />
      <span className="page-state__label">{label}</span>
    </div>
  );
}

/**
 * The shape of a screen while it loads — a title, a line under it, then the page's text, a
 * table's rows or a workspace's list — so the screen does not jump from blank to full.
 * Like the spinner it appears only after a moment, and it does not shimmer for those who ask
 * for less motion. Screen readers hear `label` once.
 */
export function PageSkeleton({ label, kind }: { label: string; kind: "page" | "table" | "list" }) {
  const rows = kind === "table" ? 8 : kind === "list" ? 4 : 7;
  return (
    <div className={`skeleton skeleton--${kind}`} role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      <div className="skeleton__crumbs skeleton__bone" aria-hidden="true" />
      <div className="skeleton__title skeleton__bone" aria-hidden="true" />
      <div className="skeleton__meta skeleton__bone" aria-hidden="true" />
      <div className="skeleton__body" aria-hidden="true">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="skeleton__row skeleton__bone" />
        ))}
      </div>
    </div>
  );
}

/** A failure that stops the page from showing, with a way to try again. */
export function PageError({
  title = "Atelier can’t be reached right now",
  error,
  onRetry,
  fullPage = false,
}: {
  title?: string;
  error: unknown;
  onRetry?: () => void;
  fullPage?: boolean;
}) {
  return (
    <div className={fullPage ? "page-state page-state--full" : "page-state"}>
      <div className="page-error" role="alert">
        {fullPage ? <BrandMark size={40} /> : null}
        <h1 className="page-error__title">{title}</h1>
        <p className="page-error__text">{describeError(error)}</p>
        {onRetry ? (
          <button type="button" className="button button--primary" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    </div>
  );
}
