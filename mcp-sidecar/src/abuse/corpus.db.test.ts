// The standing abuse corpus for /mcp (issue 13). Every tool is enumerated from the tool
// registry: one without corpus inputs here fails this file. Each id a tool takes is replaced by
// someone else's, one that does not exist, and forged values (shared/src/testing/abuse.ts),
// sent as raw JSON-RPC POSTs by an attacker's token, an unclaimed sandbox's token and (for
// read tools) nobody. Expected everywhere: a 4xx, a JSON-RPC error or a tool error with a
// documented code — never a 5xx or internal_error, nothing written (every collection compared
// but the rate-limit windows), nothing of the victim's in any answer. Then every limit the
// sidecar owns is pushed past with batches and parallel calls through two sidecar processes
// on one database.
import { addWebhook } from "@atelier/shared/domain/webhooks/endpoints";
import { createServer, type Server } from "node:http";
import { advanceClock, nowMs, resetClock } from "@atelier/shared/domain/clock";
import { addComment } from "@atelier/shared/domain/comments/comments";
import { countUsage } from "@atelier/shared/domain/limits";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { registerAnonymous } from "@atelier/shared/domain/registrations";
import { createShareLink } from "@atelier/shared/domain/share-links";
import { addFile } from "@atelier/shared/domain/files";
import { createUploadUrl } from "@atelier/shared/domain/uploads";
import { createCollection } from "@atelier/shared/domain/tables/create-collection";
import { insertRows } from "@atelier/shared/domain/tables/insert-rows";
import { createWorkspaceFor, setVisibility } from "@atelier/shared/domain/workspaces";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { ERROR_TABLE } from "@atelier/shared/errors";
import { keepAliveLongerThanPeers } from "@atelier/shared/process";
import { capturingLogger, testDeps } from "@atelier/shared/testing";
import { changedDocuments, forgedValues, snapshot, Tally } from "@atelier/shared/testing/abuse";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSidecarApp } from "../app";
import { makeToken, makeUser, rawCall, startTestSidecar, toolCall, type TestSidecar } from "../testing";
import { TOOLS } from "../tools/index";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
afterEach(() => resetClock());

interface Field {
  foreign: unknown[];
  missing: unknown[];
  like: string;
  /** Forged values this field may take (the reason is given where it is set). */
  allow?: string[];
}
type Entry =
  { ids: true; base: Record<string, unknown>; fields: Record<string, Field>; extra?: { label: string; input: unknown }[] } | { ids: false; why: string };

interface Fixture {
  victimEmail: string;
  victimId: string;
  vpriv: string;
  vpub: string;
  vpage: string;
  vpageId: string;
  vpubPage: string;
  vtable: string;
  vpubTable: string;
  vrow: string;
  vpubRow: string;
  vtokenId: string;
  secretText: string;
  aws: string;
  apage: string;
  atable: string;
  arow: string;
  sandbox: string;
  vfile: string;
  afile: string;
  vupload: string;
  aupload: string;
  png: string;
  vcomment: string;
  vpubComment: string;
  acomment: string;
  vhookId: string;
  ahookId: string;
}

const MISSING_ROW = "row_AAAAAAAAAAAAAAAAAAAA";
const MISSING_COMMENT = "cmt_AAAAAAAAAAAAAAAAAAAAAA";
const MISSING_HOOK = "whk_AAAAAAAAAAAAAAAAAAAA";

