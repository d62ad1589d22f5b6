import { describeError } from "../lib/errors";
import "./load-error.css";

/** Something on the screen didn't load: what, why, and a way to ask again. */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <div className="inline-error" role="alert">
      <p>
        {`${what} didn’t load. `}
        {describeError(error)}
      </p>
      <button type="button" className="button button--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** What shows in place of a query's data: a quiet line while it loads, LoadError once it failed. */
export function QueryFallback({
  query,
  loading,
  what,
}: {
  query: { isError: boolean; error: unknown; refetch: () => Promise<unknown> };
  /** "Loading people…" */
  loading: string;
  /** "The member list", for "The member list didn't load." */
  what: string;
}) {
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <p className="muted" role="status">
      {loading}
    </p>
  );
}
