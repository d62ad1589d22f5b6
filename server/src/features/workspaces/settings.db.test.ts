// The settings screens' operations through tRPC (issue 17 items 3 and 4): deleting a
// workspace with everything it owns, share links made by people and agents, a table's
// columns, a page's address, and invitations by e-mail.
import { COLLECTION_NAMES } from "@atelier/shared/db";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { createShareLink } from "@atelier/shared/domain/share-links";
import { sha256 } from "@atelier/shared/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

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

async function newWorkspace(by: Browser = owner): Promise<{ slug: string; id: string }> {
  const slug = uniq("ws");
  const ws = await trpcData<{ id: string }>(await by.mutation("workspaces.create", { slug, name: "Team" }));
  return { slug, id: ws.id };
}

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

async function errorCode(res: Response): Promise<{ status: number; code: string | undefined; issues: { path: string; code: string }[] }> {
  const body = (await res.json()) as { error?: { data?: { appCode?: string; issues?: { path: string; code: string }[] | null } } };
  return { status: res.status, code: body.error?.data?.appCode, issues: body.error?.data?.issues ?? [] };
}

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

describe("a table's settings", () => {
  type Table = { name: string; columns: { name: string; type: string }[]; row_count: number };
  type Rows = { rows: { values: Record<string, unknown> }[] };

  async function newTable(ws: string): Promise<void> {
    await trpcData(
      await owner.mutation("collections.create", {
        workspace: ws,
        slug: "tasks",
        name: "Tasks",
        kind: "table",
        columns: [
          { name: "title", type: "text" },
          { name: "points", type: "number" },
          { name: "done", type: "boolean" },
        ],
      }),
    );
    await trpcData(
      await owner.mutation("rows.insert", {
        workspace: ws,
        collection: "tasks",
        rows: [{ title: "a", points: 1, done: true }, { title: "b", points: 2, done: false }, { title: "c", points: 2 }, { title: "d" }],
      }),
    );
  }
  const rowsOf = async (ws: string) => (await trpcData<Rows>(await owner.query("rows.list", { workspace: ws, collection: "tasks" }))).rows.map((r) => r.values);

  it("renames the table, adds, renames and removes columns with the rows' values handled", async () => {
    const { slug: ws } = await newWorkspace();
    await newTable(ws);
    const page = uniq("report");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Report", body_markdown: "x", workspace: ws, tables: [{ collection: "tasks" }] }));

    expect((await trpcData<Table>(await owner.mutation("collections.rename", { workspace: ws, collection: "tasks", name: "Chores" }))).name).toBe("Chores");

    const added = await trpcData<Table>(
      await owner.mutation("collections.addColumn", { workspace: ws, collection: "tasks", column: { name: "owner", type: "text" } }),
    );
    expect(added.columns.map((c) => c.name)).toEqual(["title", "points", "done", "owner"]);
    expect((await rowsOf(ws)).every((v) => v.owner === null)).toBe(true);

    // Rename carries every value (numbers, text, and empties).
    await trpcData(await owner.mutation("collections.renameColumn", { workspace: ws, collection: "tasks", column: "points", name: "estimate" }));
    expect((await rowsOf(ws)).map((v) => [v.title, v.estimate, "points" in v])).toEqual([
      ["a", 1, false],
      ["b", 2, false],
      ["c", 2, false],
      ["d", null, false],
    ]);
    const html = await (await owner.request(`/a/${page}`)).text();
    expect(html).toContain("estimate");
    expect(html).toContain("Chores");
    // A row written after the rename uses the new name.
    await trpcData(await owner.mutation("rows.insert", { workspace: ws, collection: "tasks", rows: [{ title: "e", estimate: 5 }] }));

    const count = await trpcData<{ rows_with_values: number }>(
      await owner.query("collections.columnValues", { workspace: ws, collection: "tasks", column: "done" }),
    );
    expect(count.rows_with_values).toBe(2);
    // A confirmation for fewer values than there are drops nothing.
    const stale = await errorCode(await owner.mutation("collections.removeColumn", { workspace: ws, collection: "tasks", column: "done", expected_values: 1 }));
    expect(stale).toMatchObject({ status: 409, code: "conflict" });
    const removed = await trpcData<Table>(
      await owner.mutation("collections.removeColumn", { workspace: ws, collection: "tasks", column: "done", expected_values: 2 }),
    );
    expect(removed.columns.map((c) => c.name)).toEqual(["title", "estimate", "owner"]);
    expect((await rowsOf(ws)).some((v) => "done" in v)).toBe(false);
    const stored = await srv.database.c.rows.find({}, { projection: { values: 1 } }).toArray();
    expect(stored.some((r) => "done" in r.values || "points" in r.values)).toBe(false);

    // A type change is refused while values exist, allowed on an empty column.
    const refused = await errorCode(
      await owner.mutation("collections.changeColumnType", { workspace: ws, collection: "tasks", column: "estimate", type: "text" }),
    );
    expect(refused).toMatchObject({ status: 400, code: "invalid_request" });
    expect(refused.issues).toEqual([expect.objectContaining({ path: "type", code: "has_values" })]);
    const changed = await trpcData<Table>(
      await owner.mutation("collections.changeColumnType", { workspace: ws, collection: "tasks", column: "owner", type: "select", options: ["ana", "bo"] }),
    );
    expect(changed.columns.find((c) => c.name === "owner")?.type).toBe("select");
  });

  it("refuses bad input, a viewer and a stranger, and writes nothing", async () => {
    const { slug: ws, id } = await newWorkspace();
    await newTable(ws);
    const viewerEmail = `${uniq("viewer")}@example.com`;
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email: viewerEmail, role: "viewer" }));
    const viewer = await signIn(srv, viewerEmail);
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    const snapshot = async () =>
      JSON.stringify([
        await srv.database.c.collections.find({ workspaceId: id }).sort({ _id: 1 }).toArray(),
        await srv.database.c.rows.find({ workspaceId: id }).sort({ _id: 1 }).toArray(),
        await srv.database.c.events.countDocuments({ workspaceId: id }),
      ]);
    const before = await snapshot();
    const ref = { workspace: ws, collection: "tasks" };

    const dup = await errorCode(await owner.mutation("collections.renameColumn", { ...ref, column: "points", name: "title" }));
    expect(dup).toMatchObject({ status: 400, code: "invalid_request" });
    expect(dup.issues).toEqual([expect.objectContaining({ path: "name", code: "duplicate" })]);
    expect((await errorCode(await owner.mutation("collections.renameColumn", { ...ref, column: "points", name: "_id" }))).issues[0]).toMatchObject({
      code: "reserved_name",
    });
    expect((await errorCode(await owner.mutation("collections.renameColumn", { ...ref, column: "nope", name: "x" }))).issues[0]).toMatchObject({
      path: "column",
      code: "unknown_column",
    });
    expect(
      (await errorCode(await owner.mutation("collections.addColumn", { ...ref, column: { name: "due", type: "date", required: true } }))).issues[0],
    ).toMatchObject({
      path: "column.required",
      code: "not_allowed",
    });
    expect((await errorCode(await owner.mutation("collections.addColumn", { ...ref, column: { name: "title", type: "text" } }))).issues[0]).toMatchObject({
      path: "column.name",
      code: "duplicate",
    });
    expect((await owner.mutation("collections.addColumn", { ...ref, column: { name: "x", type: "colour" } })).status).toBe(400);
    expect((await owner.mutation("collections.rename", { ...ref, name: "" })).status).toBe(400);
    expect((await owner.mutation("collections.delete", { workspace: ws, collection: "pages" })).status).toBe(400);
    expect((await owner.mutation("collections.delete", { workspace: ws, collection: "nothing" })).status).toBe(404);

    for (const [who, status] of [
      [viewer, 403],
      [stranger, 404],
    ] as const) {
      expect((await who.mutation("collections.rename", { ...ref, name: "Mine" })).status).toBe(status);
      expect((await who.mutation("collections.addColumn", { ...ref, column: { name: "x", type: "text" } })).status).toBe(status);
      expect((await who.mutation("collections.renameColumn", { ...ref, column: "title", name: "x" })).status).toBe(status);
      expect((await who.mutation("collections.removeColumn", { ...ref, column: "title", expected_values: 0 })).status).toBe(status);
      expect((await who.mutation("collections.changeColumnType", { ...ref, column: "title", type: "url" })).status).toBe(status);
      expect((await who.mutation("collections.delete", ref)).status).toBe(status);
    }
    expect(await snapshot()).toBe(before);
  });

  it("deletes a table with its rows and history, and gives their bytes back", async () => {
    const { slug: ws, id } = await newWorkspace();
    const usage0 = (await trpcData<{ usage: { bytes: number } }>(await owner.query("workspaces.get", { slug: ws }))).usage.bytes;
    await newTable(ws);
    const page = uniq("report");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Report", body_markdown: "x", workspace: ws, tables: [{ collection: "tasks" }] }));
    const withPage = (await trpcData<{ usage: { bytes: number } }>(await owner.query("workspaces.get", { slug: ws }))).usage.bytes;
    expect((await trpcData<{ slug: string }>(await owner.mutation("collections.delete", { workspace: ws, collection: "tasks" }))).slug).toBe("tasks");
    expect(await srv.database.c.rows.countDocuments({ workspaceId: id })).toBe(0);
    expect(await srv.database.c.rowRevisions.countDocuments({ workspaceId: id })).toBe(0);
    expect((await owner.query("rows.list", { workspace: ws, collection: "tasks" })).status).toBe(404);
    expect(await (await owner.request(`/a/${page}`)).text()).toContain("no longer exists");
    const after = (await trpcData<{ usage: { bytes: number } }>(await owner.query("workspaces.get", { slug: ws }))).usage.bytes;
    expect(after).toBeLessThan(withPage);
    expect(after).toBeGreaterThan(usage0);
    const { countUsage } = await import("@atelier/shared/domain/limits");
    expect(after).toBe((await countUsage(srv.deps, id)).bytes);
  });
});

