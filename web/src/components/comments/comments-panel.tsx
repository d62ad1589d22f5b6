// A page's comment threads beside it (a sheet under the page on phones), in reading order:
// whole-page threads, then passages where they are now, then those on an earlier version
// (their quote and version kept). Reply, resolve, reopen; resolved threads fold away.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Directory } from "../../lib/actors";
import { describeError } from "../../lib/errors";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { ActorName } from "../actor-name";
import { QueryFallback } from "../load-error";
import { TimeAgo } from "../time-ago";
import "./comments.css";

export type Thread = RouterOutputs["comments"]["list"]["threads"][number];
type Reply = Thread["replies"][number];

/** The selection a new comment will be on, as the reader saw it. */
export interface Selection {
  quote: string;
  prefix: string;
  suffix: string;
  version: number;
}

function useCommentActions(pageSlug: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.comments.list.queryKey({ page: pageSlug, include_resolved: true }) });
  return {
    add: useMutation(trpc.comments.add.mutationOptions({ onSuccess: refresh })),
    resolve: useMutation(trpc.comments.resolve.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(trpc.comments.delete.mutationOptions({ onSuccess: refresh })),
  };
}

function CommentForm({
  label,
  action,
  submit,
  pending,
  onCancel,
}: {
  label: string;
  action: string;
  submit: (body: string) => Promise<unknown>;
  pending: boolean;
  onCancel?: () => void;
}) {
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!body.trim()) return;
    setError(null);
    submit(body).then(
      () => setBody(""),
      (err: unknown) => setError(describeError(err)),
    );
  };
  return (
    <form className="comment-form" onSubmit={onSubmit}>
      <label className="comment-form__label">
        <span className="visually-hidden">{label}</span>
        <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={2} placeholder={label} maxLength={10_000} aria-label={label} />
      </label>
      {error ? (
        <p className="comment-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="comment-form__actions">
        {onCancel ? (
          <button type="button" className="button button--small button--quiet" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="button button--small button--primary" disabled={pending || !body.trim()}>
          {pending ? "Sending…" : action}
        </button>
      </div>
    </form>
  );
}

function CommentItem({ c, directory, onDelete }: { c: Reply; directory: Directory; onDelete: () => void }) {
  return (
    <div className="comment">
      <div className="comment__meta">
        <ActorName actor={c.author} directory={directory} />
        <TimeAgo iso={c.created_at} />
        {c.edited_at ? <span className="comment__edited">(edited)</span> : null}
      </div>
      {c.deleted ? (
        <p className="comment__deleted">Comment deleted</p>
      ) : (
        // Safe: the server renders comment Markdown through the same sanitiser as pages.
        <div className="comment__body" dangerouslySetInnerHTML={{ __html: c.body_html }} />
      )}
      {c.mine ? (
        <button type="button" className="button button--small button--quiet comment__delete" onClick={onDelete}>
          Delete
        </button>
      ) : null}
    </div>
  );
}

function ThreadCard({
  thread,
  pageSlug,
  directory,
  active,
  onFocus,
}: {
  thread: Thread;
  pageSlug: string;
  directory: Directory;
  active: boolean;
  onFocus: (id: string) => void;
}) {
  const { add, resolve, remove } = useCommentActions(pageSlug);
  const a = thread.anchor;
  return (
    <article
      className={`thread ${active ? "thread--active" : ""} ${thread.resolved ? "thread--resolved" : ""}`}
      aria-label={a.kind === "quote" ? `Comment on “${a.quote.slice(0, 60)}”` : "Comment on the page"}
      data-thread={thread.comment_id}
      tabIndex={-1}
      onFocus={() => onFocus(thread.comment_id)}
    >
      {a.kind === "quote" ? (
        <>
          <blockquote className="thread__quote">{a.attached ? a.current_quote : a.quote}</blockquote>
          {!a.attached ? <p className="thread__orphan">On an earlier version (v{a.version}): this passage has since changed.</p> : null}
        </>
      ) : a.kind === "page" ? (
        <p className="thread__target">On the whole page</p>
      ) : null}
      <CommentItem c={thread} directory={directory} onDelete={() => remove.mutate({ comment_id: thread.comment_id })} />
      {thread.replies.map((r) => (
        <CommentItem key={r.comment_id} c={r} directory={directory} onDelete={() => remove.mutate({ comment_id: r.comment_id })} />
      ))}
      {!thread.resolved ? (
        <CommentForm label="Reply" action="Reply" pending={add.isPending} submit={(body) => add.mutateAsync({ reply_to: thread.comment_id, body })} />
      ) : null}
      <div className="thread__actions">
        <button
          type="button"
          className="button button--small"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate({ comment_id: thread.comment_id, reopen: thread.resolved })}
        >
          {thread.resolved ? "Reopen" : "Resolve"}
        </button>
      </div>
    </article>
  );
}

export function useThreads(pageSlug: string) {
  const trpc = useTRPC();
  return useQuery(trpc.comments.list.queryOptions({ page: pageSlug, include_resolved: true }, { refetchInterval: 15_000 }));
}

export function CommentsPanel({
  pageSlug,
  directory,
  selection,
  onSelectionDone,
  active,
  onFocusThread,
  onClose,
}: {
  pageSlug: string;
  directory: Directory;
  selection: Selection | null;
  onSelectionDone: () => void;
  active: string | null;
  onFocusThread: (id: string) => void;
  onClose: () => void;
}) {
  const threads = useThreads(pageSlug);
  const { add } = useCommentActions(pageSlug);
  const open = threads.data?.threads.filter((t) => !t.resolved) ?? [];
  const resolved = threads.data?.threads.filter((t) => t.resolved) ?? [];
  return (
    <aside className="comments" aria-labelledby="comments-title">
      <div className="comments__head">
        <h2 id="comments-title" className="section-title">
          Comments
        </h2>
        <button type="button" className="button button--small button--quiet" onClick={onClose} aria-label="Close comments">
          Close
        </button>
      </div>
      {selection ? (
        <div className="comments__new">
          <blockquote className="thread__quote">{selection.quote}</blockquote>
          <CommentForm
            label="Comment on this passage"
            action="Add comment"
            pending={add.isPending}
            onCancel={onSelectionDone}
            submit={async (body) => {
              await add.mutateAsync({ page: pageSlug, ...selection, body });
              onSelectionDone();
            }}
          />
        </div>
      ) : (
        <p className="comments__hint">Select text in the page to comment on it, or comment on the whole page:</p>
      )}
      {!selection ? (
        <CommentForm
          label="Comment on the page"
          action="Comment on the page"
          pending={add.isPending}
          submit={(body) => add.mutateAsync({ page: pageSlug, body })}
        />
      ) : null}
      {!threads.isSuccess ? (
        <QueryFallback query={threads} loading="Loading comments…" what="The comments" />
      ) : (
        <>
          {open.length === 0 ? <p className="comments__empty">No open comments.</p> : null}
          <div className="comments__list" role="list" aria-label="Open comments, in reading order">
            {open.map((t) => (
              <div role="listitem" key={t.comment_id}>
                <ThreadCard thread={t} pageSlug={pageSlug} directory={directory} active={active === t.comment_id} onFocus={onFocusThread} />
              </div>
            ))}
          </div>
          {resolved.length > 0 ? (
            <details className="comments__resolved">
              <summary>
                {resolved.length} resolved {resolved.length === 1 ? "thread" : "threads"}
              </summary>
              {resolved.map((t) => (
                <ThreadCard key={t.comment_id} thread={t} pageSlug={pageSlug} directory={directory} active={false} onFocus={onFocusThread} />
              ))}
            </details>
          ) : null}
        </>
      )}
    </aside>
  );
}
