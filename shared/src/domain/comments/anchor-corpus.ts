// The deterministic set of realistic edits the re-anchoring is measured on
// (docs/comments.md#re-anchoring): pages made of paragraphs of project notes, a comment on a
// passage, then one edit of a known kind, with where the passage is afterwards (or that it
// is gone). Generated from a seed, so every run measures the same cases.
// Longer than 300 lines on purpose: the realistic paragraphs the edits are made on are data.
import type { QuoteAnchor } from "./anchor";

/** `xs[i]`, which must be there (an index computed in bounds). */
function at<T>(xs: ArrayLike<T> | Readonly<Record<string, T>>, i: number | string): T {
  const v = (xs as Record<string, T>)[i];
  if (v === undefined) throw new Error(`re-anchoring: no element ${String(i)}`);
  return v;
}
import { makeAnchor } from "./anchor";

const PARAGRAPHS: string[][] = [
  [
    "The migration to the new billing provider starts on the first Monday of March.",
    "Every customer keeps their current plan and price until the end of their contract.",
    "Invoices issued before the switch stay downloadable from the old portal for a year.",
    "Support will answer questions about the change in a dedicated channel.",
  ],
  [
    "Our onboarding survey asked forty new users what confused them in the first week.",
    "Most of them could not find where to invite a colleague to a workspace.",
    "Several expected the search box to cover tables as well as pages.",
    "Nobody mentioned the pricing page, which surprised the sales team.",
  ],
  [
    "The release checklist lives in the repository next to the changelog.",
    "Before tagging, run the full test suite against a fresh database.",
    "Write the upgrade notes in plain words, with the commands an operator types.",
    "Announce the release only after the images are published and verified.",
  ],
  [
    "We measured page load times on a mid-range phone over a throttled connection.",
    "The workspace list took almost three seconds to become usable.",
    "Most of that time went into fetching avatars that nobody looks at.",
    "Loading them lazily brought the figure under one second.",
  ],
  [
    "Agents write through the same rules as people, with one exception.",
    "An unclaimed sandbox may not publish anything or invite collaborators.",
    "Once a person claims it, the sandbox becomes an ordinary workspace.",
    "Its history keeps showing which changes the agent made before the claim.",
  ],
  [
    "The design review found three places where the contrast was too low.",
    "Disabled buttons used a grey that failed the accessibility check in dark mode.",
    "Links inside tables were indistinguishable from plain text.",
    "The focus ring disappeared on the colour picker entirely.",
  ],
  [
    "Backups run every night at two in the morning, server time.",
    "Each backup is encrypted with a key that never leaves the operator's machine.",
    "We keep fourteen daily copies and twelve monthly ones.",
    "Restoring a single workspace takes about ten minutes on the test server.",
  ],
  [
    "The interview with the library team went better than expected.",
    "They catalogue donations in a shared spreadsheet that three people edit at once.",
    "Conflicts happen weekly and someone loses an afternoon of work each time.",
    "A table with row history would solve most of their problems.",
  ],
  [
    "Rate limits protect the service from runaway scripts, not from curious people.",
    "A person clicking around should never see a limit message.",
    "An agent that loops on a failing call is slowed down after sixty writes a minute.",
    "The error tells it how long to wait before trying again.",
  ],
  [
    "The quarterly planning meeting moved to Thursday afternoon.",
    "Bring one page on what your team shipped and one on what it will drop.",
    "Dropping work is as important as adding it, and we will discuss both.",
    "Slides are not needed; a shared page is enough.",
  ],
  [
    "Public pages are served with a strict content security policy.",
    "Scripts in uploaded HTML run in a sandboxed frame without cookies.",
    "A page can therefore never read a visitor's session or make requests on their behalf.",
    "Authors who need interactivity can still embed charts that run inside the frame.",
  ],
  [
    "The translation pilot covers German, Spanish and Japanese.",
    "Volunteers review every string before it ships to users.",
    "Dates and numbers follow the reader's locale, not the author's.",
    "Right-to-left languages come later, once the layout work is finished.",
  ],
  [
    "Exports produce a single archive with every page, table and revision.",
    "The archive format is documented so that other tools can read it.",
    "Importing it into a fresh workspace restores the same addresses.",
    "Files larger than the workspace cap are refused with a clear message.",
  ],
  [
    "Search ranks titles above body text and recent pages above old ones.",
    "Exact phrases in quotes are matched as written.",
    "Typing a table's name shows its rows as results too.",
    "Deleted pages never appear, even for their former authors.",
  ],
];