describe("a page's address", () => {
  it("moves a page; the old address redirects (301) to the new one, for readers only, and chains collapse", async () => {
    const { slug: ws, id } = await newWorkspace();
    const a = uniq("first");
    const b = uniq("second");
    const c = uniq("third");
    await trpcData(await owner.mutation("pages.create", { slug: a, title: "Moving", body_markdown: "the words", workspace: ws }));
    const moved = await trpcData<{ slug: string; artifact_url: string; version: number }>(await owner.mutation("pages.move", { slug: a, new_slug: b }));
    expect(moved).toMatchObject({ slug: b, version: 1 });
    expect(moved.artifact_url).toMatch(new RegExp(`/a/${b}$`));

    const old = await owner.request(`/a/${a}`);
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`/a/${b}`);
    expect(old.headers.get("cache-control")).toBe("private, no-store");
    expect(await (await owner.request(`/a/${b}`)).text()).toContain("the words");
    expect((await owner.query("pages.get", { slug: a })).status).toBe(404);
    // A private page's old address tells nothing to outsiders.
    expect((await new Browser(srv.url).request(`/a/${a}`)).status).toBe(404);
    await trpcData(await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" }));
    const visitor = await new Browser(srv.url).request(`/a/${a}`);
    expect(visitor.status).toBe(301);
    expect(visitor.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=1");

    // Writes after the move land on the new address.
    await trpcData(await owner.mutation("pages.update", { slug: b, body_markdown: "newer words" }));
    expect(await (await owner.request(`/a/${b}`)).text()).toContain("newer words");

    await trpcData(await owner.mutation("pages.move", { slug: b, new_slug: c }));
    for (const from of [a, b]) expect((await owner.request(`/a/${from}`)).headers.get("location")).toBe(`/a/${c}`);
    const redirects = await srv.database.c.artifacts.find({ workspaceId: id, html: null }).toArray();
    const days = (redirects[0]?.redirect?.until.getTime() ?? 0) - Date.now();
    expect(days / 86_400_000).toBeGreaterThan(29.9);
    expect(days / 86_400_000).toBeLessThanOrEqual(30);

    // Moving back to an address it had is allowed; so is reusing one within the workspace.
    await trpcData(await owner.mutation("pages.move", { slug: c, new_slug: a }));
    expect(await (await owner.request(`/a/${a}`)).text()).toContain("newer words");
    expect((await owner.request(`/a/${c}`)).headers.get("location")).toBe(`/a/${a}`);
    await trpcData(await owner.mutation("pages.create", { slug: b, title: "Took the address", body_markdown: "mine now", workspace: ws }));
    expect(await (await owner.request(`/a/${b}`)).text()).toContain("mine now");

    // The sweeper keeps redirects.
    const { sweepOnce } = await import("@atelier/shared/domain/sweeper");
    await srv.database.c.artifacts.updateMany({ workspaceId: id, html: null }, { $set: { updatedAt: new Date(Date.now() - 3_600_000) } });
    await sweepOnce(srv.deps);
    expect((await owner.request(`/a/${c}`)).status).toBe(301);

    // After the redirect's time, the old address is gone and free for any workspace.
    await srv.database.c.artifacts.updateMany({ workspaceId: id, html: null }, { $set: { "redirect.until": new Date(Date.now() - 1000) } });
    srv.deps.cache.delete(`art:${c}`);
    expect((await owner.request(`/a/${c}`)).status).toBe(404);
    const other = await newWorkspace();
    expect((await owner.mutation("pages.create", { slug: c, title: "Elsewhere", body_markdown: "x", workspace: other.slug })).status).toBe(200);
  });

  it("refuses a taken or malformed address, an outsider and a viewer, and writes nothing", async () => {
    const { slug: ws, id } = await newWorkspace();
    const a = uniq("page");
    const taken = uniq("taken");
    await trpcData(await owner.mutation("pages.create", { slug: a, title: "A", body_markdown: "x", workspace: ws }));
    await trpcData(await owner.mutation("pages.create", { slug: taken, title: "Taken", body_markdown: "y", workspace: ws }));
    const elsewhere = await newWorkspace();
    const moved = uniq("moved");
    const held = uniq("held");
    await trpcData(await owner.mutation("pages.create", { slug: held, title: "Held", body_markdown: "z", workspace: elsewhere.slug }));
    await trpcData(await owner.mutation("pages.move", { slug: held, new_slug: moved }));
    const viewerEmail = `${uniq("viewer")}@example.com`;
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email: viewerEmail, role: "viewer" }));
    const viewer = await signIn(srv, viewerEmail);
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    const snapshot = async () =>
      JSON.stringify([
        await srv.database.c.artifacts
          .find({}, { projection: { updatedAt: 0 } })
          .sort({ _id: 1 })
          .toArray(),
        await srv.database.c.pages.find({ workspaceId: id }).sort({ _id: 1 }).toArray(),
        await srv.database.c.events.countDocuments({ workspaceId: id }),
      ]);
    const before = await snapshot();

    expect(await errorCode(await owner.mutation("pages.move", { slug: a, new_slug: taken }))).toMatchObject({ status: 409, code: "conflict" });
    // Another workspace's moved page keeps its old address for its redirect's time.
    expect(await errorCode(await owner.mutation("pages.move", { slug: a, new_slug: held }))).toMatchObject({ status: 409, code: "conflict" });
    const bad = await errorCode(await owner.mutation("pages.move", { slug: a, new_slug: "Not A Slug" }));
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bad.issues[0]?.path).toBe("new_slug");
    expect((await viewer.mutation("pages.move", { slug: a, new_slug: uniq("x") })).status).toBe(403);
    expect((await stranger.mutation("pages.move", { slug: a, new_slug: uniq("x") })).status).toBe(404);
    expect((await new Browser(srv.url).mutation("pages.move", { slug: a, new_slug: uniq("x") })).status).toBe(401);
    expect(await snapshot()).toBe(before);
  });
});

