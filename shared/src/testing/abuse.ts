// The abuse corpus's common parts (issue 13): the forged values sent in place of every id,
// the tally of what was tried and seen, and the before/after snapshot of every collection
// that proves nothing was written. Used by server/src/abuse and mcp-sidecar/src/abuse.
import { COLLECTION_NAMES, type Database } from "../db/index";
import { awaitWritesSettled } from "../domain/versioned-write";

/**
 * Values an attacker sends where an id, slug, cursor or version belongs: wrong types, NoSQL
 * operator objects, prototype keys, huge and empty strings, path tricks and unicode look-alikes
 * of a real value (`like`, a slug or id of someone else's).
 */
export function forgedValues(like: string, huge = 100_000): { label: string; value: unknown }[] {
  const fullwidth = [...like].map((c) => (c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join("");
  return [
    { label: "$regex", value: { $regex: ".*" } },
    { label: "$ne", value: { $ne: null } },
    { label: "$gt", value: { $gt: "" } },
    { label: "$where", value: { $where: "sleep(1000) || true" } },
    { label: "$in", value: { $in: [like] } },
    { label: "__proto__ object", value: JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}') as unknown },
    { label: "__proto__", value: "__proto__" },
    { label: "empty", value: "" },
    { label: "spaces", value: "   " },
    { label: "huge", value: "x".repeat(huge) },
    { label: "number", value: 12345 },
    { label: "negative", value: -1 },
    { label: "float", value: 1e308 },
    { label: "boolean", value: true },
    { label: "null", value: null },
    { label: "array", value: [like, like] },
    { label: "empty object", value: {} },
    { label: "path traversal", value: "../../.data/secret-key" },
    { label: "NUL", value: `${like}\u0000` },
    { label: "zero-width", value: `${like}\u200b` },
    { label: "right-to-left", value: `\u202e${like}` },
    { label: "fullwidth look-alike", value: fullwidth },
    { label: "upper case", value: like.toUpperCase() },
    { label: "dotted I", value: `${like}\u0130` },
    { label: "lone surrogate", value: `${like}\ud800` },
    { label: "percent-encoded", value: encodeURIComponent(`${like}/..`) },
  ];
}

/** What the corpus tried and saw, per surface. */
export class Tally {
  tried = 0;
  fiveXX: string[] = [];
  accepted: string[] = [];
  disclosed: string[] = [];
  byStatus = new Map<string, number>();

  /** Records one answer; `refused` says whether it was the refusal expected. */
  record(what: string, status: string, refused: boolean, body: string, needles: string[], sent: string): void {
    this.tried++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (/^5/.test(status) || status.includes("internal_error")) this.fiveXX.push(`${what} → ${status}`);
    else if (!refused) this.accepted.push(`${what} → ${status}`);
    for (const needle of needles) if (!sent.includes(needle) && body.includes(needle)) this.disclosed.push(`${what} disclosed ${needle}`);
  }

  summary(): string {
    const statuses = [...this.byStatus.entries()]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
    return `tried ${this.tried}; 5xx ${this.fiveXX.length}; accepted ${this.accepted.length}; disclosures ${this.disclosed.length} (${statuses})`;
  }
}

/**
 * What an attack may legitimately move, left out of the "nothing written" comparison: the
 * rate-limit windows (every refusal counts), and bookkeeping fields that say nothing about
 * content — a session's or token's last use (written at most once a minute), a share link's
 * last use (touched by a request that presented its real secret), and the marks that tell the
 * sweeper to recount a counter a refused write moved and gave back (the counters themselves
 * are compared).
 */
export const SNAPSHOT_EXCLUDED = new Set<string>(["rateLimits"]);
export const SNAPSHOT_EXCLUDED_FIELDS: Record<string, string[]> = {
  sessions: ["lastSeenAt"],
  tokens: ["lastUsedAt"],
  shareLinks: ["lastUsedAt"],
  workspaces: ["usageDirtyAt"],
  collections: ["countDirtyAt"],
};

/**
 * Every document of every collection (but the excluded), as comparable text, once this
 * process's writes have settled (a page's search postings are written just after its answer).
 */
export async function snapshot(database: Database): Promise<Map<string, string[]>> {
  await awaitWritesSettled();
  const out = new Map<string, string[]>();
  for (const name of COLLECTION_NAMES) {
    if (SNAPSHOT_EXCLUDED.has(name)) continue;
    const docs = await database.db.collection(name).find({}).toArray();
    const drop = SNAPSHOT_EXCLUDED_FIELDS[name] ?? [];
    out.set(name, docs.map((d) => JSON.stringify(Object.fromEntries(Object.entries(d).filter(([k]) => !drop.includes(k))))).sort());
  }
  return out;
}

/** The documents that differ between two snapshots, named by collection (and the fields that changed). */
export function changedDocuments(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [name, docs] of after) {
    const byId = (list: string[]) =>
      new Map(list.map((d) => [JSON.stringify((JSON.parse(d) as { _id: unknown })._id), JSON.parse(d) as Record<string, unknown>]));
    const was = byId(before.get(name) ?? []);
    const now = byId(docs);
    for (const [id, doc] of now) {
      const old = was.get(id);
      if (!old) out.push(`${name} ${id} added`);
      else {
        const keys = [...new Set([...Object.keys(old), ...Object.keys(doc)])].filter((k) => JSON.stringify(old[k]) !== JSON.stringify(doc[k]));
        if (keys.length > 0)
          out.push(`${name} ${id} changed: ${keys.map((k) => `${k} ${JSON.stringify(old[k])} → ${JSON.stringify(doc[k])}`.slice(0, 200)).join("; ")}`);
      }
    }
    for (const id of was.keys()) if (!now.has(id)) out.push(`${name} ${id} removed`);
  }
  return out;
}
