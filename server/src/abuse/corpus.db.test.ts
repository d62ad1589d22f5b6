// The standing abuse corpus for the app's HTTP surface (issue 13). Every tRPC procedure is
// enumerated from the router: one that takes an id must have corpus inputs here (a new one
// fails this file until it has), one that takes none says why. Each id is replaced by ids
// of someone else, ids that do not exist, and forged values (shared/src/testing/abuse.ts),
// sent by a signed-in attacker and, for public procedures, by nobody. Expected everywhere:
// a 4xx, no 5xx, nothing written (every collection compared but the rate-limit windows),
// and nothing of the victim's in any answer. Then every limit the server owns is pushed past
// with parallel requests through two server processes on one database.
import { ReadCache } from "@atelier/shared/domain/cache";
import { addFile } from "@atelier/shared/domain/files";
import { Tally, changedDocuments, forgedValues, snapshot } from "@atelier/shared/testing/abuse";
import { listen } from "@atelier/shared/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { appRouter } from "../router";
import { protectedProcedure } from "../trpc";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

interface Fixture {
  victimEmail: string;
  victimId: string;
  memberEmail: string;
  memberId: string;
  vpriv: string;
  vpub: string;
  vpage: string;
  vpageId: string;
  vpubPage: string;
  vtable: string;
  vpubTable: string;
  vrow: string;
  vtokenId: string;
  vlinkId: string;
  vlinkSecret: string;
  secretText: string;
  aws: string;
  apage: string;
  atable: string;
  arow: string;
  atokenId: string;
  vfile: string;
  afile: string;
  vcomment: string;
  vpubComment: string;
  acomment: string;
  vhookId: string;
  ahookId: string;
}

/** A variant sent for one procedure: what it is, the input, and the surface (mutation or query). */
interface Probe {
  label: string;
  input: unknown;
}

type Entry = { ids: true; base: Record<string, unknown>; fields: Record<string, Field>; extra?: Probe[] } | { ids: false; why: string };

/** An id field: values of someone else's, values that do not exist, and what forged values look like. */
interface Field {
  foreign: unknown[];
  missing: unknown[];
  like: string;
  /** Forged values this field may take (with the reason in a comment where it is set). */
  allow?: string[];
}

const MISSING_ROW = "row_AAAAAAAAAAAAAAAAAAAA";
const MISSING_TOKEN = "tok_AAAAAAAAAAAAAAAAAAAA";
const MISSING_LINK = "lnk_AAAAAAAAAAAAAAAAAAAA";
const MISSING_USER = "usr_AAAAAAAAAAAAAAAAAAAA";
const MISSING_COMMENT = "cmt_AAAAAAAAAAAAAAAAAAAAAA";
const MISSING_HOOK = "whk_AAAAAAAAAAAAAAAAAAAA";