/** A mail's quoted-printable text, decoded. */
function decodeQp(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

describe("invitations", () => {
  type MemberRow = { user_id: string; email: string; role: string; confirmed: boolean };

  it("e-mails a new person a link; they are pending until they sign in, then a member", async () => {
    const { slug: ws } = await newWorkspace();
    await trpcData(await owner.mutation("workspaces.rename", { slug: ws, name: "Field notes" }));
    const email = `${uniq("New.Person")}@Example.com`;
    const before = srv.smtp.messages.length;
    const added = await trpcData<{ user_id: string; pending: boolean; mailed: boolean }>(
      await owner.mutation("workspaces.members.add", { slug: ws, email, role: "editor" }),
    );
    expect(added).toMatchObject({ pending: true, mailed: true });
    const mail = decodeQp((await srv.smtp.waitFor(email.toLowerCase(), before)).raw);
    expect(mail).toContain("added you to the Atelier workspace “Field notes” as an editor");
    expect(mail).toContain(`${srv.config.BASE_URL}/app/sign-in?next=${encodeURIComponent(`/buckets/${ws}`)}`);

    let members = await trpcData<MemberRow[]>(await owner.query("workspaces.members.list", { slug: ws }));
    expect(members.find((m) => m.email === email.toLowerCase())).toMatchObject({ confirmed: false, role: "editor" });
    // Nothing secret is stored for it: the account holds the address and nothing else.
    const account = await srv.database.c.users.findOne({ email: email.toLowerCase() });
    expect(account).toMatchObject({ confirmedAt: null, defaultWorkspaceId: null });

    const invitee = await signIn(srv, email.toLowerCase());
    const theirs = await trpcData<{ slug: string; role: string }[]>(await invitee.query("workspaces.list"));
    expect(theirs).toEqual(expect.arrayContaining([expect.objectContaining({ slug: ws, role: "editor" })]));
    members = await trpcData<MemberRow[]>(await owner.query("workspaces.members.list", { slug: ws }));
    expect(members.find((m) => m.email === email.toLowerCase())?.confirmed).toBe(true);
  });

  it("tells someone with an account that they were added, and mails nobody for a role change", async () => {
    const { slug: ws } = await newWorkspace();
    const email = `${uniq("known")}@example.com`;
    await signIn(srv, email);
    const before = srv.smtp.messages.length;
    const added = await trpcData<{ pending: boolean; mailed: boolean }>(await owner.mutation("workspaces.members.add", { slug: ws, email, role: "viewer" }));
    expect(added).toMatchObject({ pending: false, mailed: true });
    const mail = decodeQp((await srv.smtp.waitFor(email, before)).raw);
    expect(mail).toContain(`${srv.config.BASE_URL}/app/buckets/${ws}`);
    const count = srv.smtp.messages.length;
    expect(await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email, role: "editor" }))).toMatchObject({ mailed: false });
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.smtp.messages.length).toBe(count);
  });

  it("lets the owner withdraw a pending invitation: the address is forgotten and sign-in finds no workspace", async () => {
    const { slug: ws, id } = await newWorkspace();
    const email = `${uniq("withdrawn")}@example.com`;
    const added = await trpcData<{ user_id: string }>(await owner.mutation("workspaces.members.add", { slug: ws, email, role: "editor" }));
    expect((await owner.mutation("workspaces.members.remove", { slug: ws, user_id: added.user_id })).status).toBe(200);
    expect(await srv.database.c.users.findOne({ email })).toBeNull();
    const events = await trpcData<{ events: { type: string }[] }>(await owner.query("workspaces.activity", { slug: ws }));
    expect(events.events[0]?.type).toBe("member.invitation_withdrawn");
    const person = await signIn(srv, email);
    const theirs = await trpcData<{ slug: string }[]>(await person.query("workspaces.list"));
    expect(theirs.map((w) => w.slug)).not.toContain(ws);
    expect((await srv.database.c.workspaces.findOne({ _id: id }))?.members.length).toBe(1);
  });

  it("keeps an invited account that another workspace still invites", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const email = `${uniq("twice")}@example.com`;
    const added = await trpcData<{ user_id: string }>(await owner.mutation("workspaces.members.add", { slug: a.slug, email, role: "editor" }));
    await trpcData(await owner.mutation("workspaces.members.add", { slug: b.slug, email, role: "viewer" }));
    await trpcData(await owner.mutation("workspaces.members.remove", { slug: a.slug, user_id: added.user_id }));
    expect(await srv.database.c.users.findOne({ email })).not.toBeNull();
  });

  it("refuses bad input and non-owners, and sends and writes nothing", async () => {
    const { slug: ws, id } = await newWorkspace();
    const editorEmail = `${uniq("editor")}@example.com`;
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email: editorEmail, role: "editor" }));
    const editor = await signIn(srv, editorEmail);
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    const mails = srv.smtp.messages.length;
    const snapshot = async () => JSON.stringify([await srv.database.c.workspaces.findOne({ _id: id }), await srv.database.c.users.countDocuments({})]);
    const before = await snapshot();
    const target = `${uniq("target")}@example.com`;

    const bad = await errorCode(await owner.mutation("workspaces.members.add", { slug: ws, email: "not an address", role: "editor" }));
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bad.issues[0]?.path).toBe("email");
    expect((await owner.mutation("workspaces.members.add", { slug: ws, email: target, role: "boss" })).status).toBe(400);
    expect(await errorCode(await editor.mutation("workspaces.members.add", { slug: ws, email: target, role: "editor" }))).toMatchObject({
      status: 403,
      code: "forbidden",
    });
    expect((await stranger.mutation("workspaces.members.add", { slug: ws, email: target, role: "editor" })).status).toBe(404);
    expect((await new Browser(srv.url).mutation("workspaces.members.add", { slug: ws, email: target, role: "editor" })).status).toBe(401);
    const members = await trpcData<MemberRow[]>(await owner.query("workspaces.members.list", { slug: ws }));
    const ownerId = members.find((m) => m.role === "owner")?.user_id;
    expect((await editor.mutation("workspaces.members.remove", { slug: ws, user_id: ownerId })).status).toBe(403);

    expect(await snapshot()).toBe(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.smtp.messages.slice(mails).filter((m) => m.to.includes(target))).toEqual([]);
  });
});
