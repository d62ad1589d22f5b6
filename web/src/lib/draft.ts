// The editor's model: which part of a page is edited, what changed, what to send, and a
// copy of unsaved work kept in this browser so a closed tab or a crash loses nothing.
import { type TableViewSpec, tableSpecsOf } from "./table/table-view-specs";

export type PartKind = "markdown" | "html" | "table_view";

export interface EditablePage {
  slug: string;
  version: number;
  title: string;
  summary: string;
  parts: { kind: PartKind; body: string; position: number }[];
}

export interface Draft {
  title: string;
  summary: string;
  body: string;
  /** The page's live tables (table_view parts), as canonical JSON, so drafts compare as text. */
  tables: string;
}

export function tablesOf(draft: Pick<Draft, "tables">): TableViewSpec[] {
  try {
    const v = JSON.parse(draft.tables) as unknown;
    return Array.isArray(v) ? (v as TableViewSpec[]) : [];
  } catch {
    return [];
  }
}

export function tablesText(specs: TableViewSpec[]): string {
  return JSON.stringify(specs);
}

/**
 * The part the editor works on, as the server applies an edit: the first Markdown part,
 * else the first HTML part. Null when the page has only tables (title and summary only).
 */
export function editableKind(page: Pick<EditablePage, "parts">): "markdown" | "html" | null {
  const sorted = [...page.parts].sort((a, b) => a.position - b.position);
  if (sorted.some((p) => p.kind === "markdown")) return "markdown";
  if (sorted.some((p) => p.kind === "html")) return "html";
  return sorted.length === 0 ? "markdown" : null;
}

export function draftOf(page: EditablePage): Draft {
  const kind = editableKind(page);
  const sorted = [...page.parts].sort((a, b) => a.position - b.position);
  const part = kind ? sorted.find((p) => p.kind === kind) : undefined;
  return { title: page.title, summary: page.summary, body: part?.body ?? "", tables: tablesText(tableSpecsOf(page.parts)) };
}

export function sameDraft(a: Draft, b: Draft): boolean {
  return a.title === b.title && a.summary === b.summary && a.body === b.body && a.tables === b.tables;
}

export type UpdateInput = {
  slug: string;
  expected_version: number;
  title?: string;
  summary?: string;
  body_markdown?: string;
  body_html?: string;
  tables?: TableViewSpec[];
};

/**
 * What to send to save `draft` over `base` (the version the person started from, or the one
 * they chose to save over): only what changed, with the version it must still be at.
 */
export function updateInputFor(base: EditablePage, draft: Draft, expectedVersion: number = base.version): UpdateInput {
  const was = draftOf(base);
  const kind = editableKind(base);
  const input: UpdateInput = { slug: base.slug, expected_version: expectedVersion };
  if (draft.title.trim() !== was.title) input.title = draft.title.trim();
  if (draft.summary.trim() !== was.summary) input.summary = draft.summary.trim();
  if (kind !== null && draft.body !== was.body) {
    if (kind === "markdown") input.body_markdown = draft.body;
    else input.body_html = draft.body;
  }
  if (draft.tables !== was.tables) input.tables = tablesOf(draft);
  return input;
}

/** True when the input would change nothing (only slug and version). */
export function isEmptyUpdate(input: UpdateInput): boolean {
  return (
    input.title === undefined && input.summary === undefined && input.body_markdown === undefined && input.body_html === undefined && input.tables === undefined
  );
}

// ---------- Unsaved work kept in this browser ----------

export interface StoredDraft extends Omit<Draft, "tables"> {
  /** Null in drafts kept before pages had tables: then the page's own tables stand. */
  tables: string | null;
  /** The version the draft was started from. */
  baseVersion: number;
  savedAt: string;
}

const key = (slug: string) => `atelier:draft:${slug}`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // private mode or storage switched off: drafts simply aren't kept
  }
}

export function loadStoredDraft(slug: string): StoredDraft | null {
  const raw = storage()?.getItem(key(slug));
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StoredDraft>;
    if (typeof v.title !== "string" || typeof v.summary !== "string" || typeof v.body !== "string") return null;
    if (typeof v.baseVersion !== "number" || typeof v.savedAt !== "string") return null;
    const tables = typeof v.tables === "string" ? v.tables : null;
    return { title: v.title, summary: v.summary, body: v.body, tables, baseVersion: v.baseVersion, savedAt: v.savedAt };
  } catch {
    return null;
  }
}

export function storeDraft(slug: string, draft: Draft, baseVersion: number): void {
  try {
    storage()?.setItem(key(slug), JSON.stringify({ ...draft, baseVersion, savedAt: new Date().toISOString() }));
  } catch {
    // Full or refused: the draft stays on screen, just not in storage.
  }
}

export function clearStoredDraft(slug: string): void {
  try {
    storage()?.removeItem(key(slug));
  } catch {
    // nothing to do
  }
}

// ---------- Conflicts ----------

export type Field = "title" | "summary" | "body" | "tables";
const FIELDS: Field[] = ["title", "summary", "body", "tables"];

/** Which fields differ between two drafts. */
export function changedFields(from: Draft, to: Draft): Field[] {
  return FIELDS.filter((f) => from[f] !== to[f]);
}

/**
 * "Keep mine, save over theirs": every field the person changed takes their value; fields
 * they left alone take the other side's newer value, so an unrelated change made meanwhile
 * (say, a new title) is not silently undone.
 */
export function keepMine(base: Draft, mine: Draft, theirs: Draft): Draft {
  const pick = (f: Field) => (mine[f] !== base[f] ? mine[f] : theirs[f]);
  return { title: pick("title"), summary: pick("summary"), body: pick("body"), tables: pick("tables") };
}

const FIELD_WORDS: Record<Field, string> = { title: "the title", summary: "the summary", body: "the text", tables: "the tables" };

/** A draft kept in this browser, as a draft of `page` (whose tables stand if it kept none). */
export function storedAsDraft(stored: StoredDraft, current: Draft): Draft {
  return { title: stored.title, summary: stored.summary, body: stored.body, tables: stored.tables ?? current.tables };
}

/** "the text and the title" */
export function fieldList(fields: Field[]): string {
  const words = fields.map((f) => FIELD_WORDS[f]);
  if (words.length <= 1) return words[0] ?? "nothing";
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1] ?? ""}`;
}