/** A paragraph repeated word for word on a page (a disclaimer), for the twin cases. */
const TWIN = ["Note: figures in this section are estimates and will change after the audit.", "Ask the finance team before quoting them outside the company."];

const EXTRA = [
  "An update from Tuesday: the vendor confirmed the dates in writing.",
  "Open question: who owns the follow-up with the legal team?",
  "Action item for next week is to draft the announcement and circulate it.",
  "Reminder that the office is closed on the public holiday.",
  "Someone asked whether this applies to archived workspaces as well.",
  "The numbers below were updated after the second review.",
];

const SWAPS: Record<string, string> = {
  customer: "client",
  current: "existing",
  before: "prior to",
  users: "people",
  colleague: "teammate",
  expected: "assumed",
  full: "complete",
  fresh: "clean",
  plain: "simple",
  measured: "timed",
  almost: "nearly",
  nobody: "no one",
  same: "identical",
  ordinary: "regular",
  found: "spotted",
  failed: "did not pass",
  encrypted: "sealed",
  daily: "nightly",
  weekly: "every week",
  runaway: "misbehaving",
  slowed: "held back",
  important: "valuable",
  strict: "tight",
  never: "not ever",
  every: "each",
  single: "lone",
  clear: "plain",
  recent: "newer",
  written: "typed",
  shared: "common",
  three: "four",
  review: "check",
  documented: "described",
  later: "afterwards",
};

/** A small seeded generator (mulberry32), so the set is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type EditKind =
  | "insert_above"
  | "insert_sentence_before"
  | "reword_nearby"
  | "reorder"
  | "reword_quote"
  | "typo_fix"
  | "word_added_in_quote"
  | "move_and_reword"
  | "delete_sentence"
  | "delete_paragraph"
  | "rewrite_quote"
  | "twin_insert_above"
  | "twin_delete_other"
  | "twin_delete_commented"
  | "twin_reword_commented";

export interface AnchorCase {
  kind: EditKind;
  oldText: string;
  anchor: QuoteAnchor;
  newText: string;
  /** Where the passage is in newText, or null when it was deleted or rewritten beyond recognition. */
  expected: { start: number; end: number } | null;
}

const OPEN = "\u0001";
const CLOSE = "\u0002";

/** Joins paragraphs (arrays of sentences) and finds the marked span. */
function render(paras: string[][]): { text: string; span: { start: number; end: number } | null } {
  const marked = paras.map((p) => p.join(" ")).join("\n\n");
  const start = marked.indexOf(OPEN);
  if (start === -1) return { text: marked, span: null };
  const end = marked.indexOf(CLOSE) - 1;
  return { text: marked.replace(OPEN, "").replace(CLOSE, ""), span: { start, end } };
}

function swapOneWord(s: string, pick: () => number): string | null {
  const words = Object.keys(SWAPS).filter((w) => new RegExp(`\\b${w}\\b`).test(s));
  if (words.length === 0) return null;
  const w = at(words, Math.floor(pick() * words.length));
  return s.replace(new RegExp(`\\b${w}\\b`), at(SWAPS, w));
}

/** The cases: `perKind` of each kind, from `seed`. */
export function anchorCases(seed = 28, perKind = 16): AnchorCase[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => at(xs, Math.floor(r() * xs.length));
  const out: AnchorCase[] = [];
  const kinds: EditKind[] = [
    "insert_above",
    "insert_sentence_before",
    "reword_nearby",
    "reorder",
    "reword_quote",
    "typo_fix",
    "word_added_in_quote",
    "move_and_reword",
    "delete_sentence",
    "delete_paragraph",
    "rewrite_quote",
    "twin_insert_above",
    "twin_delete_other",
    "twin_delete_commented",
    "twin_reword_commented",
  ];
  for (const kind of kinds) {
    let made = 0;
    for (let guard = 0; made < perKind && guard < perKind * 50; guard++) {
      const c = makeCase(kind, r, pick);
      if (c) {
        out.push(c);
        made++;
      }
    }
  }
  return out;
}

