// Issue 13, the findings an agent reaches through /mcp, each sent as the attacker sent it:
// the real MCP SDK client, or raw JSON-RPC POSTs (batches included). People, tokens and
// sandboxes are set up through the domain, as the app would have made them; every attack is
// a request. docs/reliability.md, "Abuse resistance", says which test proves which item.
import { setAgentBlocked } from "@atelier/shared/domain/agents";
import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { countUsage } from "@atelier/shared/domain/limits";
import { completeAnonymousClaim, registerAnonymous, startAnonymousClaim } from "@atelier/shared/domain/registrations";
import { sweepOnce } from "@atelier/shared/domain/sweeper";
import { COLLECTION_NAMES, type UserDoc } from "@atelier/shared/db";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, rawCall, startTestSidecar, toolCall, type TestSidecar } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
afterEach(() => resetClock());

interface Called {
  isError: boolean;
  data: Record<string, unknown>;
  error: string | null;
  text: string;
}
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]?.text ?? "";
  let error: string | null = null;
  if (r.isError) error = (JSON.parse(text) as { error?: string }).error ?? null;
  return { isError: r.isError === true, data: r.structuredContent as Record<string, unknown>, error, text };
}

interface RpcAnswer {
  id: number;
  result?: { isError?: boolean; content: { text: string }[] };
  error?: { code: number; message: string };
}
const toolErrorOf = (a: RpcAnswer) => (a.result?.isError ? ((JSON.parse(a.result.content[0]?.text ?? "{}") as { error?: string }).error ?? "?") : null);

async function sandbox(sc: TestSidecar) {
  return registerAnonymous(sc.deps, { agentLabel: "Abuse bot", requesterIp: `10.2.${n % 250}.${Math.floor(Math.random() * 250)}` });
}

