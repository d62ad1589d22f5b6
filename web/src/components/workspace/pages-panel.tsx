import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import type { Directory } from "../../lib/actors";
import { useTRPC } from "../../trpc";
import { ActorName } from "../actor-name";
import { TimeAgo } from "../time-ago";
import { LoadError } from "../load-error";
import { EmptyState } from "../empty-state";
import { CommentCount, useOpenCommentCounts } from "../comments/comment-count";
import "./panels.css";

const PAGE_SIZE = 25;

export function PagesPanel({ slug, canWrite, directory, onNewPage }: { slug: string; canWrite: boolean; directory: Directory; onNewPage: () => void }) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery(
    trpc.pages.list.infiniteQueryOptions({ workspace: slug, limit: PAGE_SIZE }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const [filter, setFilter] = useState("");
  const commentCounts = useOpenCommentCounts(slug);

  if (pages.isPending) {
    return (
      <ul className="page-list" aria-busy="true" aria-label="Loading pages">
        {[0, 1, 2, 3].map((i) => (
          <li key={i} className="page-row page-row--skeleton" aria-hidden="true" />
        ))}
      </ul>
    );
  }
  if (pages.isError) {
    return <LoadError what="The pages" error={pages.error} onRetry={() => void pages.refetch()} />;
  }

  const all = pages.data.pages.flatMap((p) => p.pages);
  if (all.length === 0) {
    return (
      <EmptyState title="No pages yet" heading action={canWrite ? { label: "Write the first page", onClick: onNewPage } : null}>
        {canWrite ? "Write the first one here, or let a connected agent create pages through MCP." : "Nothing has been written here yet."}
      </EmptyState>
    );
  }

  const needle = filter.trim().toLowerCase();
  const shown = needle ? all.filter((p) => `${p.title} ${p.slug} ${p.summary}`.toLowerCase().includes(needle)) : all;

  return (
    <div className="pages-panel">
      {all.length > 5 || pages.hasNextPage ? (
        <div className="field field--inline">
          <label className="sr-only" htmlFor={`filter-${slug}`}>
            Filter pages
          </label>
          <input
            id={`filter-${slug}`}
            className="field__input field__input--small"
            type="search"
            placeholder={pages.hasNextPage ? "Filter the pages loaded so far" : "Filter pages"}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        </div>
      ) : null}
      <ul className="page-list" aria-label="Pages">
        {shown.map((page) => (
          <li key={page.page_id} className="page-row">
            <Link href={`/buckets/${slug}/${page.slug}`} className="page-row__link">
              <span className="page-row__title">{page.title}</span>
              <span className="page-row__slug">/a/{page.slug}</span>
            </Link>
            {page.summary ? <p className="page-row__summary">{page.summary}</p> : null}
            <p className="page-row__meta">
              <span>v{page.version}</span>
              <span aria-hidden="true">·</span>
              <span>
                <TimeAgo iso={page.updated_at} prefix="edited " /> by
              </span>
              <ActorName actor={page.updated_by} directory={directory} />
              <CommentCount n={commentCounts[page.slug]} />
            </p>
          </li>
        ))}
      </ul>
      {needle && shown.length === 0 ? <p className="muted">No loaded page matches “{filter.trim()}”.</p> : null}
      {pages.hasNextPage ? (
        <div className="load-more">
          <button type="button" className="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {pages.isFetchingNextPage ? "Loading…" : "Show more pages"}
          </button>
          {pages.isFetchNextPageError ? (
            <p className="field__message field__message--error" role="alert">
              Couldn’t load more pages. Check your connection and try again.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