function corpus(f: Fixture): Record<string, Entry> {
  const ws = (foreign: unknown[] = [f.vpriv]): Field => ({ foreign, missing: ["no-such-workspace-zz"], like: f.vpriv });
  const page = (foreign: unknown[] = [f.vpage]): Field => ({ foreign, missing: ["no-such-page-zz"], like: f.vpage });
  const table = (foreign: unknown[] = [f.vtable]): Field => ({ foreign, missing: ["no-such-table-zz"], like: f.vtable });
  const row: Field = { foreign: [f.vrow, f.vpubRow], missing: [MISSING_ROW], like: f.vrow };
  const version: Field = { foreign: [], missing: [999_999], like: "1" };
  // An empty cursor is no cursor: the first page.
  const cursor: Field = { foreign: [], missing: ["eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA"], like: "eyJ4IjoxfQ", allow: ["empty"] };
  return {
    whoami: { ids: false, why: "no input: the caller's own identity (checked for disclosure below)" },
    list_workspaces: { ids: false, why: "no input: the caller's own workspaces (checked for disclosure below)" },
    get_workspace: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws() } },
    list_changes: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws() } },
    list_pages: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws(), collection: table(), cursor } },
    get_page: {
      ids: true,
      base: { slug: f.apage },
      fields: { slug: page(), page_id: { foreign: [f.vpageId], missing: ["00000000-0000-4000-8000-000000000000"], like: f.vpageId } },
      extra: [
        { label: "page_id alone: someone else's", input: { page_id: f.vpageId } },
        // A public page's comments are its members' only.
        { label: "comments of someone else's public page", input: { slug: f.vpubPage, comments: true } },
        { label: "comments of someone else's page", input: { slug: f.vpage, comments: true } },
      ],
    },
    // Reading figures are for owners and editors: someone else's public page is as foreign as a private one.
    get_page_stats: { ids: true, base: { slug: f.apage }, fields: { slug: page([f.vpage, f.vpubPage]) } },
    list_comments: {
      ids: true,
      base: { page: f.apage },
      fields: { page: page([f.vpage, f.vpubPage]) },
      extra: [
        { label: "someone else's table", input: { workspace: f.vpriv, table: f.vtable } },
        { label: "someone else's public table", input: { workspace: f.vpub, table: f.vpubTable, include_resolved: true } },
      ],
    },
    add_comment: {
      ids: true,
      base: { page: f.apage, body: "x" },
      fields: { page: page([f.vpage, f.vpubPage]) },
      extra: [
        { label: "a quote on someone else's page", input: { page: f.vpage, quote: f.secretText, body: "x" } },
        { label: "a reply in someone else's thread", input: { reply_to: f.vcomment, body: "x" } },
        { label: "a reply in someone else's public page's thread", input: { reply_to: f.vpubComment, body: "x" } },
        { label: "a reply in a missing thread", input: { reply_to: MISSING_COMMENT, body: "x" } },
        { label: "someone else's row", input: { workspace: f.vpriv, table: f.vtable, row_id: f.vrow, body: "x" } },
        { label: "someone else's public row", input: { workspace: f.vpub, table: f.vpubTable, row_id: f.vpubRow, body: "x" } },
        { label: "someone else's row in my table", input: { workspace: f.aws, table: f.atable, row_id: f.vrow, body: "x" } },
        { label: "a quote not on my page", input: { page: f.apage, quote: "not there", body: "x" } },
        { label: "a body too long", input: { page: f.apage, body: "x".repeat(10_001) } },
        { label: "two targets", input: { page: f.apage, reply_to: f.acomment, body: "x" } },
      ],
    },
    resolve_comment: {
      ids: true,
      base: { comment_id: f.acomment },
      fields: { comment_id: { foreign: [f.vcomment, f.vpubComment], missing: [MISSING_COMMENT], like: f.vcomment } },
    },
    search_pages: {
      ids: true,
      base: { query: "VICTIM", workspace: f.aws },
      fields: { workspace: ws() },
      extra: [{ label: "the secret text, in someone else's workspace", input: { query: f.secretText, workspace: f.vpriv } }],
    },
    get_page_history: { ids: true, base: { slug: f.apage }, fields: { slug: page() } },
    create_page: {
      ids: true,
      base: { slug: uniq("new"), title: "t", body_markdown: "x", workspace: f.aws },
      fields: { workspace: ws([f.vpriv, f.vpub]), slug: { foreign: [f.vpage, f.vpubPage], missing: [], like: f.vpage }, collection: table() },
    },
    update_page: {
      ids: true,
      base: { slug: f.apage, body_markdown: "changed", expected_version: 1 },
      fields: { slug: page([f.vpage, f.vpubPage]), expected_version: version },
    },
    delete_page: { ids: true, base: { slug: f.apage }, fields: { slug: page([f.vpage, f.vpubPage]) } },
    edit_page: {
      ids: true,
      base: { slug: f.apage, expected_version: 1, edits: [{ op: "replace", find: "mine", replace: "changed" }] },
      fields: { slug: page([f.vpage, f.vpubPage]), expected_version: version },
    },
    diff_page_versions: { ids: true, base: { slug: f.apage, from: 1 }, fields: { slug: page(), from: version } },
    move_page: {
      ids: true,
      base: { slug: f.apage, new_slug: uniq("moved") },
      fields: { slug: page([f.vpage, f.vpubPage]), new_slug: { foreign: [f.vpage, f.vpubPage], missing: [], like: f.vpage } },
    },
    change_table: {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, change: { op: "rename", name: "Renamed" } },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table([f.vtable]) },
    },

    list_collections: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws() } },
    list_rows: {
      ids: true,
      base: { workspace: f.aws, collection: f.atable },
      fields: { workspace: ws(), collection: table(), cursor },
      extra: [
        { label: "all the victim's", input: { workspace: f.vpriv, collection: f.vtable } },
        { label: "filter with an operator object", input: { workspace: f.aws, collection: f.atable, filter: { name: { $regex: ".*" } } } },
        {
          label: "filter on __proto__",
          input: JSON.parse(`{"workspace":"${f.aws}","collection":"${f.atable}","filter":{"__proto__":{"name":"x"}, "constructor": "x"}}`) as unknown,
        },
        { label: "sort on __proto__", input: { workspace: f.aws, collection: f.atable, sort: { column: "__proto__", direction: "asc" } } },
      ],
    },
    create_collection: {
      ids: true,
      base: { workspace: f.aws, slug: uniq("tbl"), name: "T", kind: "table", columns: [{ name: "a", type: "text" }] },
      fields: { workspace: ws([f.vpriv, f.vpub]), slug: { foreign: [f.atable], missing: [], like: f.vtable } },
    },
    insert_rows: {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, rows: [{ name: "x" }] },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table([f.vtable, f.vpubTable]) },
      extra: [{ label: "all the victim's (public)", input: { workspace: f.vpub, collection: f.vpubTable, rows: [{ name: "x" }] } }],
    },
    update_row: {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, row_id: f.arow, values: { name: "y" }, expected_version: 1 },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table(), row_id: row, expected_version: version },
      extra: [{ label: "all the victim's", input: { workspace: f.vpub, collection: f.vpubTable, row_id: f.vpubRow, values: { name: "y" } } }],
    },
    delete_row: {
      ids: true,
      base: { workspace: f.aws, collection: f.atable, row_id: f.arow },
      fields: { workspace: ws([f.vpriv, f.vpub]), collection: table(), row_id: row, expected_version: version },
      extra: [{ label: "all the victim's", input: { workspace: f.vpub, collection: f.vpubTable, row_id: f.vpubRow } }],
    },
    create_workspace: {
      ids: true,
      base: { slug: uniq("fresh"), name: "N" },
      fields: { slug: { foreign: [f.vpriv, f.vpub, f.sandbox], missing: [], like: f.vpriv } },
    },
    set_workspace_visibility: { ids: true, base: { workspace: f.aws, visibility: "public" }, fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]) } },
    add_collaborator: {
      ids: true,
      base: { workspace: f.aws, email: "friend@example.com", role: "editor" },
      fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]) },
    },
    export_workspace: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]) } },
    import_workspace: {
      ids: true,
      // An empty zip (its end record only).
      base: { workspace: f.aws, archive_base64: "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==" },
      fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]) },
    },
    create_share_link: {
      ids: true,
      base: { workspace: f.aws, page: f.apage },
      fields: { workspace: ws([f.vpriv, f.vpub]), page: page([f.vpage, f.vpubPage]) },
    },
    push_image: { ids: true, base: { workspace: f.aws, data: f.png, alt: "A dot" }, fields: { workspace: ws([f.vpriv, f.vpub]) } },
    create_upload_url: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv, f.vpub]) } },
    finish_upload: {
      ids: true,
      base: { upload_id: f.aupload, alt: "x" },
      // The attacker's own upload is finished only once something was PUT: not_found either way.
      fields: { upload_id: { foreign: [f.vupload], missing: ["A".repeat(43)], like: f.vupload } },
    },
    list_files: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws() } },
    delete_file: {
      ids: true,
      base: { workspace: f.aws, sha256: f.afile },
      fields: { workspace: ws([f.vpriv, f.vpub]), sha256: { foreign: [f.vfile], missing: ["0".repeat(64)], like: f.vfile } },
    },
    add_webhook: {
      ids: true,
      base: { workspace: f.aws, url: "http://127.0.0.1:9/hook", events: ["page.created"] },
      fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]) },
    },
    list_webhooks: { ids: true, base: { workspace: f.aws }, fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]) } },
    remove_webhook: {
      ids: true,
      base: { workspace: f.aws, webhook_id: f.ahookId },
      fields: { workspace: ws([f.vpriv, f.vpub, f.sandbox]), webhook_id: { foreign: [f.vhookId], missing: [MISSING_HOOK], like: f.vhookId } },
      extra: [{ label: "remove (all the victim's)", input: { workspace: f.vpriv, webhook_id: f.vhookId } }],
    },
  };
}