function makeCase(kind: EditKind, r: () => number, pick: <T>(xs: readonly T[]) => T): AnchorCase | null {
  // A page of 4 to 7 paragraphs in a random order.
  const order = PARAGRAPHS.map((_, i) => i).sort(() => r() - 0.5);
  const paras = order.slice(0, 4 + Math.floor(r() * 4)).map((i) => [...at(PARAGRAPHS, i)]);
  const twin = kind.startsWith("twin_");
  if (twin) {
    const a = 1 + Math.floor(r() * (paras.length - 1));
    paras.splice(a, 0, [...TWIN]);
    paras.push([...TWIN]);
  }
  // The commented passage: a whole sentence, or a run of its words.
  const pi = twin ? paras.length - 1 : Math.floor(r() * paras.length);
  const si = Math.floor(r() * at(paras, pi).length);
  const sentence = at(at(paras, pi), si);
  const words = sentence.split(" ");
  let qFrom = 0;
  let qTo = words.length;
  if (r() < 0.5 && words.length > 7) {
    const len = 5 + Math.floor(r() * (words.length - 5));
    qFrom = Math.floor(r() * (words.length - len + 1));
    qTo = qFrom + len;
  }
  const quote = words.slice(qFrom, qTo).join(" ");
  const mark = (q: string) => [...words.slice(0, qFrom), `${OPEN}${q}${CLOSE}`, ...words.slice(qTo)].join(" ");
  const before = paras.map((p) => [...p]);
  at(before, pi)[si] = mark(quote);
  const old = render(before);
  if (!old.span) return null;
  const anchor = makeAnchor(old.text, old.span.start, old.span.end, 3);
  const after = paras.map((p) => [...p]);
  const rest = after.filter((_, i) => i !== pi);
  let expectGone = false;
  switch (kind) {
    case "insert_above":
    case "twin_insert_above": {
      at(after, pi)[si] = mark(quote);
      after.splice(Math.floor(r() * (pi + 1)), 0, [pick(EXTRA)]);
      break;
    }
    case "insert_sentence_before": {
      at(after, pi)[si] = mark(quote);
      at(after, pi).splice(Math.floor(r() * (si + 1)), 0, pick(EXTRA));
      break;
    }
    case "reword_nearby": {
      at(after, pi)[si] = mark(quote);
      const others = at(after, pi)
        .map((_, i) => i)
        .filter((i) => i !== si);
      const oi = pick(others);
      const changed = swapOneWord(at(at(after, pi), oi), r);
      if (!changed) return null;
      at(after, pi)[oi] = changed;
      break;
    }
    case "reorder": {
      at(after, pi)[si] = mark(quote);
      const moved = at(after.splice(pi, 1), 0);
      let to = Math.floor(r() * (after.length + 1));
      if (to === pi) to = pi === 0 ? after.length : 0;
      after.splice(to, 0, moved);
      break;
    }
    case "reword_quote":
    case "twin_reword_commented": {
      if (qTo - qFrom < 6) return null;
      const changed = swapOneWord(quote, r);
      if (!changed) return null;
      at(after, pi)[si] = mark(changed);
      break;
    }
    case "typo_fix": {
      const ws = quote.split(" ");
      const wi = ws.findIndex((w) => w.length >= 5);
      if (wi === -1 || ws.length < 4) return null;
      const w = at(ws, wi);
      ws[wi] = w.slice(0, 2) + w[3] + w[2] + w.slice(4);
      at(after, pi)[si] = mark(ws.join(" "));
      break;
    }
    case "word_added_in_quote": {
      const ws = quote.split(" ");
      if (ws.length < 5) return null;
      ws.splice(1 + Math.floor(r() * (ws.length - 2)), 0, pick(["really", "also", "probably", "still", "then"]));
      at(after, pi)[si] = mark(ws.join(" "));
      break;
    }
    case "move_and_reword": {
      if (qTo - qFrom < 6) return null;
      const changed = swapOneWord(quote, r);
      if (!changed) return null;
      at(after, pi)[si] = mark(changed);
      const moved = at(after.splice(pi, 1), 0);
      let to = Math.floor(r() * (after.length + 1));
      if (to === pi) to = pi === 0 ? after.length : 0;
      after.splice(to, 0, moved);
      break;
    }
    case "delete_sentence": {
      if (at(after, pi).length < 2) return null;
      at(after, pi).splice(si, 1);
      expectGone = true;
      break;
    }
    case "delete_paragraph": {
      after.splice(0, after.length, ...rest);
      expectGone = true;
      break;
    }
    case "rewrite_quote": {
      at(after, pi)[si] = pick(EXTRA);
      expectGone = true;
      break;
    }
    case "twin_delete_other": {
      at(after, pi)[si] = mark(quote);
      const other = after.findIndex((p, i) => i !== pi && p[0] === TWIN[0]);
      after.splice(other, 1);
      break;
    }
    case "twin_delete_commented": {
      after.splice(pi, 1);
      expectGone = true;
      break;
    }
  }
  const next = render(after);
  if (!expectGone && !next.span) return null;
  return { kind, oldText: old.text, anchor, newText: next.text, expected: expectGone ? null : next.span };
}
