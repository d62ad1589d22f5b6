// A page's comment threads beside it (a sheet under the page on phones), in reading order:
// whole-page threads, then passages where they are now, then those on an earlier version
// (their quote and version kept); or a table row's threads. Reply, resolve, reopen, edit and
// delete one's own; "@" offers the workspace's members and agents; resolved threads fold away.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import type { Directory } from "../../lib/actors";
import { describeError } from "../../lib/errors";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { ActorName } from "../actor-name";
import { QueryFallback } from "../load-error";
import { TimeAgo } from "../time-ago";
import { MentionTextarea } from "./mention-textarea";
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

/** What the threads are on: a page, or one row of a table. */
export type CommentTarget = { kind: "page"; workspace: string; page: string } | { kind: "row"; workspace: string; table: string; rowId: string; name: string };

function listInput(target: CommentTarget) {
  return target.kind === "page"
    ? { page: target.page, include_resolved: true }
    : { workspace: target.workspace, table: target.table, row_id: target.rowId, include_resolved: true };
}

function useCommentActions(target: CommentTarget) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.comments.list.queryKey(listInput(target)) }),
      target.kind === "row" ? queryClient.invalidateQueries({ queryKey: trpc.comments.rowCounts.queryKey() }) : null,
    ]);
  return {
    add: useMutation(trpc.comments.add.mutationOptions({ onSuccess: refresh })),
    resolve: useMutation(trpc.comments.resolve.mutationOptions({ onSuccess: refresh })),
    edit: useMutation(trpc.comments.edit.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(trpc.comments.delete.mutationOptions({ onSuccess: refresh })),
  };
}

function CommentForm({
  workspace,
  label,
  action,
  submit,
  pending,
  onCancel,
  initial = "",
  autoFocus = false,
}: {
  workspace: string;
  label: string;
  action: string;
  submit: (body: string) => Promise<unknown>;
  pending: boolean;
  onCancel?: () => void;
  initial?: string;
  autoFocus?: boolean;
}) {
  const [body, setBody] = useState(initial);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (autoFocus) area.current?.focus();
  }, [autoFocus]);
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
      <MentionTextarea workspace={workspace} value={body} onChange={setBody} label={label} textareaRef={area} onEscape={onCancel} />
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