describe("confinement over MCP", () => {
  let sc: TestSidecar;
  let owner: UserDoc;
  let ownWs: string;
  beforeAll(async () => {
    // The invitation caps have their own tests (server/src/abuse/links-mail-items.db.test.ts); here
    // thirty racing add_collaborator calls must reach the membership code, not stop at a cap.
    const roomForRaces = { INVITES_PER_INVITER_PER_HOUR: "1000", INVITES_PER_WORKSPACE_PER_HOUR: "1000" };
    sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_REG_PER_IP_PER_DAY: "1000", ...roomForRaces }, "abusemcp");
    owner = await makeUser(sc, `${uniq("owner")}@example.com`);
    ownWs = (await sc.database.c.workspaces.findOne({ _id: owner.defaultWorkspaceId ?? "" }))?.slug ?? "";
  });
  afterAll(async () => {
    await sc.close();
  });

  it("item 4: a confined token, a claimed sandbox's token and a cut-off agent cannot create workspaces", async () => {
    const tryCreate = async (credential: string) => {
      const client = await connectClient(sc, credential);
      const slug = uniq("new");
      const r = await call(client, "create_workspace", { slug, name: "Escape" });
      await client.close();
      if (r.isError) expect(await sc.database.c.workspaceSlugs.countDocuments({ _id: slug })).toBe(0);
      return r;
    };
    // Confined to one workspace.
    const confined = await makeToken(sc, owner, { workspaces: [ownWs] });
    expect((await tryCreate(confined.credential)).error).toBe("forbidden");
    // Cut off by its owner in one workspace.
    const cut = await makeToken(sc, owner, { label: "Cut bot" });
    await setAgentBlocked(sc.deps, { kind: "user", user: owner }, { workspace: ownWs, tokenId: cut.tokenId, blocked: true });
    expect((await tryCreate(cut.credential)).error).toBe("forbidden");
    // A sandbox's token, claimed by a person: it stays in its sandbox (docs/contract.md#sandboxes-limits-and-lifecycle).
    const reg = await sandbox(sc);
    const email = `${uniq("claimer")}@example.com`;
    await makeUser(sc, email);
    await startAnonymousClaim(sc.deps, { claimToken: reg.registration_id, email });
    const code = /\b(\d{6})\b/.exec(sc.deps.sent.filter((m) => m.to === email).at(-1)?.text ?? "")?.[1] ?? "";
    await completeAnonymousClaim(sc.deps, { claimToken: reg.registration_id, otp: code });
    expect((await sc.database.c.tokens.findOne({ _id: reg.token_id }))?.kind).toBe("claimed_anonymous");
    expect((await tryCreate(reg.credential)).error).toBe("forbidden");
    // An unclaimed sandbox's token too.
    expect((await tryCreate((await sandbox(sc)).credential)).error).toBe("forbidden");
    // An unrestricted token of a person still can.
    const full = await makeToken(sc, owner);
    expect((await tryCreate(full.credential)).isError).toBe(false);
  });

  it("item 5: add_collaborator with a lower role lowers it, and racing calls leave one membership", async () => {
    const full = await makeToken(sc, owner);
    const client = await connectClient(sc, full.credential);
    const email = `${uniq("collab")}@example.com`;
    expect((await call(client, "add_collaborator", { workspace: ownWs, email, role: "editor" })).isError).toBe(false);
    expect((await call(client, "add_collaborator", { workspace: ownWs, email, role: "viewer" })).isError).toBe(false);
    const user = await sc.database.c.users.findOne({ email });
    let ws = await sc.database.c.workspaces.findOne({ slug: ownWs });
    expect(ws?.members.filter((m) => m.userId === user?._id)).toEqual([expect.objectContaining({ role: "viewer" })]);

    // Twenty calls in one batch (2025-03-26) and ten in parallel, alternating roles.
    const raced = `${uniq("raced")}@example.com`;
    const batch = Array.from({ length: 20 }, (_, i) =>
      toolCall("add_collaborator", { workspace: ownWs, email: raced, role: i % 2 ? "viewer" : "editor" }, i + 1),
    );
    const [res] = await Promise.all([
      rawCall(sc, batch, { authorization: `Bearer ${full.credential}` }),
      ...Array.from({ length: 10 }, (_, i) => call(client, "add_collaborator", { workspace: ownWs, email: raced, role: i % 2 ? "editor" : "viewer" })),
    ]);
    expect(res?.status).toBe(200);
    ws = await sc.database.c.workspaces.findOne({ slug: ownWs });
    const ids = ws?.members.map((m) => m.userId) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ws?.members.filter((m) => m.role === "owner").map((m) => m.userId)).toEqual([owner._id]);
    await client.close();
  });

  it("item 7: a forged list_rows or list_pages cursor is an invalid_cursor tool error, for a token and for nobody", async () => {
    const full = await makeToken(sc, owner);
    const client = await connectClient(sc, full.credential);
    const table = uniq("tbl");
    await call(client, "create_collection", { workspace: ownWs, slug: table, name: "T", kind: "table", columns: [{ name: "n", type: "number" }] });
    await call(client, "insert_rows", { workspace: ownWs, collection: table, rows: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    const first = await call(client, "list_rows", { workspace: ownWs, collection: table, limit: 1 });
    const real = String(first.data.next_cursor);
    const [, mac] = real.split(".");
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const forged = ["garbage", `${b64({ v: { $regex: ".*" } })}.${mac}`, `${b64({ v: { $gt: null }, id: { $ne: "" } })}`, `${real}x`, "x".repeat(1000)];
    for (const cursor of forged) {
      expect((await call(client, "list_rows", { workspace: ownWs, collection: table, limit: 1, cursor })).error, cursor).toBe("invalid_cursor");
      expect((await call(client, "list_pages", { workspace: ownWs, cursor })).error, cursor).toBe("invalid_cursor");
    }
    // A rows cursor is not a pages cursor.
    expect((await call(client, "list_pages", { workspace: ownWs, cursor: real })).error).toBe("invalid_cursor");
    // Nobody, on a public workspace: the same.
    const pub = uniq("pub");
    await call(client, "create_workspace", { slug: pub, name: "Pub" });
    await call(client, "set_workspace_visibility", { workspace: pub, visibility: "public" });
    await call(client, "create_collection", { workspace: pub, slug: table, name: "T", kind: "table", columns: [{ name: "n", type: "number" }] });
    const anon = await connectClient(sc);
    for (const cursor of forged) expect((await call(anon, "list_rows", { workspace: pub, collection: table, cursor })).error, cursor).toBe("invalid_cursor");
    await anon.close();
    await client.close();
  });

  it("item 11: create_collection refuses reserved column names and writes nothing", async () => {
    const full = await makeToken(sc, owner);
    const client = await connectClient(sc, full.credential);
    const before = await sc.database.c.collections.countDocuments({});
    for (const name of ["__proto__", "constructor", "prototype", "_id", "toString"]) {
      const r = await call(client, "create_collection", { workspace: ownWs, slug: uniq("t"), name: "T", kind: "table", columns: [{ name, type: "text" }] });
      expect(r.error, name).toBe("invalid_request");
      expect(r.text, name).toContain("reserved");
    }
    expect(await sc.database.c.collections.countDocuments({})).toBe(before);
    await client.close();
  });
});

