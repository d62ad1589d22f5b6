import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { revokeToken } from "@atelier/shared/domain/tokens";
import { listAgents, setAgentBlocked } from "@atelier/shared/domain/agents";
import { createWorkspaceFor, setVisibility } from "@atelier/shared/domain/workspaces";
import { addMemberByEmail } from "@atelier/shared/domain/members";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import type { UserDoc } from "@atelier/shared/db";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, rawCall, startTestSidecar, toolCall, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let wsSlug: string;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  sc = await startTestSidecar();
  owner = await makeUser(sc, `owner-${Date.now()}@example.com`);
  const ws = await sc.database.c.workspaces.findOne({ _id: owner.defaultWorkspaceId ?? "" });
  wsSlug = ws?.slug ?? "";
});
afterAll(async () => {
  await sc.close();
});
afterEach(() => resetClock());

type Structured = Record<string, unknown>;
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, data: r.structuredContent as Structured, text: (r.content as { text: string }[])[0]?.text ?? "" };
}

const READ_TOOLS = [
  "diff_page_versions",
  "get_page",
  "get_page_history",
  "get_page_stats",
  "get_workspace",
  "list_changes",
  "list_collections",
  "list_comments",
  "list_files",
  "list_pages",
  "list_rows",
  "list_workspaces",
  "search_pages",
  "whoami",
];
const WRITE_TOOLS = [
  "add_comment",
  "change_table",
  "create_collection",
  "create_page",
  "create_upload_url",
  "delete_file",
  "delete_page",
  "delete_row",
  "edit_page",
  "finish_upload",
  "insert_rows",
  "move_page",
  "push_image",
  "resolve_comment",
  "update_page",
  "update_row",
];
const ADMIN_TOOLS = [
  "add_collaborator",
  "add_webhook",
  "create_share_link",
  "create_workspace",
  "export_workspace",
  "import_workspace",
  "list_webhooks",
  "remove_webhook",
  "set_workspace_visibility",
];

describe("tools/list", () => {
  it("shows each caller only the tools its scopes allow, all fully described", async () => {
    const write = await makeToken(sc, owner, { scopes: ["mcp:read", "mcp:write"] });
    const read = await makeToken(sc, owner, { scopes: ["mcp:read"] });
    const names = async (cred?: string) => {
      const c = await connectClient(sc, cred);
      const { tools } = await c.listTools();
      await c.close();
      return tools;
    };
    const all = await names(write.credential);
    expect(all.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS, ...ADMIN_TOOLS].sort());
    expect((await names(read.credential)).map((t) => t.name).sort()).toEqual(READ_TOOLS);
    // Without a token every tool is listed (lazy sign-in); those that write say they need sign-in.
    const anonymous = await names();
    expect(anonymous.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS, ...ADMIN_TOOLS].sort());
    for (const t of anonymous) expect(t.description?.includes("Needs sign-in")).toBe(!READ_TOOLS.includes(t.name));
    for (const t of all) expect(t.description).not.toContain("Needs sign-in");
    for (const t of all) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.description?.length).toBeGreaterThan(20);
      expect(Object.keys(t.annotations ?? {})).toEqual(expect.arrayContaining(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]));
    }
  });
});

