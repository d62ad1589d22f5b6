// edit_page: small edits of a page's body instead of sending it whole (issue 26). Each edit
// finds exact text or a Markdown heading in the body as the edits before it left it; a find
// that matches nothing or more than once refuses the whole call, naming the edit, and nothing
// is written. The edits are one new version, written on the caller's `expected_version`
// through changePage (so through the one write protocol), never on a version it did not read.
import type { PartDoc } from "../../db/index";
import { AppError, invalidInput } from "../../errors";
import { utf8Bytes } from "../../schemas/cells";
import { MAX_BODY_BYTES, type EditedPageView, type EditPageInput, type PageEdit } from "../../schemas/pages";
import type { Principal } from "../access";
import type { WriteDeps } from "../versioned-write";
import { changePage } from "./page-versions";
import { diffOfTexts, shortDiff } from "./version-diff";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*\r?$/;

interface Heading {
  line: number;
  level: number;
  text: string;
}

/** The ATX headings of a Markdown text, outside fenced code. */
function headingsOf(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (f !== undefined && f[0] === fence[0] && f.length >= fence.length && line.trim() === f) fence = null;
      return;
    }
    if (f !== undefined) {
      fence = f;
      return;
    }
    const m = HEADING.exec(line);
    if (!m) return;
    const text = (m[2] ?? "").replace(/(?:^|[ \t]+)#+$/, "").trim();
    out.push({ line: i, level: (m[1] ?? "").length, text });
  });
  return out;
}

/** What a caller names: "Usage" (any level) or "## Usage" (that level only). */
function headingQuery(given: string): { level: number | null; text: string } {
  const m = /^(#{1,6})[ \t]+(.*)$/.exec(given.trim());
  return m ? { level: (m[1] ?? "").length, text: (m[2] ?? "").trim() } : { level: null, text: given.trim() };
}

const blank = (line: string | undefined) => line === undefined || line.trim() === "";

/** `lines` with `block` inserted at `at` as a block of its own (a blank line either side, unless one is there). */
function insertBlock(lines: string[], at: number, text: string): string[] {
  const block = text.replace(/\r?\n+$/, "").split("\n");
  const before = lines.slice(0, at);
  const after = lines.slice(at);
  return [
    ...before,
    ...(before.length > 0 && !blank(before[before.length - 1]) ? [""] : []),
    ...block,
    ...(after.length > 0 && !blank(after[0]) ? [""] : []),
    ...after,
  ];
}

function refused(index: number, edit: PageEdit, field: "find" | "heading", matches: number): AppError {
  const what = field === "find" ? "the text to find" : `the heading "${edit.op === "replace" ? "" : headingQuery(edit.heading).text}"`;
  const sentence =
    matches === 0
      ? `Edit ${index + 1} (${edit.op}): ${what} is not in the page; nothing was changed. Read the page again and give text it contains.`
      : `Edit ${index + 1} (${edit.op}): ${what} occurs ${matches} times; nothing was changed. Give more of the surrounding text so that it occurs once.`;
  const issue = { path: `edits.${index}.${field}`, code: matches === 0 ? "no_match" : "ambiguous", message: sentence, params: { edit: index, matches } };
  const err = invalidInput([issue]);
  return new AppError("invalid_request", sentence, { details: err.details });
}

/** Applies one edit to a body, or throws naming it. */
export function applyEdit(body: string, edit: PageEdit, index: number, markdown: boolean): string {
  if (edit.op === "replace") {
    const matches = countFrom(body, edit.find, 0);
    if (matches !== 1) throw refused(index, edit, "find", matches);
    const first = body.indexOf(edit.find);
    return body.slice(0, first) + edit.replace + body.slice(first + edit.find.length);
  }
  if (!markdown) {
    throw invalidInput([
      { path: `edits.${index}.op`, code: "not_allowed", message: `edit ${index + 1} (${edit.op}): headings are found only in a Markdown body; use replace` },
    ]);
  }
  const lines = body.split("\n");
  const all = headingsOf(lines);
  const q = headingQuery(edit.heading);
  const found = all.filter((h) => h.text === q.text && (q.level === null || h.level === q.level));
  const [h] = found;
  if (found.length !== 1 || !h) throw refused(index, edit, "heading", found.length);
  if (edit.op === "insert_before_heading") return insertBlock(lines, h.line, edit.text).join("\n");
  if (edit.op === "insert_after_heading") return insertBlock(lines, h.line + 1, edit.text).join("\n");
  // append_to_section: before the next heading of the same or a higher level, after the section's last text.
  const next = all.find((o) => o.line > h.line && o.level <= h.level);
  let end = next ? next.line : lines.length;
  while (end > h.line + 1 && blank(lines[end - 1])) end--;
  return insertBlock(lines, end, edit.text).join("\n");
}

function countFrom(text: string, find: string, from: number): number {
  let n = 0;
  for (let at = text.indexOf(find, from); at !== -1; at = text.indexOf(find, at + find.length)) n++;
  return n;
}

/** The part the edits apply to: the page's first Markdown part, else its first HTML part. */
function bodyPart(parts: PartDoc[]): PartDoc {
  const sorted = [...parts].sort((a, b) => a.position - b.position);
  const part = sorted.find((p) => p.kind === "markdown") ?? sorted.find((p) => p.kind === "html");
  if (!part) throw invalidInput([{ path: "slug", code: "invalid", message: "the page has no text to edit" }]);
  return part;
}

/** Applies `edits` in order to the page's body as one new version on `expected_version`. */
export async function editPage(deps: WriteDeps, principal: Principal, input: EditPageInput): Promise<EditedPageView> {
  let before = "";
  let after = "";
  const page = await changePage(deps, principal, input.slug, input.expected_version, "page.updated", (current) => {
    const part = bodyPart(current.parts);
    before = part.body;
    after = input.edits.reduce((body, edit, i) => applyEdit(body, edit, i, part.kind === "markdown"), part.body);
    if (utf8Bytes(after) > MAX_BODY_BYTES) {
      throw invalidInput([{ path: "edits", code: "too_large", message: "the body would exceed 1 MiB", params: { max: MAX_BODY_BYTES } }]);
    }
    return { title: current.title, summary: current.summary, parts: current.parts.map((p) => (p.id === part.id ? { ...p, body: after } : p)) };
  });
  return {
    slug: page.slug,
    version: page.version,
    updated_at: page.updated_at,
    ...shortDiff(diffOfTexts(page.slug, page.version - 1, page.version, before, after)),
  };
}
