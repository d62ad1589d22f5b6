import { describeError } from "../../lib/errors";
import { plural } from "../../lib/format";
import "./rows-footer.css";

/** Under the grid: how many rows show out of how many, and "Load more rows" while there are more. */
export function RowsFooter({
  shown,
  total,
  filtered,
  hasMore,
  loadingMore,
  onLoadMore,
  loadMoreFailed,
  error,
}: {
  shown: number;
  /** Rows in the table. */
  total: number;
  filtered: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  loadMoreFailed: boolean;
  error: unknown;
}) {
  return (
    <div className="load-more">
      <p className="muted grid-count">
        {filtered
          ? `${plural(shown, "row")} shown${hasMore ? "; more match" : ""}`
          : `${shown === total ? `All ${plural(shown, "row")}` : `${shown} of ${plural(total, "row")}`}`}
      </p>
      {hasMore ? (
        <button type="button" className="button" onClick={onLoadMore} disabled={loadingMore}>
          {loadingMore ? "Loading…" : "Load more rows"}
        </button>
      ) : null}
      {loadMoreFailed ? (
        <p className="field__message field__message--error" role="alert">
          Couldn’t load more rows. {describeError(error)}
        </p>
      ) : null}
    </div>
  );
}
