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
