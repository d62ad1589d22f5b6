import { describeError } from "../lib/errors";

/** Something on the screen didn't load: what, why, and a way to ask again. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <div className="inline-error" role="alert">
      <p>
        {what} didn’t load. {describeError(error)}
      </p>
      <button type="button" className="button button--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