describe("authoring through the real MCP client", () => {
  it("creates, reads, updates (refusing a stale version), lists and deletes a page, attributing every write to the agent", async () => {
    const { tokenId, credential } = await makeToken(sc, owner, { label: "Research bot" });
    const client = await connectClient(sc, credential);
    const slug = uniq("notes");

    const who = await call(client, "whoami");
    expect(who.data).toMatchObject({ authenticated: true, token: { token_id: tokenId, label: "Research bot" }, acting_for: { email: owner.email } });

    const created = await call(client, "create_page", { slug, title: "Field notes", body_markdown: "# Day 1\n\nSaw a heron." });
    expect(created.isError).toBe(false);
    expect(created.data.page).toMatchObject({
      slug,
      version: 1,
      workspace: wsSlug,
      created_by: { kind: "agent", token_id: tokenId, label: "Research bot", user_id: owner._id },
    });
    expect(JSON.parse(created.text)).toEqual(created.data);

    const got = await call(client, "get_page", { slug });
    expect(got.data.page).toMatchObject({ title: "Field notes", parts: [{ kind: "markdown", body: "# Day 1\n\nSaw a heron." }] });

    const updated = await call(client, "update_page", { slug, body_markdown: "# Day 1\n\nSaw two herons.", expected_version: 1 });
    expect(updated.data.page).toMatchObject({ version: 2 });
    const stale = await call(client, "update_page", { slug, title: "Overwrite?", expected_version: 1 });
    expect(stale.isError).toBe(true);
    expect(JSON.parse(stale.text)).toMatchObject({ error: "version_conflict" });
    expect((await call(client, "get_page", { slug })).data.page).toMatchObject({ version: 2, title: "Field notes" });

    const listed = await call(client, "list_pages", { workspace: wsSlug });
    expect((listed.data.pages as { slug: string }[]).map((p) => p.slug)).toContain(slug);
    await awaitWritesSettled(); // a page is indexed just after its writer's answer
    const found = await call(client, "search_pages", { query: "HERONS" });
    expect((found.data.pages as { slug: string }[]).map((p) => p.slug)).toContain(slug);

    const history = await call(client, "get_page_history", { slug });
    const versions = history.data.versions as { version: number; actor: { kind: string; token_id: string; user_id: string } }[];
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions.every((v) => v.actor.kind === "agent" && v.actor.token_id === tokenId && v.actor.user_id === owner._id)).toBe(true);

    const resource = await client.readResource({ uri: `artifact://${slug}` });
    expect(resource.contents[0]).toMatchObject({ mimeType: "text/markdown", text: expect.stringContaining("Saw two herons.") });

    const deleted = await call(client, "delete_page", { slug });
    expect(deleted.data).toMatchObject({ deleted: { slug } });
    expect(JSON.parse((await call(client, "get_page", { slug })).text)).toMatchObject({ error: "not_found" });
    expect(await sc.database.c.revisions.countDocuments({ pageId: (created.data.page as { page_id: string }).page_id })).toBe(0);
    await client.close();
  });

  it("pages through a workspace with cursors without duplicates or gaps", async () => {
    const ws = uniq("paged");
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);
    expect((await call(client, "create_workspace", { slug: ws, name: "Paged" })).isError).toBe(false);
    const slugs = Array.from({ length: 7 }, (_, i) => `${ws}-p${i}`);
    for (const slug of slugs) await call(client, "create_page", { slug, title: slug, body_markdown: "x", workspace: ws });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await call(client, "list_pages", { workspace: ws, limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...(r.data.pages as { slug: string }[]).map((p) => p.slug));
      cursor = (r.data.next_cursor as string | null) ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...slugs].sort());
    await client.close();
  });

  it("answers invalid arguments with a tool error naming the field", async () => {
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);
    const r = await call(client, "create_page", { slug: "Bad Slug", title: "t", body_markdown: "x" });
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.text)).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/^slug: /) });
    await client.close();
  });
});