function probesOf(entry: Extract<Entry, { ids: true }>): { label: string; input: unknown }[] {
  const out = [...(entry.extra ?? [])];
  for (const [field, values] of Object.entries(entry.fields)) {
    for (const v of values.foreign) out.push({ label: `${field}: someone else's`, input: { ...entry.base, [field]: v } });
    for (const v of values.missing) out.push({ label: `${field}: missing`, input: { ...entry.base, [field]: v } });
    for (const { label, value } of forgedValues(values.like))
      if (!values.allow?.includes(label)) out.push({ label: `${field}: ${label}`, input: { ...entry.base, [field]: value } });
  }
  return out;
}

interface RpcAnswer {
  result?: { isError?: boolean; content?: { text: string }[] };
  error?: { code: number };
}

/** How /mcp answered: the status (or the tool error's code), and whether that is a refusal. */
async function outcome(res: Response): Promise<{ status: string; refused: boolean; body: string }> {
  const body = await res.text();
  if (res.status !== 200) return { status: String(res.status), refused: res.status >= 400 && res.status < 500, body };
  const answer = JSON.parse(body) as RpcAnswer;
  if (answer.error) return { status: `jsonrpc ${answer.error.code}`, refused: true, body };
  if (answer.result?.isError) {
    const code = (JSON.parse(answer.result.content?.[0]?.text ?? "{}") as { error?: string }).error ?? "?";
    // A documented code other than internal_error is the refusal expected.
    return { status: `tool ${code}`, refused: code in ERROR_TABLE && code !== "internal_error", body };
  }
  return { status: "200", refused: false, body };
}

