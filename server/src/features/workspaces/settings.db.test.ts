// A workspace's settings through tRPC (issue 17 items 3 and 4): deleting a workspace with
// everything it owns, and share links made by people and agents. A table's settings, a page's
// address and invitations are tested beside their modules (tables/table-settings, pages/
// page-address, workspaces/invitations).
import { COLLECTION_NAMES } from "@atelier/shared/db";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { createShareLink } from "@atelier/shared/domain/share-links";
import { sha256 } from "@atelier/shared/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createTeamWorkspace, signIn, startTestServer, trpcData, trpcErrorOf, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "settings");
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

const newWorkspace = (by: Browser = owner) => createTeamWorkspace(by, uniq("ws"));

/**
 * Every stored document, as text, that mentions `needle`, by collection. Rate-limit counters
 * (an invitation cap is counted per workspace) and the processes' change signals (ids only,
 * one global order that followers read by position) are not the workspace's: they are
 * cleared once their window or the feed's retention is over.
 */
async function mentions(needle: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of COLLECTION_NAMES) {
    if (name === "rateLimits" || name === "changeSignals") continue;
    const docs = await srv.database.db.collection(name).find().toArray();
    const hits = docs.filter((d) => JSON.stringify(d).includes(needle)).length;
    if (hits > 0) out[name] = hits;
  }
  return out;
}

const errorCode = trpcErrorOf;

