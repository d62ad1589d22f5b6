// Taking a workspace out and bringing one in (issue 31): the export is a zip of Markdown, HTML
// and CSV files that any tool can read; an import takes such a zip, or a zip of Markdown files,
// all or nothing (docs/decisions.md, "Workspace export and import").
import { type ChangeEvent, useId, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { plural } from "../../lib/format";
import { useTRPC } from "../../trpc";

interface Imported {
  pages: { file: string; slug: string }[];
  tables: { file: string; slug: string; rows: number }[];
  files: { file: string; sha256: string }[];
  comments: number;
  versions: number;
  skipped: string[];
}

type State = { kind: "idle" } | { kind: "busy"; name: string } | { kind: "done"; result: Imported } | { kind: "failed"; message: string };

/** The sentence of a refusal (the server's `error_description`), or what went wrong on the way. */
async function refusal(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error_description?: string };
    if (body.error_description) return body.error_description;
  } catch {
    // Not JSON: say what we know.
  }
  return res.status === 413 ? "That file is larger than 32 MB, the most an import takes." : `The import failed (HTTP ${res.status}). Try again.`;
}

export function ArchiveSection({ workspace }: { workspace: { slug: string; name: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: "idle" });
  const [history, setHistory] = useState(false);
  const hintId = useId();

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setState({ kind: "busy", name: file.name });
    try {
      const res = await fetch(`/api/workspaces/${encodeURIComponent(workspace.slug)}/import`, {
        method: "POST",
        headers: { "content-type": "application/zip" },
        body: file,
        credentials: "same-origin",
      });
      if (!res.ok) return setState({ kind: "failed", message: await refusal(res) });
      setState({ kind: "done", result: (await res.json()) as Imported });
      await queryClient.invalidateQueries(trpc.pages.pathFilter());
      await queryClient.invalidateQueries(trpc.collections.pathFilter());
    } catch {
      setState({
        kind: "failed",
        message: "The connection dropped before the import finished; nothing was changed if it did not reach the server. Try again.",
      });
    }
  };

  return (
    <section className="panel-section settings__section" aria-labelledby="settings-archive-title">
      <h2 id="settings-archive-title" className="section-title">
        Export and import
      </h2>
      <p className="muted" id={hintId}>
        The export is a zip with a Markdown file for each page, HTML pages as they are, each table as CSV, the workspace&apos;s files and its comment threads.
        Import takes such a zip, or a zip of Markdown files, into this workspace: all of it or, if anything in it is wrong, none of it.
      </p>
      <label className="choice">
        <input type="checkbox" checked={history} onChange={(e) => setHistory(e.target.checked)} />
        <span>
          <strong>With full history</strong>
          <span className="choice__hint">Every kept version of each page, with who wrote it and when</span>
        </span>
      </label>
      <div className="form-actions form-actions--start">
        <a className="button" href={`/api/workspaces/${encodeURIComponent(workspace.slug)}/export${history ? "?history=1" : ""}`} download>
          Download export
        </a>
        <button type="button" className="button" aria-describedby={hintId} disabled={state.kind === "busy"} onClick={() => input.current?.click()}>
          {state.kind === "busy" ? "Importing…" : "Import a zip…"}
        </button>
        <input ref={input} type="file" accept=".zip,application/zip" hidden onChange={(e) => void upload(e)} aria-label="Zip file to import" />
      </div>
      <div role="status" aria-live="polite">
        {state.kind === "busy" ? <p className="notice">Importing {state.name}…</p> : null}
        {state.kind === "done" ? (
          <div className="notice settings__imported">
            <p>
              Imported {plural(state.result.pages.length, "page")}, {plural(state.result.tables.length, "table")}, {plural(state.result.files.length, "file")}{" "}
              and {plural(state.result.comments, "comment")}
              {state.result.versions > 0 ? ` (with ${plural(state.result.versions, "version")} of history)` : ""}.
              {state.result.skipped.length > 0
                ? ` Left out ${plural(state.result.skipped.length, "file")} that ${state.result.skipped.length === 1 ? "is" : "are"} neither a page nor a table.`
                : ""}
            </p>
            {state.result.pages.length + state.result.tables.length > 0 ? (
              <ul>
                {state.result.pages.map((p) => (
                  <li key={`p-${p.file}`}>
                    <Link href={`/buckets/${workspace.slug}/${p.slug}`}>{p.slug}</Link> <span className="muted">from {p.file}</span>
                  </li>
                ))}
                {state.result.tables.map((t) => (
                  <li key={`t-${t.file}`}>
                    <Link href={`/buckets/${workspace.slug}/tables/${t.slug}`}>{t.slug}</Link>{" "}
                    <span className="muted">
                      ({plural(t.rows, "row")}, from {t.file})
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
      {state.kind === "failed" ? (
        <p className="inline-error" role="alert">
          Nothing was imported. {state.message}
        </p>
      ) : null}
    </section>
  );
}