/** Every procedure of the router, and what the corpus sends it. */
function corpus(f: Fixture): Record<string, Entry> {
  const ws = (foreign: unknown[] = [f.vpriv]) => ({ foreign, missing: ["no-such-workspace-zz"], like: f.vpriv });
  const page = (foreign: unknown[] = [f.vpage]) => ({ foreign, missing: ["no-such-page-zz"], like: f.vpage });
  const table = { foreign: [f.vtable], missing: ["no-such-table-zz"], like: f.vtable };
  const row = { foreign: [f.vrow], missing: [MISSING_ROW], like: f.vrow };
  const token = { foreign: [f.vtokenId], missing: [MISSING_TOKEN], like: f.vtokenId };
  const user = { foreign: [f.victimId], missing: [MISSING_USER], like: f.victimId };
  const version = { foreign: [], missing: [999_999], like: "1" };
  // An empty cursor is no cursor: the first page.
  const cursor = { foreign: [], missing: ["eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA"], like: "eyJ4IjoxfQ", allow: ["empty"] };
  const allForeign = (label: string, input: unknown): Probe => ({ label: `${label} (all the victim's)`, input });
  const comment = { foreign: [f.vcomment, f.vpubComment], missing: [MISSING_COMMENT], like: f.vcomment };
  return {
    "comments.list": {
      ids: true,
      base: { page: f.apage },
      fields: { page: page([f.vpage, f.vpubPage]) },
      extra: [
        allForeign("comments.list table", { workspace: f.vpriv, table: f.vtable }),
        { label: "a public table's", input: { workspace: f.vpub, table: f.vpubTable } },
      ],
    },
    "comments.counts": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv]) } },
    "comments.rowCounts": { ids: true, base: { workspace: f.aws, table: f.atable }, fields: { workspace: ws([f.vpriv]), table } },
    "comments.workspaceCounts": { ids: false, why: "no input: the caller's own workspaces (checked for disclosure below)" },
    "comments.mentionables": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv]) } },
    "comments.add": {
      ids: true,
      base: { page: f.apage, body: "x" },
      fields: { page: page([f.vpage, f.vpubPage]), reply_to: comment },
      extra: [
        allForeign("comments.add quote", { page: f.vpage, quote: f.secretText, body: "x" }),
        allForeign("comments.add reply", { reply_to: f.vcomment, body: "x" }),
        { label: "a public page's thread", input: { reply_to: f.vpubComment, body: "x" } },
        allForeign("comments.add row", { workspace: f.vpriv, table: f.vtable, row_id: f.vrow, body: "x" }),
        { label: "someone else's row in my table", input: { workspace: f.aws, table: f.atable, row_id: f.vrow, body: "x" } },
      ],
    },
    "comments.resolve": { ids: true, base: { comment_id: f.acomment }, fields: { comment_id: comment } },
    "comments.edit": { ids: true, base: { comment_id: f.acomment, body: "changed" }, fields: { comment_id: comment } },
    "comments.delete": { ids: true, base: { comment_id: f.acomment }, fields: { comment_id: comment } },
    "system.health": { ids: false, why: "no input" },
    "me.get": { ids: false, why: "no input: the caller's own account (checked for disclosure below)" },
    "auth.signOut": { ids: false, why: "no input: ends the caller's own session" },
    "auth.signOutEverywhere": { ids: false, why: "no input: ends the caller's own sessions" },
    // Any well-formed address may ask for a code (that writes one): only malformed ones are sent.
    "auth.requestCode": { ids: true, base: { email: "x@example.com" }, fields: { email: { foreign: [], missing: [], like: "not-an-address" } } },
    "auth.verifyCode": {
      ids: true,
      base: { email: f.victimEmail, code: "000000" },
      fields: { email: { foreign: [], missing: [], like: "not-an-address" }, code: { foreign: ["123456"], missing: [], like: "123456" } },
    },
    "workspaces.list": { ids: false, why: "no input: the caller's own workspaces (checked for disclosure below)" },
    "tokens.list": { ids: false, why: "no input: the caller's own tokens (checked for disclosure below)" },
    "workspaces.get": { ids: true, base: { slug: f.aws }, fields: { slug: ws() } },
    "workspaces.create": { ids: true, base: { slug: uniq("fresh"), name: "N" }, fields: { slug: { foreign: [f.vpriv, f.vpub], missing: [], like: f.vpriv } } },
    "workspaces.rename": { ids: true, base: { slug: f.aws, name: "Renamed" }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "workspaces.setVisibility": { ids: true, base: { slug: f.aws, visibility: "public" }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "workspaces.activity": { ids: true, base: { slug: f.aws }, fields: { slug: ws([f.vpriv, f.vpub]), cursor } },
    "workspaces.agents": { ids: true, base: { slug: f.aws }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "workspaces.blockAgent": {
      ids: true,
      base: { slug: f.aws, token_id: f.atokenId },
      fields: { slug: ws([f.vpriv, f.vpub]), token_id: token },
      extra: [allForeign("blockAgent", { slug: f.vpriv, token_id: f.vtokenId })],
    },
    "workspaces.unblockAgent": { ids: true, base: { slug: f.aws, token_id: f.atokenId }, fields: { slug: ws([f.vpriv, f.vpub]), token_id: token } },
    "workspaces.members.list": { ids: true, base: { slug: f.aws }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "workspaces.members.add": { ids: true, base: { slug: f.aws, email: "friend@example.com", role: "editor" }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "workspaces.members.setRole": {
      ids: true,
      base: { slug: f.aws, user_id: f.memberId, role: "viewer" },
      fields: { slug: ws([f.vpriv, f.vpub]), user_id: user },
      extra: [allForeign("setRole", { slug: f.vpriv, user_id: f.memberId, role: "owner" })],
    },
    "workspaces.members.remove": {
      ids: true,
      base: { slug: f.aws, user_id: f.memberId },
      fields: { slug: ws([f.vpriv, f.vpub]), user_id: user },
      extra: [allForeign("remove", { slug: f.vpriv, user_id: f.victimId })],
    },
    "files.list": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws() } },
    "files.createUploadUrl": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv, f.vpub]) } },
    "files.delete": {
      ids: true,
      base: { workspace: f.aws, sha256: f.afile },
      fields: { workspace: ws([f.vpriv, f.vpub]), sha256: { foreign: [f.vfile], missing: ["0".repeat(64)], like: f.vfile } },
      extra: [allForeign("delete", { workspace: f.vpriv, sha256: f.vfile })],
    },
    "workspaces.shareLinks.list": { ids: true, base: { slug: f.aws }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "workspaces.shareLinks.create": {
      ids: true,
      base: { slug: f.aws, page: f.apage },
      fields: { slug: ws([f.vpriv, f.vpub]), page: page([f.vpage, f.vpubPage]) },
    },
    "workspaces.shareLinks.revoke": {
      ids: true,
      base: { slug: f.aws, link_id: f.vlinkId },
      fields: { slug: ws([f.vpriv, f.vpub]), link_id: { foreign: [f.vlinkId], missing: [MISSING_LINK], like: f.vlinkId } },
      extra: [allForeign("revoke", { slug: f.vpriv, link_id: f.vlinkId })],
    },
    "webhooks.list": { ids: true, base: { slug: f.aws }, fields: { slug: ws([f.vpriv, f.vpub]) } },
    "webhooks.add": {
      ids: true,
      base: { workspace: f.aws, url: "http://127.0.0.1:9/hook", events: ["page.created"] },
      fields: { workspace: ws([f.vpriv, f.vpub]) },
    },
    ...Object.fromEntries(
      (["webhooks.update", "webhooks.rotate", "webhooks.remove", "webhooks.deliveries"] as const).map((path) => [
        path,
        {
          ids: true as const,
          base: path === "webhooks.update" ? { workspace: f.aws, webhook_id: f.ahookId, events: [] } : { workspace: f.aws, webhook_id: f.ahookId },
          fields: { workspace: ws([f.vpriv, f.vpub]), webhook_id: { foreign: [f.vhookId], missing: [MISSING_HOOK], like: f.vhookId } },
          extra: [allForeign(path, { workspace: f.vpriv, webhook_id: f.vhookId })],
        },
      ]),
    ),
    "webhooks.resend": {
      ids: true,
      base: { workspace: f.aws, delivery_id: `${f.ahookId}:1` },
      fields: { workspace: ws([f.vpriv, f.vpub]), delivery_id: { foreign: [`${f.vhookId}:1`], missing: [`${MISSING_HOOK}:1`], like: `${f.vhookId}:1` } },
      extra: [allForeign("resend", { workspace: f.vpriv, delivery_id: `${f.vhookId}:1` })],
    },
    "pages.list": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws(), collection: table, cursor } },
    "pages.get": { ids: true, base: { slug: f.apage }, fields: { slug: page() } },
    // Reading figures are for owners and editors: someone else's public page or workspace is as foreign as a private one.
    "analytics.page": { ids: true, base: { slug: f.apage }, fields: { slug: page([f.vpage, f.vpubPage]) } },
    "analytics.workspace": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv, f.vpub]) } },
    "pages.create": {
      ids: true,
      base: { slug: uniq("new"), title: "t", body_markdown: "x", workspace: f.aws },
      fields: { workspace: ws([f.vpriv, f.vpub]), slug: { foreign: [f.vpage, f.vpubPage], missing: [], like: f.vpage }, collection: table },
    },
    "pages.update": {
      ids: true,
      base: { slug: f.apage, body_markdown: "changed", expected_version: 1 },
      fields: { slug: page([f.vpage, f.vpubPage]), expected_version: version },
    },
    "pages.delete": { ids: true, base: { slug: f.apage }, fields: { slug: page([f.vpage, f.vpubPage]) } },
    "pages.revision": { ids: true, base: { slug: f.apage, version: 1 }, fields: { slug: page(), version } },
    "pages.restore": { ids: true, base: { slug: f.apage, version: 1 }, fields: { slug: page([f.vpage, f.vpubPage]), version } },
    "pages.history": { ids: true, base: { slug: f.apage }, fields: { slug: page() } },
    "pages.edit": {
      ids: true,
      base: { slug: f.apage, expected_version: 1, edits: [{ op: "replace", find: "mine", replace: "changed" }] },
      fields: { slug: page([f.vpage, f.vpubPage]), expected_version: version },
    },
    "pages.diff": { ids: true, base: { slug: f.apage, from: 1 }, fields: { slug: page(), from: version } },
    "tokens.create": {
      ids: true,
      base: { label: "t", scopes: ["mcp:read"], workspaces: [f.aws] },
      fields: { workspaces: { foreign: [[f.vpriv], [f.vpub], [f.aws, f.vpub]], missing: [["no-such-workspace-zz"]], like: f.vpriv } },
    },
    "tokens.rotate": { ids: true, base: { token_id: f.atokenId }, fields: { token_id: token } },
    "tokens.revoke": { ids: true, base: { token_id: f.atokenId }, fields: { token_id: token } },
    "collections.list": { ids: true, base: { workspace: f.aws }, fields: { workspace: ws() } },
    "collections.create": {
      ids: true,
      base: { workspace: f.aws, slug: uniq("tbl"), name: "T", kind: "table", columns: [{ name: "a", type: "text" }] },
      fields: { workspace: ws([f.vpriv, f.vpub]), slug: { foreign: [f.atable], missing: [], like: f.vtable } },
    },
    "rows.list": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable },
      fields: { workspace: ws(), collection: table, cursor },
      extra: [allForeign("rows.list", { workspace: f.vpriv, collection: f.vtable })],
    },
    "rows.insert": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, rows: [{ name: "x" }] },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: { ...table, foreign: [f.vtable, f.vpubTable] } },
      extra: [allForeign("rows.insert", { workspace: f.vpub, collection: f.vpubTable, rows: [{ name: "x" }] })],
    },
    "rows.update": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, row_id: f.arow, values: { name: "y" }, expected_version: 1 },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table, row_id: row, expected_version: version },
      extra: [allForeign("rows.update", { workspace: f.vpriv, collection: f.vtable, row_id: f.vrow, values: { name: "y" } })],
    },
    "rows.updateMany": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, changes: [{ row_id: f.arow, expected_version: 1, values: { name: "y" } }], rows: [] },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table },
      extra: [
        allForeign("rows.updateMany", { workspace: f.vpriv, collection: f.vtable, changes: [{ row_id: f.vrow, expected_version: 1, values: { name: "y" } }] }),
      ],
    },
    "rows.delete": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, row_id: f.arow },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table, row_id: row, expected_version: version },
      extra: [allForeign("rows.delete", { workspace: f.vpriv, collection: f.vtable, row_id: f.vrow })],
    },
    "rows.history": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, row_id: f.arow },
      fields: { workspace: ws(), collection: table, row_id: row },
      extra: [allForeign("rows.history", { workspace: f.vpriv, collection: f.vtable, row_id: f.vrow })],
    },
    "workspaces.delete": {
      ids: true,
      base: { slug: f.aws, confirm: f.aws },
      // The confirmation ignores letter case by design (docs/decisions.md): the upper-case
      // address is the right one, and would delete the attacker's own workspace mid-corpus.
      fields: { slug: ws([]), confirm: { foreign: [f.vpriv], missing: [], like: f.aws, allow: ["upper case"] } },
      extra: [allForeign("delete", { slug: f.vpriv, confirm: f.vpriv }), allForeign("delete public", { slug: f.vpub, confirm: f.vpub })],
    },
    "pages.move": {
      ids: true,
      base: { slug: f.apage, new_slug: uniq("moved") },
      fields: { slug: page([f.vpage, f.vpubPage]), new_slug: { foreign: [f.vpage, f.vpubPage], missing: [], like: f.vpage } },
      extra: [allForeign("move", { slug: f.vpubPage, new_slug: uniq("stolen") })],
    },
    "collections.rename": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, name: "Renamed" },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: { ...table, foreign: [f.vtable, f.vpubTable] } },
      extra: [allForeign("rename", { workspace: f.vpub, collection: f.vpubTable, name: "Renamed" })],
    },
    "collections.columnValues": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, column: "name" },
      fields: {
        workspace: ws([f.vpriv, f.vpub]),
        collection: { ...table, foreign: [f.vtable, f.vpubTable] },
        column: { foreign: [], missing: ["no_such_column"], like: "name" },
      },
      extra: [allForeign("columnValues", { workspace: f.vpriv, collection: f.vtable, column: "name" })],
    },
    "collections.addColumn": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, column: { name: "added", type: "text" } },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: { ...table, foreign: [f.vtable, f.vpubTable] } },
      extra: [allForeign("addColumn", { workspace: f.vpub, collection: f.vpubTable, column: { name: "added", type: "text" } })],
    },
    "collections.renameColumn": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, column: "name", name: "renamed" },
      fields: {
        workspace: ws([f.vpriv, f.vpub]),
        collection: { ...table, foreign: [f.vtable, f.vpubTable] },
        column: { foreign: [], missing: ["no_such_column"], like: "name" },
      },
      extra: [allForeign("renameColumn", { workspace: f.vpub, collection: f.vpubTable, column: "name", name: "renamed" })],
    },
    "collections.removeColumn": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, column: "name", expected_values: 1 },
      fields: {
        workspace: ws([f.vpriv, f.vpub]),
        collection: { ...table, foreign: [f.vtable, f.vpubTable] },
        column: { foreign: [], missing: ["no_such_column"], like: "name" },
      },
      extra: [allForeign("removeColumn", { workspace: f.vpub, collection: f.vpubTable, column: "name", expected_values: 1 })],
    },
    "collections.changeColumnType": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, column: "name", type: "number" },
      fields: {
        workspace: ws([f.vpriv, f.vpub]),
        collection: { ...table, foreign: [f.vtable, f.vpubTable] },
        column: { foreign: [], missing: ["no_such_column"], like: "name" },
      },
      extra: [allForeign("changeColumnType", { workspace: f.vpub, collection: f.vpubTable, column: "name", type: "number" })],
    },
    "collections.delete": {
      ids: true,
      base: { workspace: f.aws, collection: f.atable },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: { ...table, foreign: [f.vtable, f.vpubTable] } },
      extra: [allForeign("delete", { workspace: f.vpub, collection: f.vpubTable }), allForeign("delete private", { workspace: f.vpriv, collection: f.vtable })],
    },
    "search.everything": {
      ids: false,
      why: "free text, not an id: answered only from the caller's own workspaces (the victim's names, slugs and text are searched for below, checked for disclosure)",
    },
    "oauth.signInContext": {
      ids: true,
      base: { uid: "AAAAAAAAAAAAAAAAAAAAA" },
      fields: { uid: { foreign: [], missing: ["AAAAAAAAAAAAAAAAAAAAA"], like: "AAAAAAAAAAAAAAAAAAAAA" } },
    },
    "oauth.interaction": {
      ids: true,
      base: { uid: "AAAAAAAAAAAAAAAAAAAAA" },
      fields: { uid: { foreign: [], missing: ["AAAAAAAAAAAAAAAAAAAAA"], like: "AAAAAAAAAAAAAAAAAAAAA" } },
    },
    "oauth.decide": {
      ids: true,
      base: { uid: "AAAAAAAAAAAAAAAAAAAAA", allow: true, workspaces: [f.aws], duration_days: 30 },
      fields: {
        uid: { foreign: [], missing: ["AAAAAAAAAAAAAAAAAAAAA"], like: "AAAAAAAAAAAAAAAAAAAAA" },
        workspaces: { foreign: [[f.vpriv]], missing: [], like: f.vpriv },
      },
    },
  };
}