describe("the abuse corpus over /mcp", () => {
  let sc: TestSidecar;
  let f: Fixture;
  let attackerAuth: Record<string, string>;
  let sandboxAuth: Record<string, string>;
  let victimCredential: string;
  const tally = new Tally();

  beforeAll(async () => {
    sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_WRITES_PER_MINUTE: "100000" }, "mcpcorpus");
    const victimEmail = `${uniq("victim")}@example.com`;
    const victim = await makeUser(sc, victimEmail);
    const as = { kind: "user" as const, user: victim };
    const secretText = `VICTIM-SECRET-${uniq("s")}`;
    const vpriv = uniq("vpriv");
    const vpub = uniq("vpub");
    await createWorkspaceFor(sc.deps, as, { slug: vpriv, name: "Private" });
    await createWorkspaceFor(sc.deps, as, { slug: vpub, name: "Public" });
    await setVisibility(sc.deps, as, vpub, "public");
    const vpage = uniq("vpage");
    const created = await createPage(sc.deps, as, { slug: vpage, title: "Private", body_markdown: secretText, workspace: vpriv });
    await updatePage(sc.deps, as, { slug: vpage, body_markdown: `${secretText} v2` });
    const vpubPage = uniq("vpubpage");
    await createPage(sc.deps, as, { slug: vpubPage, title: "Open", body_markdown: "open text", workspace: vpub });
    const vtable = uniq("vtbl");
    const vpubTable = uniq("vpubtbl");
    await createCollection(sc.deps, as, { workspace: vpriv, slug: vtable, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] });
    await createCollection(sc.deps, as, { workspace: vpub, slug: vpubTable, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] });
    const vrows = await insertRows(sc.deps, as, { workspace: vpriv, collection: vtable, rows: [{ name: secretText }] });
    const vpubRows = await insertRows(sc.deps, as, { workspace: vpub, collection: vpubTable, rows: [{ name: "open" }] });
    await createShareLink(sc.deps, as, { workspace: vpriv });
    // A one-pixel PNG, and a file and an upload URL on each side.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const vfile = (await addFile(sc.deps, as, { workspace: vpriv, data: png, alt: "dot", imageOnly: true })).file.sha256;
    const vupload = (await createUploadUrl(sc.deps, as, { workspace: vpriv })).upload_id;
    const vcomment = await addComment(sc.deps, as, { page: vpage, quote: secretText, body: `${secretText} comment` });
    const vpubComment = await addComment(sc.deps, as, { page: vpubPage, body: `${secretText} on the public page` });
    const vhook = await addWebhook(sc.deps, as, { workspace: vpriv, url: "http://127.0.0.1:9/victim-hook" });
    const vtoken = await makeToken(sc, victim, { label: "Victim agent" });
    victimCredential = vtoken.credential;

    const attacker = await makeUser(sc, `${uniq("attacker")}@example.com`);
    const aas = { kind: "user" as const, user: attacker };
    const aws = uniq("aws");
    await createWorkspaceFor(sc.deps, aas, { slug: aws, name: "Mine" });
    const apage = uniq("apage");
    await createPage(sc.deps, aas, { slug: apage, title: "Mine", body_markdown: "mine", workspace: aws });
    const atable = uniq("atbl");
    await createCollection(sc.deps, aas, { workspace: aws, slug: atable, name: "T", kind: "table", columns: [{ name: "name", type: "text" }] });
    const arows = await insertRows(sc.deps, aas, { workspace: aws, collection: atable, rows: [{ name: "mine" }] });
    const afile = (await addFile(sc.deps, aas, { workspace: aws, data: Buffer.from("the attacker's own notes\n"), imageOnly: false })).file.sha256;
    const aupload = (await createUploadUrl(sc.deps, aas, { workspace: aws })).upload_id;
    const acomment = await addComment(sc.deps, aas, { page: apage, body: "my own" });
    const ahook = await addWebhook(sc.deps, aas, { workspace: aws, url: "http://127.0.0.1:9/attacker-hook" });
    attackerAuth = { authorization: `Bearer ${(await makeToken(sc, attacker, { label: "Attacker agent" })).credential}` };
    const reg = await registerAnonymous(sc.deps, { agentLabel: "Sandbox attacker", requesterIp: "10.9.9.9" });
    sandboxAuth = { authorization: `Bearer ${reg.credential}` };
    f = {
      victimEmail,
      victimId: victim._id,
      vpriv,
      vpub,
      vpage,
      vpageId: created.page.page_id,
      vpubPage,
      vtable,
      vpubTable,
      vrow: vrows.row_ids[0] ?? "",
      vpubRow: vpubRows.row_ids[0] ?? "",
      vtokenId: vtoken.tokenId,
      secretText,
      aws,
      apage,
      atable,
      arow: arows.row_ids[0] ?? "",
      sandbox: reg.sandbox_bucket.slug,
      vfile,
      afile,
      vupload,
      aupload,
      png: png.toString("base64"),
      vcomment: vcomment.comment_id,
      vpubComment: vpubComment.comment_id,
      acomment: acomment.comment_id,
      vhookId: vhook.webhook.webhook_id,
      ahookId: ahook.webhook.webhook_id,
    };
  });
  afterAll(async () => {
    console.log(`ABUSE CORPUS (/mcp): ${tally.summary()}`);
    await sc.close();
  });

  it("has corpus inputs for every tool", () => {
    const entries = corpus(f);
    expect(
      TOOLS.map((t) => t.name).filter((t) => !(t in entries)),
      "tools without abuse corpus inputs: add them to mcp-sidecar/src/abuse/corpus.db.test.ts",
    ).toEqual([]);
    expect(
      Object.keys(entries).filter((t) => !TOOLS.some((x) => x.name === t)),
      "corpus entries for tools that no longer exist",
    ).toEqual([]);
  });

  it("refuses every foreign, missing and forged id, writes nothing, and discloses nothing", async () => {
    const needles = [f.victimEmail, f.victimId, f.secretText, f.vtokenId, f.vrow, f.vpageId, victimCredential];
    const entries = corpus(f);
    const before = await snapshot(sc.database);
    for (const tool of TOOLS) {
      const entry = entries[tool.name];
      if (!entry?.ids) continue;
      const probes = probesOf(entry);
      const callers: [string, Record<string, string>][] = [
        ["attacker", attackerAuth],
        ["sandbox", sandboxAuth],
      ];
      if (tool.access === "read") callers.push(["nobody", {}]);
      for (const [who, auth] of callers) {
        // Ten at a time, and every tenth group as one JSON-RPC batch (2025-03-26).
        for (let i = 0; i < probes.length; i += 10) {
          const group = probes.slice(i, i + 10);
          if ((i / 10) % 10 === 9) {
            const res = await rawCall(
              sc,
              group.map((p, k) => toolCall(tool.name, p.input as Record<string, unknown>, k + 1)),
              auth,
            );
            const text = await res.text();
            const answers = res.status === 200 ? (JSON.parse(text) as RpcAnswer[]) : [];
            if (res.status !== 200)
              tally.record(`${who} ${tool.name} batch`, String(res.status), res.status < 500 && res.status >= 400, text, needles, JSON.stringify(group));
            for (const [k, a] of answers.entries()) {
              const probe = group[k];
              const r = await outcome(new Response(JSON.stringify(a), { status: 200 }));
              tally.record(`${who} ${tool.name} ${probe?.label} (batch)`, r.status, r.refused, r.body, needles, JSON.stringify(probe?.input));
            }
            continue;
          }
          await Promise.all(
            group.map(async (probe) => {
              const r = await outcome(await rawCall(sc, toolCall(tool.name, probe.input as Record<string, unknown>), auth));
              tally.record(`${who} ${tool.name} ${probe.label}`, r.status, r.refused, r.body, needles, JSON.stringify(probe.input));
            }),
          );
        }
      }
    }
    // Resources: someone else's page, a missing one, forged URIs, and forged list cursors.
    for (const uri of [
      `artifact://${f.vpage}`,
      "artifact://no-such-page-zz",
      "artifact://__proto__",
      `artifact://${f.vpage}/../x`,
      "file:///etc/passwd",
      `artifact://${"x".repeat(5000)}`,
    ]) {
      for (const [who, auth] of [
        ["attacker", attackerAuth],
        ["sandbox", sandboxAuth],
        ["nobody", {}],
      ] as const) {
        const r = await outcome(await rawCall(sc, { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } }, auth));
        tally.record(`${who} resources/read ${uri.slice(0, 60)}`, r.status, r.refused, r.body, needles, uri);
      }
    }
    for (const cursor of ["garbage", "eyJzIjp7IiRndCI6IiJ9fQ.AAAAAAAAAAAAAAAAAAAAAA", "x".repeat(2000)]) {
      const r = await outcome(await rawCall(sc, { jsonrpc: "2.0", id: 1, method: "resources/list", params: { cursor } }, attackerAuth));
      tally.record(`attacker resources/list ${cursor.slice(0, 40)}`, r.status, r.refused, r.body, needles, cursor);
    }
    // The callers' own views never carry the victim.
    for (const [who, auth] of [
      ["attacker", attackerAuth],
      ["sandbox", sandboxAuth],
      ["nobody", {}],
    ] as const) {
      for (const name of ["whoami", "list_workspaces"]) {
        const res = await rawCall(sc, toolCall(name), auth);
        tally.record(`${who} ${name}`, String(res.status), true, await res.text(), needles, "");
      }
      const res = await rawCall(sc, { jsonrpc: "2.0", id: 1, method: "resources/list", params: {} }, auth);
      tally.record(`${who} resources/list`, String(res.status), true, await res.text(), needles, "");
    }
    const leaked = changedDocuments(before, await snapshot(sc.database));
    console.log(`ABUSE CORPUS (/mcp): writes leaked ${leaked.length}`);
    if (tally.accepted.length > 0) console.log(tally.accepted.join("\n"));
    expect(tally.fiveXX).toEqual([]);
    expect(tally.accepted).toEqual([]);
    expect(tally.disclosed).toEqual([]);
    expect(leaked).toEqual([]);
  }, 300_000);
});