describe("item 6: caps bound everything a workspace stores", () => {
  it("a sandbox's revisions and table definitions count toward its byte cap", async () => {
    const sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_MAX_BYTES: "400000", ANON_WRITES_PER_MINUTE: "1000" }, "abusecap");
    try {
      const reg = await sandbox(sc);
      const client = await connectClient(sc, reg.credential);
      const slug = `${reg.sandbox_bucket.slug}-big`;
      expect((await call(client, "create_page", { slug, title: "Big", body_markdown: "a".repeat(50_000) })).isError).toBe(false);
      // Each update keeps a 50 KB revision: the cap is reached after a handful, not never.
      let accepted = 0;
      let refusal: string | null = null;
      for (let i = 0; i < 12 && !refusal; i++) {
        const r = await call(client, "update_page", { slug, body_markdown: String.fromCharCode(98 + i).repeat(50_000) });
        if (r.isError) refusal = r.error;
        else accepted++;
      }
      expect(refusal).toBe("limit_exceeded");
      expect(accepted).toBeLessThan(6);
      const ws = await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id });
      expect(ws?.usage.bytes).toBeLessThanOrEqual(400_000);
      expect(ws?.usage).toEqual(await countUsage(sc.deps, reg.sandbox_bucket.id));

      // A table definition of 50 select columns × 100 long options is refused, not free.
      const columns = Array.from({ length: 50 }, (_, c) => ({
        name: `c${c}`,
        type: "select",
        options: Array.from({ length: 100 }, (_, o) => `${c}-${o}-${"o".repeat(90)}`),
      }));
      const tables = await sc.database.c.collections.countDocuments({});
      const big = await call(client, "create_collection", { slug: `${reg.sandbox_bucket.slug}-t`, name: "Huge", kind: "table", columns });
      expect(big.error).toBe("limit_exceeded");
      expect(await sc.database.c.collections.countDocuments({})).toBe(tables);
      await client.close();
    } finally {
      await sc.close();
    }
  });

  it("ordinary workspaces keep REVISIONS_KEPT versions and stop at WORKSPACE_MAX_BYTES", async () => {
    const sc = await startTestSidecar({ REVISIONS_KEPT: "3", WORKSPACE_MAX_BYTES: "200000" }, "abusews");
    try {
      const owner = await makeUser(sc, `${uniq("owner")}@example.com`);
      const { credential } = await makeToken(sc, owner);
      const client = await connectClient(sc, credential);
      const slug = uniq("kept");
      await call(client, "create_page", { slug, title: "Kept", body_markdown: "v1" });
      for (let v = 2; v <= 8; v++) expect((await call(client, "update_page", { slug, body_markdown: `v${v}` })).isError).toBe(false);
      const history = await call(client, "get_page_history", { slug });
      expect((history.data.versions as { version: number }[]).map((h) => h.version)).toEqual([8, 7, 6]);
      const over = await call(client, "create_page", { slug: uniq("huge"), title: "Huge", body_markdown: "z".repeat(150_000) });
      expect(over.error).toBe("limit_exceeded");
      const ws = await sc.database.c.workspaces.findOne({ _id: owner.defaultWorkspaceId ?? "" });
      expect(ws?.usage.bytes).toBeLessThanOrEqual(200_000);
      expect(ws?.usage).toEqual(await countUsage(sc.deps, ws?._id ?? ""));
      await client.close();
    } finally {
      await sc.close();
    }
  });
});