/** The variants of one entry: each id field replaced by the victim's, missing and forged values. */
function probesOf(entry: Extract<Entry, { ids: true }>, huge: number): Probe[] {
  const out: Probe[] = [...(entry.extra ?? [])];
  for (const [field, values] of Object.entries(entry.fields)) {
    for (const v of values.foreign) out.push({ label: `${field}: someone else's`, input: { ...entry.base, [field]: v } });
    for (const v of values.missing) out.push({ label: `${field}: missing`, input: { ...entry.base, [field]: v } });
    for (const { label, value } of forgedValues(values.like, huge))
      if (!values.allow?.includes(label)) out.push({ label: `${field}: ${label}`, input: { ...entry.base, [field]: value } });
  }
  return out;
}

function procedures(): { path: string; type: "query" | "mutation"; isPublic: boolean }[] {
  const defs = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: "query" | "mutation"; middlewares: unknown[] } }> } })._def
    .procedures;
  // A protected procedure carries the session check, the last middleware of protectedProcedure.
  const sessionCheck = (protectedProcedure as unknown as { _def: { middlewares: unknown[] } })._def.middlewares.at(-1);
  return Object.entries(defs).map(([path, p]) => ({ path, type: p._def.type, isPublic: !p._def.middlewares.includes(sessionCheck) }));
}