describe("sidecar limits pushed past with batches and parallel calls through two processes on one database", () => {
  const env = {
    ANONYMOUS_REGISTRATION_ENABLED: "true",
    ANON_REG_PER_IP_PER_DAY: "1000",
    ANON_WRITES_PER_MINUTE: "20",
    ANON_MAX_PAGES: "8",
    ANON_MAX_BYTES: "120000",
    TABLE_MAX_ROWS: "50",
    ROW_MAX_BYTES: "1024",
  };
  let sc: TestSidecar;
  let second: { url: string; server: Server };
  beforeAll(async () => {
    sc = await startTestSidecar(env, "mcplimits");
    const port = await freePort();
    const { logger } = capturingLogger();
    const app = createSidecarApp({ ...testDeps(sc.database, { BASE_URL: sc.url, ...env }), logger });
    second = await new Promise((resolve) => {
      const s = createServer(app).listen(port, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${port}`, server: keepAliveLongerThanPeers(s) }));
    });
  });
  afterAll(async () => {
    second.server.closeAllConnections();
    await new Promise<void>((r) => second.server.close(() => r()));
    await sc.close();
  });
  // Start at the beginning of a one-minute throttle window.
  const freshMinute = () => advanceClock((60_000 - (nowMs() % 60_000) + 50) / 1000);
  const either = (i: number) => (i % 2 ? { ...sc, url: second.url } : sc);
  const sandbox = () => registerAnonymous(sc.deps, { agentLabel: "Limits bot", requesterIp: `10.3.0.${++n % 250}` });
  const report: string[] = [];
  afterAll(() => console.log(`ABUSE LIMITS (/mcp):\n  ${report.join("\n  ")}`));

  async function statuses(responses: Response[]): Promise<string[]> {
    const out: string[] = [];
    for (const res of responses) {
      if (res.status !== 200) {
        out.push(String(res.status));
        continue;
      }
      const body = (await res.json()) as RpcAnswer | RpcAnswer[];
      for (const a of Array.isArray(body) ? body : [body]) out.push((await outcome(new Response(JSON.stringify(a), { status: 200 }))).status);
    }
    return out;
  }
  const count = (list: string[], s: string) => list.filter((x) => x === s).length;

  it("the sandbox write throttle: 40 single writes and two batches of 10 at once through two processes write exactly 20", async () => {
    freshMinute();
    const reg = await sandbox();
    const auth = { authorization: `Bearer ${reg.credential}` };
    const write = (i: number) => toolCall("insert_rows", { collection: "none-zz", rows: [{ a: i }] }, i);
    const batch = (from: number) => Array.from({ length: 10 }, (_, k) => write(from + k));
    const answers = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => rawCall(either(i), write(i), auth)),
      rawCall(sc, batch(100), auth),
      rawCall(second as unknown as TestSidecar, batch(200), auth),
    ]);
    const seen = await statuses(answers);
    // Every write that was let through ran (and was refused by the domain: no such table); the rest are 429.
    const ran = seen.filter((s) => s !== "429").length;
    report.push(`write throttle (20/min): 60 writes tried, ${ran} let through, ${count(seen, "429")} × 429, ${seen.filter((s) => /^5/.test(s)).length} × 5xx`);
    expect(seen.filter((s) => /^5/.test(s))).toEqual([]);
    expect(ran).toBe(20);
    const window = await sc.database.c.rateLimits.findOne({ _id: `sandbox-writes:${reg.token_id}:${Math.floor(nowMs() / 60_000) * 60_000}` });
    expect(window?.count).toBe(20);
  });

  it("the page cap: 16 creates at once through two processes leave exactly 8 pages", async () => {
    freshMinute();
    const reg = await sandbox();
    const auth = { authorization: `Bearer ${reg.credential}` };
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        rawCall(either(i), toolCall("create_page", { slug: `${reg.sandbox_bucket.slug}-${i}`, title: "t", body_markdown: "x" }), auth),
      ),
    );
    const seen = await statuses(answers);
    report.push(
      `page cap (8): 16 creates tried, ${count(seen, "200")} created, ${count(seen, "tool limit_exceeded")} × limit_exceeded, ${seen.filter((s) => /^5/.test(s)).length} × 5xx`,
    );
    expect(seen.filter((s) => s !== "200" && s !== "tool limit_exceeded")).toEqual([]);
    expect(count(seen, "200")).toBe(8);
    expect(await sc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(8);
    const ws = await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id });
    expect(ws?.usage).toEqual(await countUsage(sc.deps, reg.sandbox_bucket.id));
  });

  it("the byte cap: parallel large writes through two processes never store past it, and the counter equals a recount", async () => {
    freshMinute();
    const reg = await sandbox();
    const auth = { authorization: `Bearer ${reg.credential}` };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        rawCall(either(i), toolCall("create_page", { slug: `${reg.sandbox_bucket.slug}-b${i}`, title: "t", body_markdown: "y".repeat(20_000) }), auth),
      ),
    );
    const seen = await statuses(answers);
    const ws = await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id });
    report.push(
      `byte cap (120000): 8 creates of 20 KB tried, ${count(seen, "200")} stored, ${count(seen, "tool limit_exceeded")} × limit_exceeded; usage ${ws?.usage.bytes} bytes`,
    );
    expect(seen.filter((s) => s !== "200" && s !== "tool limit_exceeded")).toEqual([]);
    expect(count(seen, "tool limit_exceeded")).toBeGreaterThan(0);
    expect(ws?.usage.bytes).toBeLessThanOrEqual(120_000);
    expect(ws?.usage).toEqual(await countUsage(sc.deps, reg.sandbox_bucket.id));
  });

  it("the row cap and the row size: parallel inserts through two processes stop at 50 rows; a row over 1 KB is refused whole", async () => {
    freshMinute();
    const owner = await makeUser(sc, `${uniq("rows")}@example.com`);
    const { credential } = await makeToken(sc, owner);
    const auth = { authorization: `Bearer ${credential}` };
    const slug = uniq("capped");
    await rawCall(sc, toolCall("create_collection", { slug, name: "Capped", kind: "table", columns: [{ name: "note", type: "text" }] }), auth);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        rawCall(either(i), toolCall("insert_rows", { collection: slug, rows: Array.from({ length: 10 }, (_, k) => ({ note: `${i}-${k}` })) }), auth),
      ),
    );
    const seen = await statuses(answers);
    const table = await sc.database.c.collections.findOne({ slug });
    const stored = await sc.database.c.rows.countDocuments({ collectionId: table?._id ?? "" });
    report.push(
      `row cap (50): 12 inserts of 10 rows tried, ${count(seen, "200")} accepted, ${count(seen, "tool limit_exceeded")} × limit_exceeded; ${stored} rows stored`,
    );
    expect(seen.filter((s) => s !== "200" && s !== "tool limit_exceeded")).toEqual([]);
    expect(stored).toBe(50);
    expect(table?.rowCount).toBe(50);
    const ws = await sc.database.c.workspaces.findOne({ _id: table?.workspaceId ?? "" });
    expect(ws?.usage).toEqual(await countUsage(sc.deps, ws?._id ?? ""));
    // A table with room, a batch with one row too large: none of it is written.
    const roomy = uniq("roomy");
    await rawCall(sc, toolCall("create_collection", { slug: roomy, name: "Roomy", kind: "table", columns: [{ name: "note", type: "text" }] }), auth);
    const big = await statuses([
      await rawCall(second as unknown as TestSidecar, toolCall("insert_rows", { collection: roomy, rows: [{ note: "ok" }, { note: "z".repeat(2000) }] }), auth),
    ]);
    report.push(`row size (1024 bytes): a 2 KB row in a batch of 2 → ${big.join(", ")}`);
    expect(big).toEqual(["tool invalid_request"]);
    const roomyTable = await sc.database.c.collections.findOne({ slug: roomy });
    expect(await sc.database.c.rows.countDocuments({ collectionId: roomyTable?._id ?? "" })).toBe(0);
  });
});