describe("parallel load: no false refusals", () => {
  it("a 60-call update_page batch and 30 parallel updates on one page: none is limit_exceeded, and the byte counter equals a recount", async () => {
    // The cap leaves room for every version written one at a time, and for a few racing
    // reservations, not for one per racing call (the refusals the issue measured).
    const sc = await startTestSidecar(
      { ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_MAX_BYTES: "160000", ANON_WRITES_PER_MINUTE: "1000", REVISIONS_KEPT: "5" },
      "abuserace",
    );
    try {
      const reg = await sandbox(sc);
      const auth = { authorization: `Bearer ${reg.credential}` };
      const slug = `${reg.sandbox_bucket.slug}-p`;
      const client = await connectClient(sc, reg.credential);
      expect((await call(client, "create_page", { slug, title: "Raced", body_markdown: "x" })).isError).toBe(false);
      const batch = Array.from({ length: 60 }, (_, i) => toolCall("update_page", { slug, body_markdown: `batch ${i}` }, i + 1));
      const t0 = Date.now();
      const res = await rawCall(sc, batch, auth);
      console.log(`batch of 60 update_page: ${Date.now() - t0} ms`);
      expect(res.status).toBe(200);
      const answers = (await res.json()) as RpcAnswer[];
      const codes = answers.map(toolErrorOf);
      expect(codes.filter((c) => c === "limit_exceeded")).toEqual([]);
      expect(codes.filter((c) => c !== null && c !== "version_conflict")).toEqual([]);
      const t1 = Date.now();
      const parallel = await Promise.all(Array.from({ length: 30 }, (_, i) => call(client, "update_page", { slug, body_markdown: `parallel ${i}` })));
      console.log(
        `30 parallel update_page: ${Date.now() - t1} ms; ${codes.filter((c) => c === null).length} + ${parallel.filter((r) => !r.isError).length} written`,
      );
      expect(parallel.filter((r) => r.error === "limit_exceeded")).toEqual([]);
      expect(parallel.filter((r) => r.isError && r.error !== "version_conflict")).toEqual([]);
      const ws = await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id });
      expect(ws?.usage).toEqual(await countUsage(sc.deps, reg.sandbox_bucket.id));
      await client.close();
    } finally {
      await sc.close();
    }
  }, 180_000);
});

describe("item 8: purging an expired sandbox written over MCP", () => {
  it("leaves nothing of it in any collection, row history included", async () => {
    const sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true" }, "abusepurge");
    try {
      const reg = await sandbox(sc);
      const client = await connectClient(sc, reg.credential);
      const s = reg.sandbox_bucket.slug;
      await call(client, "create_page", { slug: `${s}-doomed`, title: "Doomed", body_markdown: "purge marker one" });
      await call(client, "update_page", { slug: `${s}-doomed`, body_markdown: "purge marker two" });
      await call(client, "create_collection", { slug: `${s}-tbl`, name: "Doomed table", kind: "table", columns: [{ name: "note", type: "text" }] });
      const ins = await call(client, "insert_rows", { collection: `${s}-tbl`, rows: [{ note: "purge marker row" }] });
      const rowId = (ins.data.row_ids as string[])[0] ?? "";
      await call(client, "update_row", { collection: `${s}-tbl`, row_id: rowId, values: { note: "purge marker row, again" } });
      await call(client, "update_page", { slug: `${s}-doomed`, tables: [{ collection: `${s}-tbl` }] });
      await client.close();
      expect(await sc.database.c.rowRevisions.countDocuments({ rowId })).toBe(2);

      advanceClock(sc.config.ANON_CLAIM_WINDOW_SECONDS + 1);
      await sweepOnce(sc.deps);
      advanceClock(sc.config.ANON_RETENTION_SECONDS + 1);
      expect((await sweepOnce(sc.deps)).purged).toBeGreaterThanOrEqual(1);
      const needles = [reg.sandbox_bucket.id, s, reg.token_id, rowId, "purge marker", "Abuse bot"];
      for (const name of COLLECTION_NAMES) {
        const docs = await sc.database.db.collection(name).find({}).toArray();
        expect(
          docs.filter((d) => needles.some((x) => JSON.stringify(d).includes(x))),
          name,
        ).toEqual([]);
      }
    } finally {
      await sc.close();
    }
  });
});