describe("the abuse corpus over tRPC and the browser routes", () => {
  let srv: TestServer;
  let attacker: Browser;
  let victim: Browser;
  let f: Fixture;
  const tally = new Tally();

  beforeAll(async () => {
    srv = await startTestServer({ OTP_SENDS_PER_EMAIL_PER_HOUR: "1000" }, "corpus");
    const victimEmail = `${uniq("victim")}@example.com`;
    victim = await signIn(srv, victimEmail);
    const memberEmail = `${uniq("member")}@example.com`;
    attacker = await signIn(srv, `${uniq("attacker")}@example.com`);
    const me = await trpcData<{ id: string }>(await victim.query("me.get"));
    const secretText = `VICTIM-SECRET-${uniq("s")}`;
    const vpriv = uniq("vpriv");
    const vpub = uniq("vpub");
    await victim.mutation("workspaces.create", { slug: vpriv, name: "Private" });
    await victim.mutation("workspaces.create", { slug: vpub, name: "Public" });
    await victim.mutation("workspaces.setVisibility", { slug: vpub, visibility: "public" });
    const member = await trpcData<{ user_id: string }>(await victim.mutation("workspaces.members.add", { slug: vpriv, email: memberEmail, role: "editor" }));
    const vpage = uniq("vpage");
    const created = await trpcData<{ page_id: string }>(
      await victim.mutation("pages.create", { slug: vpage, title: "Private", body_markdown: secretText, workspace: vpriv }),
    );
    await victim.mutation("pages.update", { slug: vpage, body_markdown: `${secretText} v2` });
    const vpubPage = uniq("vpubpage");
    await victim.mutation("pages.create", { slug: vpubPage, title: "Open", body_markdown: "open text", workspace: vpub });
    const vtable = uniq("vtbl");
    const vpubTable = uniq("vpubtbl");
    for (const [w, t] of [
      [vpriv, vtable],
      [vpub, vpubTable],
    ] as const) {
      await victim.mutation("collections.create", { workspace: w, slug: t, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] });
    }
    const rows = await trpcData<{ row_ids: string[] }>(
      await victim.mutation("rows.insert", { workspace: vpriv, collection: vtable, rows: [{ name: secretText }] }),
    );
    await victim.mutation("rows.insert", { workspace: vpub, collection: vpubTable, rows: [{ name: "open" }] });
    const vtoken = await trpcData<{ token_id: string }>(await victim.mutation("tokens.create", { label: "Victim agent", scopes: ["mcp:read", "mcp:write"] }));
    const link = await trpcData<{ url: string; link_id: string }>(await victim.mutation("workspaces.shareLinks.create", { slug: vpriv, page: vpage }));
    const vhook = await trpcData<{ webhook: { webhook_id: string } }>(
      await victim.mutation("webhooks.add", { workspace: vpriv, url: "http://127.0.0.1:9/victim-hook" }),
    );

    const aws = uniq("aws");
    await attacker.mutation("workspaces.create", { slug: aws, name: "Mine" });
    const apage = uniq("apage");
    await attacker.mutation("pages.create", { slug: apage, title: "Mine", body_markdown: "mine", workspace: aws });
    const atable = uniq("atbl");
    await attacker.mutation("collections.create", { workspace: aws, slug: atable, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] });
    const arows = await trpcData<{ row_ids: string[] }>(
      await attacker.mutation("rows.insert", { workspace: aws, collection: atable, rows: [{ name: "mine" }] }),
    );
    const atoken = await trpcData<{ token_id: string }>(await attacker.mutation("tokens.create", { label: "Attacker agent", scopes: ["mcp:read"] }));
    // A file on each side (different bytes: the same bytes in one's own workspace are one's own).
    const asUser = async (email: string) => {
      const user = await srv.database.c.users.findOne({ email });
      if (!user) throw new Error(`no user ${email}`);
      return { kind: "user" as const, user };
    };
    const vfile = (await addFile(srv.deps, await asUser(victimEmail), { workspace: vpriv, data: Buffer.from("victim notes\n"), imageOnly: false })).file.sha256;
    const attackerEmail = (await trpcData<{ email: string }>(await attacker.query("me.get"))).email;
    const afile = (await addFile(srv.deps, await asUser(attackerEmail), { workspace: aws, data: Buffer.from("attacker notes\n"), imageOnly: false })).file
      .sha256;
    const vcomment = await trpcData<{ comment_id: string }>(
      await victim.mutation("comments.add", { page: vpage, quote: secretText, body: `${secretText} said` }),
    );
    const vpubComment = await trpcData<{ comment_id: string }>(await victim.mutation("comments.add", { page: vpubPage, body: `${secretText} in public` }));
    const acomment = await trpcData<{ comment_id: string }>(await attacker.mutation("comments.add", { page: apage, body: "mine" }));
    const ahook = await trpcData<{ webhook: { webhook_id: string } }>(
      await attacker.mutation("webhooks.add", { workspace: aws, url: "http://127.0.0.1:9/attacker-hook" }),
    );
    f = {
      vfile,
      afile,
      victimEmail,
      victimId: me.id,
      memberEmail,
      memberId: member.user_id,
      vpriv,
      vpub,
      vpage,
      vpageId: created.page_id,
      vpubPage,
      vtable,
      vpubTable,
      vrow: rows.row_ids[0] ?? "",
      vtokenId: vtoken.token_id,
      vlinkId: link.link_id,
      vlinkSecret: new URL(link.url).pathname.split("/")[2] ?? "",
      secretText,
      aws,
      apage,
      atable,
      arow: arows.row_ids[0] ?? "",
      atokenId: atoken.token_id,
      vcomment: vcomment.comment_id,
      vpubComment: vpubComment.comment_id,
      acomment: acomment.comment_id,
      vhookId: vhook.webhook.webhook_id,
      ahookId: ahook.webhook.webhook_id,
    };
  });
  afterAll(async () => {
    console.log(`ABUSE CORPUS (tRPC + browser routes): ${tally.summary()}`);
    await srv.close();
  });

  it("has corpus inputs for every procedure of the router", () => {
    expect(
      procedures()
        .filter((p) => p.isPublic)
        .map((p) => p.path),
    ).toEqual(expect.arrayContaining(["pages.get", "rows.list", "auth.requestCode"]));
    expect(
      procedures()
        .filter((p) => p.isPublic)
        .map((p) => p.path),
    ).not.toContain("tokens.create");
    const entries = corpus(f);
    const missing = procedures()
      .map((p) => p.path)
      .filter((p) => !(p in entries));
    expect(missing, "procedures without abuse corpus inputs: add them to server/src/abuse/corpus.db.test.ts").toEqual([]);
    const stale = Object.keys(entries).filter((p) => !procedures().some((x) => x.path === p));
    expect(stale, "corpus entries for procedures that no longer exist").toEqual([]);
  });

  it("refuses every foreign, missing and forged id with a 4xx, writes nothing, and discloses nothing", async () => {
    const needles = [f.victimEmail, f.victimId, f.memberEmail, f.memberId, f.secretText, f.vtokenId, f.vlinkId, f.vlinkSecret, f.vrow, f.vpageId];
    const entries = corpus(f);
    const before = await snapshot(srv.database);
    const nobody = new Browser(srv.url);
    for (const proc of procedures()) {
      const entry = entries[proc.path];
      if (!entry?.ids) continue;
      const probes = probesOf(entry, proc.type === "query" ? 4_000 : 100_000);
      // Nobody is sent the public procedures (the protected ones answer nobody 401 before any input is read).
      const callers = proc.isPublic
        ? ([
            ["attacker", attacker],
            ["nobody", nobody],
          ] as const)
        : ([["attacker", attacker]] as const);
      for (const who of callers) {
        // Ten at a time: the corpus is also a burst of parallel requests.
        for (let i = 0; i < probes.length; i += 10) {
          await Promise.all(
            probes.slice(i, i + 10).map(async (probe) => {
              const sent = JSON.stringify(probe.input);
              const res = proc.type === "query" ? await who[1].rawQuery(proc.path, probe.input) : await who[1].rawMutation(proc.path, probe.input);
              const body = await res.text();
              tally.record(`${who[0]} ${proc.path} ${probe.label}`, String(res.status), res.status >= 400 && res.status < 500, body, needles, sent);
            }),
          );
        }
      }
    }
    // The browser routes that take ids.
    const routes = [
      `/a/${f.vpage}`,
      `/artifacts/${f.vpageId}`,
      `/s/${f.vlinkSecret.slice(0, -2)}xx`,
      `/s/${f.vlinkSecret}/${f.vpubPage}`,
      `/s/${encodeURIComponent('{"$ne":null}')}`,
      `/a/${encodeURIComponent("__proto__")}`,
      `/a/${"x".repeat(4000)}`,
      `/artifacts/${f.vpageId.toUpperCase()}`,
      `/artifacts/00000000-0000-4000-8000-000000000000`,
      `/a/${f.vpage}%00`,
      `/a/${f.vpage}%E2%80%8B`,
      // Pinned versions and machine views of a private page (issue 26): nothing of it, ever.
      `/a/${f.vpage}@1`,
      `/a/${f.vpage}@2`,
      `/a/${f.vpage}.md`,
      `/a/${f.vpage}.json`,
      `/a/${f.vpage}@1.md`,
      `/a/${f.vpage}@2.json`,
      `/artifacts/${f.vpageId}@1`,
      `/artifacts/${f.vpageId}.md`,
      `/a/${f.vpubPage}@0`,
      `/a/${f.vpubPage}@99999999999`,
      `/a/${f.vpubPage}@1.txt`,
      `/a/${f.vpubPage}@1@1`,
    ];
    for (const path of routes) {
      for (const [name, b] of [
        ["attacker", attacker],
        ["nobody", nobody],
      ] as const) {
        const res = await b.request(path);
        tally.record(`${name} GET ${path.slice(0, 80)}`, String(res.status), res.status >= 400 && res.status < 500, await res.text(), needles, path);
      }
    }
    for (const path of [`/a/${f.vpage}`, `/artifacts/${f.vpageId}`]) {
      for (const [name, b] of [
        ["attacker", attacker],
        ["nobody", nobody],
      ] as const) {
        const res = await b.request(path, { headers: { accept: "text/markdown" } });
        tally.record(
          `${name} GET ${path.slice(0, 80)} as Markdown`,
          String(res.status),
          res.status >= 400 && res.status < 500,
          await res.text(),
          needles,
          path,
        );
      }
    }
    for (const body of [
      { slug: uniq("x"), title: "t", body_markdown: "x", workspace: f.vpriv },
      { slug: uniq("x"), title: "t", body_markdown: "x", workspace: f.vpub },
      { slug: f.vpage, title: "t", body_markdown: "x" },
      { slug: uniq("x"), title: "t", body_markdown: "x", workspace: { $ne: null } },
      { slug: uniq("x"), title: "t", body_markdown: "x", collection: f.vtable },
    ]) {
      const res = await attacker.request("/api/artifacts/pages", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      tally.record(
        `attacker POST /api/artifacts/pages ${JSON.stringify(body).slice(0, 80)}`,
        String(res.status),
        res.status >= 400 && res.status < 500,
        await res.text(),
        needles,
        JSON.stringify(body),
      );
    }
    for (const claim of [
      { claim_token: { $ne: null }, email: "a@example.com" },
      { claim_token: "reg_forged", otp: "123456" },
      { claim_token: "__proto__", email: "a@example.com" },
    ]) {
      const res = await fetch(`${srv.url}/agent/auth/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(claim) });
      tally.record(
        `POST /agent/auth/claim ${JSON.stringify(claim)}`,
        String(res.status),
        res.status >= 400 && res.status < 500,
        await res.text(),
        needles,
        JSON.stringify(claim),
      );
    }
    // The caller's own lists never carry the victim.
    for (const path of ["me.get", "workspaces.list", "tokens.list", "comments.workspaceCounts"]) {
      const res = await attacker.rawQuery(path);
      tally.record(`attacker ${path}`, String(res.status), true, await res.text(), needles, "");
    }
    // Search answers from the caller's own workspaces: the victim's names, slugs and text find nothing.
    for (const query of [f.vpriv, f.vpub, f.vpage, f.vpubPage, f.vtable, "Private", "Open", f.secretText, "*", ".*", "%"]) {
      const res = await attacker.query("search.everything", { query });
      tally.record(
        `attacker search.everything ${query.slice(0, 40)}`,
        String(res.status),
        res.status === 200,
        await res.text(),
        [...needles, f.vpriv, f.vpub, f.vpubPage, f.vtable],
        query,
      );
    }
    const after = await snapshot(srv.database);
    const leaked = changedDocuments(before, after);
    console.log(`ABUSE CORPUS (tRPC + browser routes): writes leaked ${leaked.length}`);
    if (tally.accepted.length > 0) console.log(tally.accepted.join("\n"));
    expect(tally.fiveXX).toEqual([]);
    expect(tally.accepted).toEqual([]);
    expect(tally.disclosed).toEqual([]);
    expect(leaked).toEqual([]);
  }, 240_000);

  it("a view of someone else's table in my page renders as missing, never their rows", async () => {
    const slug = uniq("peek");
    const res = await attacker.mutation("pages.create", {
      slug,
      title: "Peek",
      body_markdown: "x",
      workspace: f.aws,
      tables: [{ collection: f.vtable }, { collection: f.vpubTable }],
    });
    expect(res.status).toBe(200);
    const html = await (await attacker.request(`/a/${slug}`)).text();
    expect(html).toContain("no longer exists");
    expect(html).not.toContain(f.secretText);
    expect(html).not.toContain(">open<");
  });
});

describe("server limits pushed past with parallel requests through two processes on one database", () => {
  let srv: TestServer;
  let second: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    srv = await startTestServer(
      { ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_REG_PER_IP_PER_DAY: "5", ANON_REG_GLOBAL_PER_HOUR: "8", OTP_SENDS_PER_EMAIL_PER_HOUR: "4" },
      "corpuslimits",
    );
    second = await listen(createApp({ ...srv.deps, cache: new ReadCache(srv.config.CACHE_TTL_MS, srv.config.CACHE_MAX_BYTES) }));
  });
  afterAll(async () => {
    await second.close();
    await srv.close();
  });

  const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  it("registrations: 30 at once from one address, alternating processes, give exactly the per-address cap; then the global cap holds", async () => {
    const body = { type: "anonymous", requested_credential_type: "mcp_write_token", agent_label: "Flood" };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(i % 2 ? second.url : srv.url, "/agent/auth", body)));
    const statuses = answers.map((r) => r.status);
    console.log(
      `ABUSE LIMITS registrations per address: 30 tried, ${statuses.filter((s) => s === 201).length} created, ${statuses.filter((s) => s === 429).length} × 429, ${statuses.filter((s) => s >= 500).length} × 5xx`,
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect(await srv.database.c.registrations.countDocuments({})).toBe(5);
    expect(await srv.database.c.workspaces.countDocuments({})).toBe(5);
    // X-Forwarded-For from an untrusted peer is ignored (the test client is loopback, trusted
    // by default): every registration beyond the global cap is refused however addresses vary.
    const varied = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(i % 2 ? second.url : srv.url, "/agent/auth", body, { "x-forwarded-for": `198.51.100.${i + 1}` })),
    );
    expect(varied.filter((r) => r.status === 201)).toHaveLength(3);
    expect(varied.filter((r) => r.status >= 500)).toHaveLength(0);
    expect(await srv.database.c.registrations.countDocuments({})).toBe(8);
  });

  it("sign-in codes: 20 requests for one address at once, alternating processes, send exactly the cap", async () => {
    const email = `${uniq("flooded")}@example.com`;
    const before = srv.smtp.messages.length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => new Browser(i % 2 ? second.url : srv.url).mutation("auth.requestCode", { email })));
    const statuses = answers.map((r) => r.status);
    console.log(
      `ABUSE LIMITS sign-in codes per address: 20 tried, ${statuses.filter((s) => s === 200).length} sent, ${statuses.filter((s) => s === 429).length} × 429, ${statuses.filter((s) => s >= 500).length} × 5xx`,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16);
    await new Promise((r) => setTimeout(r, 300));
    expect(srv.smtp.messages.slice(before).filter((m) => m.to.includes(email))).toHaveLength(4);
  });
});