describe("webhooks through the real MCP client", () => {
  it("lets an owner's agent add, list and remove an endpoint; the secret is answered once and never listed", async () => {
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);
    const added = await call(client, "add_webhook", { workspace: wsSlug, url: "http://127.0.0.1:9/mcp-hook", events: ["page.created", "page.updated"] });
    expect(added.isError).toBe(false);
    const secret = added.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const webhook = added.data.webhook as { webhook_id: string; events: string[]; status: string };
    expect(webhook).toMatchObject({ events: ["page.created", "page.updated"], status: "active" });
    const listed = await call(client, "list_webhooks", { workspace: wsSlug });
    expect((listed.data.webhooks as { webhook_id: string }[]).map((w) => w.webhook_id)).toEqual([webhook.webhook_id]);
    expect(JSON.stringify(listed.data)).not.toContain(secret);
    // A bad event type is a tool error naming the field; nothing written.
    const bad = await call(client, "add_webhook", { workspace: wsSlug, url: "http://127.0.0.1:9/x", events: ["page.eaten"] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("events");
    expect(await sc.database.c.webhooks.countDocuments({})).toBe(1);
    expect((await call(client, "remove_webhook", { workspace: wsSlug, webhook_id: webhook.webhook_id })).data).toEqual({ removed: true });
    const again = await call(client, "remove_webhook", { workspace: wsSlug, webhook_id: webhook.webhook_id });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("not_found");
    await client.close();
  });

  it("refuses an editor's agent: only owners manage webhooks", async () => {
    const editor = await makeUser(sc, `hook-editor-${Date.now()}@example.com`);
    const slug = uniq("hooks");
    await createWorkspaceFor(sc.deps, { kind: "user", user: owner }, { slug, name: "Hooks" });
    await addMemberByEmail(sc.deps, { kind: "user", user: owner }, { workspace: slug, email: editor.email, role: "editor" });
    const { credential } = await makeToken(sc, editor);
    const client = await connectClient(sc, credential);
    const r = await call(client, "add_webhook", { workspace: slug, url: "http://127.0.0.1:9/x" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("forbidden");
    expect(await sc.database.c.webhooks.countDocuments({})).toBe(0);
    await client.close();
  });
});

describe("public reads without a token", () => {
  it("reads a public workspace with no token, and nothing of a private one", async () => {
    const { credential } = await makeToken(sc, owner);
    const writer = await connectClient(sc, credential);
    const pubWs = uniq("public");
    await call(writer, "create_workspace", { slug: pubWs, name: "Public" });
    const slug = uniq("open");
    await call(writer, "create_page", { slug, title: "Open", body_markdown: "for all", workspace: pubWs });
    const hidden = uniq("hidden");
    await call(writer, "create_page", { slug: hidden, title: "Hidden", body_markdown: "secret" });
    await setVisibility(sc.deps, { kind: "user", user: owner }, pubWs, "public");

    const anon = await connectClient(sc);
    expect((await call(anon, "whoami")).data).toMatchObject({ authenticated: false });
    expect((await call(anon, "get_page", { slug })).data.page).toMatchObject({ title: "Open" });
    expect(((await call(anon, "list_pages", { workspace: pubWs })).data.pages as unknown[]).length).toBe(1);
    const priv = await call(anon, "get_page", { slug: hidden });
    expect(priv.isError).toBe(true);
    expect(JSON.parse(priv.text)).toMatchObject({ error: "not_found" });
    await anon.close();
    await writer.close();
  });
});

describe("HTTP-level auth answers", () => {
  const challengeBase = () => `resource_metadata="${sc.config.BASE_URL}/.well-known/oauth-protected-resource"`;

  it("answers a write without a token with 401 and a challenge naming the metadata and scope", async () => {
    const res = await rawCall(sc, toolCall("create_page", { slug: uniq("x"), title: "t", body_markdown: "x" }));
    expect(res.status).toBe(401);
    const h = res.headers.get("www-authenticate") ?? "";
    expect(h).toMatch(/^Bearer /);
    expect(h).toContain(challengeBase());
    expect(h).toContain('scope="mcp:write"');
  });

  it("answers a read-only token calling a write tool with 403 insufficient_scope", async () => {
    const { credential } = await makeToken(sc, owner, { scopes: ["mcp:read"] });
    const res = await rawCall(sc, toolCall("create_page", { slug: uniq("x"), title: "t", body_markdown: "x" }), { authorization: `Bearer ${credential}` });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(res.headers.get("www-authenticate")).toContain('scope="mcp:write"');
    expect(await res.json()).toMatchObject({ error: "insufficient_scope" });
  });

  it("answers an unknown or malformed token with 401 invalid_token", async () => {
    for (const authorization of ["Bearer service_mcp_not-a-real-token", "Bearer nope", "Basic abc"]) {
      const res = await rawCall(sc, toolCall("whoami"), { authorization });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
  });

  it("refuses a revoked token on the very next call", async () => {
    const { tokenId, credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);
    expect((await call(client, "whoami")).isError).toBe(false);
    await revokeToken(sc.deps, owner._id, tokenId);
    const res = await rawCall(sc, toolCall("whoami"), { authorization: `Bearer ${credential}` });
    expect(res.status).toBe(401);
    await expect(client.callTool({ name: "whoami", arguments: {} })).rejects.toThrow();
    await client.close().catch(() => {});
  });

  it("refuses an expired token", async () => {
    const { credential } = await makeToken(sc, owner, { expiresInDays: 1 });
    expect((await rawCall(sc, toolCall("whoami"), { authorization: `Bearer ${credential}` })).status).toBe(200);
    advanceClock(86_400 + 1);
    const res = await rawCall(sc, toolCall("whoami"), { authorization: `Bearer ${credential}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("keeps a workspace-restricted token out of other workspaces", async () => {
    const other = uniq("other");
    const full = await makeToken(sc, owner);
    const admin = await connectClient(sc, full.credential);
    await call(admin, "create_workspace", { slug: other, name: "Other" });
    await admin.close();
    const restricted = await makeToken(sc, owner, { workspaces: [wsSlug] });
    const client = await connectClient(sc, restricted.credential);
    const r = await call(client, "create_page", { slug: uniq("x"), title: "t", body_markdown: "x", workspace: other });
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.text)).toMatchObject({ error: "forbidden" });
    expect(((await call(client, "list_workspaces")).data.workspaces as { slug: string }[]).map((w) => w.slug)).toEqual([wsSlug]);
    expect((await call(client, "create_page", { slug: uniq("ok"), title: "t", body_markdown: "x" })).isError).toBe(false);
    await client.close();
  });

  it("refuses an agent the owner cut off the workspace, on its next call, and lets it back", async () => {
    const { tokenId, credential } = await makeToken(sc, owner, { label: "Cut-off bot" });
    const client = await connectClient(sc, credential);
    expect((await call(client, "create_page", { slug: uniq("before"), title: "t", body_markdown: "x" })).isError).toBe(false);
    const agents = await listAgents(sc.deps, { kind: "user", user: owner }, wsSlug);
    expect(agents.find((a) => a.token_id === tokenId)).toMatchObject({ label: "Cut-off bot", acting_for: owner.email, blocked: false });

    await setAgentBlocked(sc.deps, { kind: "user", user: owner }, { workspace: wsSlug, tokenId, blocked: true });
    const refused = await call(client, "create_page", { slug: uniq("after"), title: "t", body_markdown: "x" });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.text)).toMatchObject({ error: "forbidden", message: expect.stringContaining("cut this agent off") });
    expect((await listAgents(sc.deps, { kind: "user", user: owner }, wsSlug)).find((a) => a.token_id === tokenId)?.blocked).toBe(true);

    await setAgentBlocked(sc.deps, { kind: "user", user: owner }, { workspace: wsSlug, tokenId, blocked: false });
    expect((await call(client, "create_page", { slug: uniq("back"), title: "t", body_markdown: "x" })).isError).toBe(false);
    await client.close();
  });

  it("refuses a foreign Origin with 403, and answers GET and DELETE with 405", async () => {
    const res = await rawCall(sc, toolCall("whoami"), { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    const get = await fetch(`${sc.url}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toContain("POST");
    const html = await fetch(`${sc.url}/mcp`, { headers: { accept: "text/html" } });
    expect(html.status).toBe(405);
    expect(await html.text()).toContain("/docs/connect/agents");
    expect((await fetch(`${sc.url}/mcp`, { method: "DELETE" })).status).toBe(405);
  });

  it("lets a same-origin browser client through CORS preflight and read WWW-Authenticate", async () => {
    const pre = await fetch(`${sc.url}/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: sc.config.BASE_URL,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Mcp-Protocol-Version/);
    const res = await rawCall(sc, toolCall("create_page", {}), { origin: sc.config.BASE_URL });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/);
  });

  it("answers a body that is not JSON with a JSON-RPC parse error", async () => {
    const res = await fetch(`${sc.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{nope",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });

  it("never logs a credential", async () => {
    const { credential } = await makeToken(sc, owner);
    await rawCall(sc, toolCall("whoami"), { authorization: `Bearer ${credential}` });
    expect(sc.logLines.join("")).not.toContain(credential.slice(12));
    const stored = JSON.stringify(await sc.database.c.tokens.find().toArray());
    expect(stored).not.toContain(credential.slice(12));
  });
});