describe("deleting a workspace", () => {
  it("removes everything the workspace owns, and confined tokens lose it", async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    const page = uniq("doc");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Doc", body_markdown: "hello", workspace: ws.slug }));
    await trpcData(await owner.mutation("pages.update", { slug: page, body_markdown: "hello again" }));
    await trpcData(
      await owner.mutation("collections.create", {
        workspace: ws.slug,
        slug: "tasks",
        name: "Tasks",
        kind: "table",
        columns: [{ name: "title", type: "text" }],
      }),
    );
    await trpcData(await owner.mutation("rows.insert", { workspace: ws.slug, collection: "tasks", rows: [{ title: "one" }, { title: "two" }] }));
    const link = await trpcData<{ url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws.slug }));
    const onlyHere = await trpcData<{ token_id: string; credential: string }>(
      await owner.mutation("tokens.create", { label: "only here", scopes: ["mcp:write"], workspaces: [ws.slug] }),
    );
    const both = await trpcData<{ token_id: string }>(
      await owner.mutation("tokens.create", { label: "both", scopes: ["mcp:read"], workspaces: [ws.slug, other.slug] }),
    );
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws.slug, email: `${uniq("friend")}@example.com`, role: "viewer" }));
    expect(Object.keys(await mentions(ws.id)).sort()).toEqual(
      expect.arrayContaining([
        "artifacts",
        "collections",
        "events",
        "pages",
        "revisions",
        "rowRevisions",
        "rows",
        "shareLinks",
        "tokens",
        "workspaceSlugs",
        "workspaces",
      ]),
    );

    // Typed in capitals, with a space after it: the same address.
    const res = await owner.mutation("workspaces.delete", { slug: ws.slug, confirm: `${ws.slug.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect(await mentions(ws.id)).toEqual({});
    expect((await owner.query("workspaces.get", { slug: ws.slug })).status).toBe(404);
    expect((await new Browser(srv.url).request(`/a/${page}`)).status).toBe(404);
    expect((await new Browser(srv.url).request(new URL(link.url).pathname)).status).toBe(404);

    const tokens = await srv.database.c.tokens.find({ _id: { $in: [onlyHere.token_id, both.token_id] } }).toArray();
    const byId = new Map(tokens.map((t) => [t._id, t]));
    // Confined to nothing else: revoked, never widened to every workspace.
    expect(byId.get(onlyHere.token_id)).toMatchObject({ workspaceIds: [] });
    expect(byId.get(onlyHere.token_id)?.revokedAt).toBeInstanceOf(Date);
    expect(byId.get(both.token_id)).toMatchObject({ workspaceIds: [other.id], revokedAt: null });
    await expect(authenticateBearer(srv.deps, onlyHere.credential)).rejects.toMatchObject({ code: "invalid_token" });

    // The slug is free again.
    expect((await owner.mutation("workspaces.create", { slug: ws.slug, name: "Again" })).status).toBe(200);
  });

  it("refuses a wrong confirmation, a non-owner and a default workspace, and writes nothing", async () => {
    const ws = await newWorkspace();
    const before = await mentions(ws.id);

    const wrong = await errorCode(await owner.mutation("workspaces.delete", { slug: ws.slug, confirm: "not-it" }));
    expect(wrong).toMatchObject({ status: 400, code: "invalid_request" });
    expect(wrong.issues).toEqual([expect.objectContaining({ path: "confirm", code: "mismatch" })]);
    expect((await owner.mutation("workspaces.delete", { slug: ws.slug })).status).toBe(400);

    const editorEmail = `${uniq("editor")}@example.com`;
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws.slug, email: editorEmail, role: "editor" }));
    const editor = await signIn(srv, editorEmail);
    expect(await errorCode(await editor.mutation("workspaces.delete", { slug: ws.slug, confirm: ws.slug }))).toMatchObject({ status: 403, code: "forbidden" });
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    expect((await stranger.mutation("workspaces.delete", { slug: ws.slug, confirm: ws.slug })).status).toBe(404);
    expect((await new Browser(srv.url).mutation("workspaces.delete", { slug: ws.slug, confirm: ws.slug })).status).toBe(401);

    const after = await mentions(ws.id);
    // Only the member added above changed the workspace and wrote an event, with its change.
    expect(after).toEqual({ ...before, events: (before.events ?? 0) + 1, changes: (before.changes ?? 0) + 1 });

    const me = await trpcData<{ defaultWorkspace: string }>(await owner.query("me.get"));
    const def = await errorCode(await owner.mutation("workspaces.delete", { slug: me.defaultWorkspace, confirm: me.defaultWorkspace }));
    expect(def).toMatchObject({ status: 403, code: "forbidden" });
    expect((await owner.query("workspaces.get", { slug: me.defaultWorkspace })).status).toBe(200);
  });

  it("lets the sweeper finish a delete a stopped process left", async () => {
    const { sweepOnce } = await import("@atelier/shared/domain/sweeper");
    const ws = await newWorkspace();
    await trpcData(await owner.mutation("pages.create", { slug: uniq("left"), title: "Left", body_markdown: "x", workspace: ws.slug }));
    await srv.database.c.workspaces.updateOne({ _id: ws.id }, { $set: { deletingAt: new Date(Date.now() - 3_600_000) } });
    srv.deps.cache.delete(`ws:${ws.id}`);
    expect((await owner.query("workspaces.get", { slug: ws.slug })).status).toBe(404);
    await sweepOnce(srv.deps);
    expect(await mentions(ws.id)).toEqual({});
  });
});

describe("share links in settings", () => {
  it("lists links agents made with who made them, and records when a link was last used", async () => {
    const ws = await newWorkspace();
    const page = uniq("shared");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Shared", body_markdown: "x", workspace: ws.slug }));
    const tok = await trpcData<{ credential: string }>(
      await owner.mutation("tokens.create", { label: "Helper bot", scopes: ["mcp:write"], workspaces: [ws.slug] }),
    );
    const token = await authenticateBearer(srv.deps, tok.credential);
    // What the MCP tool create_share_link calls.
    const byAgent = await createShareLink(srv.deps, { kind: "token", token }, { workspace: ws.slug, page });
    const byPerson = await trpcData<{ link_id: string; url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws.slug }));

    type Link = { link_id: string; page_slug: string | null; created_by: string; last_used_at: string | null };
    let list = await trpcData<Link[]>(await owner.query("workspaces.shareLinks.list", { slug: ws.slug }));
    expect(list.map((l) => l.link_id).sort()).toEqual([byAgent.link_id, byPerson.link_id].sort());
    expect(list.find((l) => l.link_id === byAgent.link_id)).toMatchObject({ page_slug: page, created_by: "Helper bot", last_used_at: null });

    expect((await new Browser(srv.url).request(new URL(byPerson.url).pathname)).status).toBe(200);
    list = await trpcData<Link[]>(await owner.query("workspaces.shareLinks.list", { slug: ws.slug }));
    expect(list.find((l) => l.link_id === byPerson.link_id)?.last_used_at).not.toBeNull();

    // A link id from another workspace is not found here; a malformed one is a 400.
    const elsewhere = await newWorkspace();
    expect((await owner.mutation("workspaces.shareLinks.revoke", { slug: elsewhere.slug, link_id: byPerson.link_id })).status).toBe(404);
    expect((await owner.mutation("workspaces.shareLinks.revoke", { slug: ws.slug, link_id: "nope" })).status).toBe(400);
    expect((await owner.mutation("workspaces.shareLinks.revoke", { slug: ws.slug, link_id: byAgent.link_id })).status).toBe(200);
    expect((await new Browser(srv.url).request(new URL(byAgent.url).pathname)).status).toBe(404);
  });
});

describe("share links copied again later", () => {
  it("lists each link with its URL, made again from SECRET_KEY while only its hash is stored; one whose hash no longer matches has none", async () => {
    const ws = await newWorkspace();
    const made = await trpcData<{ link_id: string; url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws.slug }));
    type Link = { link_id: string; url: string | null };
    const list = await trpcData<Link[]>(await owner.query("workspaces.shareLinks.list", { slug: ws.slug }));
    expect(list.find((l) => l.link_id === made.link_id)?.url).toBe(made.url);
    // Stored: the hash only, never the secret.
    const secret = new URL(made.url).pathname.slice("/s/".length);
    const stored = await srv.database.c.shareLinks.findOne({ linkId: made.link_id });
    expect(stored?._id).toBe(sha256(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    // The copied URL opens the workspace.
    expect((await new Browser(srv.url).request(new URL(made.url).pathname)).status).toBe(200);

    // A link whose secret was not made from this key (SECRET_KEY changed since): no URL to copy.
    await srv.database.c.shareLinks.insertOne({
      ...(stored as NonNullable<typeof stored>),
      _id: sha256("an-older-secret-from-another-key"),
      linkId: "shr_older-link-0001",
    });
    const again = await trpcData<Link[]>(await owner.query("workspaces.shareLinks.list", { slug: ws.slug }));
    expect(again.find((l) => l.link_id === "shr_older-link-0001")?.url).toBeNull();
  });
});