function CommentItem({
  c,
  workspace,
  directory,
  onDelete,
  onSave,
  saving,
}: {
  c: Reply;
  workspace: string;
  directory: Directory;
  onDelete: () => void;
  onSave: (body: string) => Promise<unknown>;
  saving: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const stopEditing = () => {
    setEditing(false);
    window.requestAnimationFrame(() => editButton.current?.focus());
  };
  return (
    <div className="comment">
      <div className="comment__meta">
        <ActorName actor={c.author} directory={directory} />
        <TimeAgo iso={c.created_at} />
        {c.edited_at ? <span className="comment__edited">(edited)</span> : null}
      </div>
      {c.deleted ? (
        <p className="comment__deleted">Comment deleted</p>
      ) : editing ? (
        <CommentForm
          workspace={workspace}
          label="Edit your comment"
          action="Save"
          initial={c.body}
          autoFocus
          pending={saving}
          onCancel={stopEditing}
          submit={async (body) => {
            await onSave(body);
            stopEditing();
          }}
        />
      ) : (
        // Safe: the server renders comment Markdown through the same sanitiser as pages.
        <div className="comment__body" dangerouslySetInnerHTML={{ __html: c.body_html }} />
      )}
      {c.mine && !editing ? (
        <div className="comment__own">
          <button ref={editButton} type="button" className="button button--small button--quiet" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" className="button button--small button--quiet comment__delete" onClick={onDelete}>
            Delete
          </button>
        </div>
      ) : null}
    </div>
  );
}

function ThreadCard({
  thread,
  target,
  directory,
  active,
  onFocus,
}: {
  thread: Thread;
  target: CommentTarget;
  directory: Directory;
  active: boolean;
  onFocus: (id: string) => void;
}) {
  const { add, resolve, edit, remove } = useCommentActions(target);
  const a = thread.anchor;
  const item = (c: Reply) => (
    <CommentItem
      key={c.comment_id}
      c={c}
      workspace={target.workspace}
      directory={directory}
      onDelete={() => remove.mutate({ comment_id: c.comment_id })}
      onSave={(body) => edit.mutateAsync({ comment_id: c.comment_id, body })}
      saving={edit.isPending}
    />
  );
  return (
    <article
      className={`thread ${active ? "thread--active" : ""} ${thread.resolved ? "thread--resolved" : ""}`}
      aria-label={a.kind === "quote" ? `Comment on “${a.quote.slice(0, 60)}”` : a.kind === "row" ? "Comment on the row" : "Comment on the page"}
      data-thread={thread.comment_id}
      id={`comment-${thread.comment_id}`}
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
      {item(thread)}
      {thread.replies.map(item)}
      {!thread.resolved ? (
        <CommentForm
          workspace={target.workspace}
          label="Reply"
          action="Reply"
          pending={add.isPending}
          submit={(body) => add.mutateAsync({ reply_to: thread.comment_id, body })}
        />
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

export function useThreads(target: CommentTarget) {
  const trpc = useTRPC();
  return useQuery(trpc.comments.list.queryOptions(listInput(target), { refetchInterval: 15_000 }));
}

export function CommentsPanel({
  target,
  directory,
  selection = null,
  onSelectionDone = () => {},
  active,
  onFocusThread,
  onClose,
}: {
  target: CommentTarget;
  directory: Directory;
  selection?: Selection | null;
  onSelectionDone?: () => void;
  active: string | null;
  onFocusThread: (id: string) => void;
  onClose: () => void;
}) {
  const threads = useThreads(target);
  const { add } = useCommentActions(target);
  const pageSlug = target.kind === "page" ? target.page : "";
  const open = threads.data?.threads.filter((t) => !t.resolved) ?? [];
  const resolved = threads.data?.threads.filter((t) => t.resolved) ?? [];
  return (
    <aside className={`comments ${target.kind === "row" ? "comments--row" : ""}`} aria-labelledby="comments-title">
      <div className="comments__head">
        <h2 id="comments-title" className="section-title">
          {target.kind === "row" ? `Comments on “${target.name}”` : "Comments"}
        </h2>
        <button type="button" className="button button--small button--quiet" onClick={onClose} aria-label="Close comments">
          Close
        </button>
      </div>
      {selection ? (
        <div className="comments__new">
          <blockquote className="thread__quote">{selection.quote}</blockquote>
          <CommentForm
            workspace={target.workspace}
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
      ) : target.kind === "page" ? (
        <p className="comments__hint">Select text in the page to comment on it, or comment on the whole page:</p>
      ) : null}
      {!selection ? (
        target.kind === "page" ? (
          <CommentForm
            workspace={target.workspace}
            label="Comment on the page"
            action="Comment on the page"
            pending={add.isPending}
            submit={(body) => add.mutateAsync({ page: pageSlug, body })}
          />
        ) : (
          <CommentForm
            workspace={target.workspace}
            label="Comment on this row"
            action="Comment on the row"
            pending={add.isPending}
            submit={(body) => add.mutateAsync({ workspace: target.workspace, table: target.table, row_id: target.rowId, body })}
          />
        )
      ) : null}
      {!threads.isSuccess ? (
        <QueryFallback query={threads} loading="Loading comments…" what="The comments" />
      ) : (
        <>
          {open.length === 0 ? <p className="comments__empty">No open comments.</p> : null}
          <div className="comments__list" role="list" aria-label="Open comments, in reading order">
            {open.map((t) => (
              <div role="listitem" key={t.comment_id}>
                <ThreadCard thread={t} target={target} directory={directory} active={active === t.comment_id} onFocus={onFocusThread} />
              </div>
            ))}
          </div>
          {resolved.length > 0 ? (
            <details className="comments__resolved">
              <summary>
                {resolved.length} resolved {resolved.length === 1 ? "thread" : "threads"}
              </summary>
              {resolved.map((t) => (
                <ThreadCard key={t.comment_id} thread={t} target={target} directory={directory} active={false} onFocus={onFocusThread} />
              ))}
            </details>
          ) : null}
        </>
      )}
    </aside>
  );
}
