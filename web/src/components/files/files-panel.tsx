// A workspace's files (docs/security.md#files): what each is, its size, who added it and the
// pages that show it; members who write can add one (with alt text for an image) or delete one.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { Link } from "wouter";
import { formatBytes } from "../../lib/format";
import { useTRPC } from "../../trpc";
import { CopyButton } from "../copy-button";
import { EmptyState } from "../empty-state";
import { QueryFallback } from "../load-error";
import { TimeAgo } from "../time-ago";
import { markdownFor, type UploadedFile, useFileUpload } from "./upload";
import "../workspace/panels.css";
import "./files-panel.css";

/** Picks a file, asks for alt text when it is an image, and uploads it with progress. */
export function FileUploader({ workspace, onUploaded }: { workspace: string; onUploaded?: (file: UploadedFile, markdown: string) => void }) {
  const { upload, state, reset } = useFileUpload(workspace);
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null);
  const [alt, setAlt] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const altId = useId();

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setAlt("");
    setUploaded(await upload(file));
  };

  return (
    <div className="file-uploader">
      <input ref={input} type="file" className="sr-only" aria-label="Choose a file to upload" onChange={(e) => void pick(e.target.files?.[0])} />
      <button type="button" className="button" onClick={() => input.current?.click()} disabled={state.status === "uploading"}>
        Upload a file
      </button>
      {state.status === "uploading" ? (
        <span className="file-uploader__progress">
          <progress max={1} value={state.progress} aria-label={`Uploading ${state.name}`} /> {Math.round(state.progress * 100)}%
        </span>
      ) : null}
      {state.status === "error" ? (
        <p role="alert" className="file-uploader__error">
          {state.message}
        </p>
      ) : null}
      {uploaded ? (
        <form
          className="file-uploader__done"
          onSubmit={(e) => {
            e.preventDefault();
            onUploaded?.(uploaded, markdownFor(uploaded, alt.trim()));
            setUploaded(null);
            reset();
          }}
        >
          {uploaded.type.startsWith("image/") ? (
            <>
              <label htmlFor={altId}>Describe the image for people who cannot see it</label>
              <input id={altId} value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={500} required />
            </>
          ) : null}
          <CopyButton text={markdownFor(uploaded, alt.trim())} label="Copy the Markdown for this file">
            Copy Markdown
          </CopyButton>
          <button type="submit" className="button button--primary" disabled={uploaded.type.startsWith("image/") && alt.trim() === ""}>
            Done
          </button>
        </form>
      ) : null}
    </div>
  );
}

/** Files one request loads; "Show more files" loads the next ones (newest first). */
const FILES_PAGE_SIZE = 50;

export function FilesPanel({ slug, canWrite }: { slug: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const files = useInfiniteQuery(
    trpc.files.list.infiniteQueryOptions({ workspace: slug, limit: FILES_PAGE_SIZE }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const remove = useMutation(
    trpc.files.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.files.list.pathKey() }),
    }),
  );

  if (!files.isSuccess) return <QueryFallback query={files} loading="Loading files…" what="The files" />;
  const all = files.data.pages.flatMap((p) => p.files);
  return (
    <section className="panel-section files-panel" aria-labelledby="files-title">
      <h2 id="files-title" className="sr-only">
        Files
      </h2>
      {canWrite ? <FileUploader workspace={slug} /> : null}
      {all.length === 0 ? (
        <EmptyState title="No files yet">Images and files that people and agents add to pages here are listed with where they are used.</EmptyState>
      ) : (
        <ul className="files-list" aria-label="Files">
          {all.map((f) => (
            <li key={f.sha256} className="files-list__item">
              {f.type.startsWith("image/") ? (
                <img
                  src={new URL(f.url).pathname}
                  alt=""
                  width={f.width ?? undefined}
                  height={f.height ?? undefined}
                  loading="lazy"
                  className="files-list__thumb"
                />
              ) : (
                <span className="files-list__thumb files-list__thumb--kind" aria-hidden="true">
                  {f.type.split("/")[1]?.slice(0, 4) ?? "file"}
                </span>
              )}
              <div className="files-list__main">
                <a href={new URL(f.url).pathname} className="files-list__name">
                  {f.name || `${f.sha256.slice(0, 12)}…`}
                </a>
                <span className="muted">
                  {f.type} · {formatBytes(f.size)}
                  {f.width && f.height ? ` · ${f.width}×${f.height}` : ""} · added by {f.added_by.label} <TimeAgo iso={f.created_at} />
                </span>
                <span className="muted">
                  {f.used_in.length === 0 ? "Not used in any page" : "Used in "}
                  {f.used_in.map((p, i) => (
                    <span key={p}>
                      {i > 0 ? ", " : ""}
                      <Link href={`/buckets/${slug}/${p}`}>{p}</Link>
                    </span>
                  ))}
                </span>
              </div>
              {canWrite ? (
                <button
                  type="button"
                  className="button button--danger"
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm(f.used_in.length > 0 ? `Delete this file? ${f.used_in.length} page(s) will show a broken image.` : "Delete this file?"))
                      remove.mutate({ workspace: slug, sha256: f.sha256 });
                  }}
                >
                  Delete
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {files.hasNextPage ? (
        <div className="load-more">
          <button type="button" className="button" onClick={() => void files.fetchNextPage()} disabled={files.isFetchingNextPage}>
            {files.isFetchingNextPage ? "Loading…" : "Show more files"}
          </button>
          {files.isFetchNextPageError ? (
            <p className="field__message field__message--error" role="alert">
              Couldn’t load more files. Check your connection and try again.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
