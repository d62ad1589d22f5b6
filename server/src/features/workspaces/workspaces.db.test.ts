import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TokenDoc } from "@atelier/shared/db";
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "workspaces");
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

interface Member {
  user_id: string;
  email: string;
  role: string;
}

async function newWorkspace(): Promise<string> {
  const slug = uniq("ws");
  const res = await owner.mutation("workspaces.create", { slug, name: "Team" });
  expect(res.status).toBe(200);
  return slug;
}

describe("workspaces", () => {
  it("creates a workspace, refuses a taken slug, and lists it", async () => {
    const slug = await newWorkspace();
    const again = await owner.mutation("workspaces.create", { slug, name: "Again" });
    expect(again.status).toBe(409);
    const list = await trpcData<{ slug: string; role: string; can_manage: boolean }[]>(await owner.query("workspaces.list"));
    expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ slug, role: "owner", can_manage: true })]));
    expect((await owner.mutation("workspaces.create", { slug: "Bad Slug", name: "x" })).status).toBe(400);
  });

  it("lets a visitor read a public workspace and not a private one", async () => {
    const slug = await newWorkspace();
    const visitor = new Browser(srv.url);
    expect((await visitor.query("workspaces.get", { slug })).status).toBe(404);
    await owner.mutation("workspaces.setVisibility", { slug, visibility: "public" });
    const got = await trpcData<{ visibility: string; can_write: boolean }>(await visitor.query("workspaces.get", { slug }));
    expect(got).toMatchObject({ visibility: "public", can_write: false });
  });
});

describe("members", () => {
  it("invites by e-mail, changes roles, removes, and keeps one owner", async () => {
    const slug = await newWorkspace();
    const email = `${uniq("invitee")}@example.com`;
    expect((await owner.mutation("workspaces.members.add", { slug, email, role: "editor" })).status).toBe(200);

    // The invitee signs in for the first time and finds the workspace, and can edit in it.
    const invitee = await signIn(srv, email);
    const theirs = await trpcData<{ slug: string; role: string }[]>(await invitee.query("workspaces.list"));
    expect(theirs).toEqual(expect.arrayContaining([expect.objectContaining({ slug, role: "editor" })]));
    const page = uniq("page");
    expect((await invitee.mutation("pages.create", { slug: page, title: "By the invitee", body_markdown: "x", workspace: slug })).status).toBe(200);

    const members = await trpcData<Member[]>(await owner.query("workspaces.members.list", { slug }));
    const inv = members.find((m) => m.email === email);
    expect(inv?.role).toBe("editor");
    expect((await owner.mutation("workspaces.members.setRole", { slug, user_id: inv?.user_id, role: "viewer" })).status).toBe(200);
    expect((await invitee.mutation("pages.update", { slug: page, title: "nope" })).status).toBe(403);
    // A non-owner cannot manage members.
    expect((await invitee.mutation("workspaces.members.add", { slug, email: "x@example.com", role: "editor" })).status).toBe(403);

    const me = members.find((m) => m.role === "owner");
    const lastOwner = await owner.mutation("workspaces.members.setRole", { slug, user_id: me?.user_id, role: "editor" });
    expect(lastOwner.status).toBe(403);
    expect((await owner.mutation("workspaces.members.remove", { slug, user_id: me?.user_id })).status).toBe(403);

    expect((await owner.mutation("workspaces.members.remove", { slug, user_id: inv?.user_id })).status).toBe(200);
    expect((await invitee.query("workspaces.get", { slug })).status).toBe(404);
  });

  it("hides the member list from non-members", async () => {
    const slug = await newWorkspace();
    await owner.mutation("workspaces.setVisibility", { slug, visibility: "public" });
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    expect((await stranger.query("workspaces.members.list", { slug })).status).toBe(403);
  });
});

describe("history, restore and activity", () => {
  it("restores an earlier version as a new version and records it in the activity feed", async () => {
    const ws = await newWorkspace();
    const slug = uniq("doc");
    await owner.mutation("pages.create", { slug, title: "v1 title", body_markdown: "first", workspace: ws });
    await owner.mutation("pages.update", { slug, body_markdown: "second", expected_version: 1 });
    const rev = await trpcData<{ version: number; parts: { body: string }[] }>(await owner.query("pages.revision", { slug, version: 1 }));
    expect(rev.parts[0]?.body).toBe("first");
    const stale = await owner.mutation("pages.restore", { slug, version: 1, expected_version: 1 });
    expect(stale.status).toBe(409);
    const restored = await trpcData<{ version: number; parts: { body: string }[] }>(
      await owner.mutation("pages.restore", { slug, version: 1, expected_version: 2 }),
    );
    expect(restored.version).toBe(3);
    expect(restored.parts[0]?.body).toBe("first");
    const history = await trpcData<{ version: number }[]>(await owner.query("pages.history", { slug }));
    expect(history.map((h) => h.version)).toEqual([3, 2, 1]);

    const activity = await trpcData<{ events: { type: string; actor: { kind: string } }[] }>(await owner.query("workspaces.activity", { slug: ws }));
    expect(activity.events.map((e) => e.type).slice(0, 4)).toEqual(["page.restored", "page.updated", "page.created", "workspace.created"]);
    expect(activity.events.every((e) => e.actor.kind === "user")).toBe(true);
  });
});

describe("activity and history in words", () => {
  interface Event {
    type: string;
    count: number;
    target: { kind: string; label: string; slug: string | null };
    restored_from: number | null;
  }
  interface Rev {
    version: number;
    change_summary: string;
    lines_added: number | null;
    lines_removed: number | null;
    restored_from: number | null;
  }

  it("names pages and tables by their titles and runs of row changes as one entry", async () => {
    const ws = await newWorkspace();
    const slug = uniq("doc");
    await owner.mutation("pages.create", { slug, title: "Trail log", body_markdown: "first", workspace: ws });
    await owner.mutation("pages.update", { slug, title: "The trail log", expected_version: 1 });
    expect(
      (
        await owner.mutation("collections.create", {
          workspace: ws,
          slug: "reading",
          name: "Reading list",
          kind: "table",
          columns: [{ name: "title", type: "text" }],
        })
      ).status,
    ).toBe(200);
    // Twelve rows added one call at a time, then two more in one call, then one row changed twice.
    for (let i = 0; i < 12; i++) await owner.mutation("rows.insert", { workspace: ws, collection: "reading", rows: [{ title: `Book ${i}` }] });
    const two = await trpcData<{ row_ids: string[] }>(
      await owner.mutation("rows.insert", { workspace: ws, collection: "reading", rows: [{ title: "A" }, { title: "B" }] }),
    );
    const rowId = two.row_ids[0] ?? "";
    await owner.mutation("rows.update", { workspace: ws, collection: "reading", row_id: rowId, values: { title: "A1" } });
    await owner.mutation("rows.update", { workspace: ws, collection: "reading", row_id: rowId, values: { title: "A2" } });

    const { events } = await trpcData<{ events: Event[] }>(await owner.query("workspaces.activity", { slug: ws }));
    expect(events.map((e) => [e.type, e.count])).toEqual([
      ["row.updated", 2],
      ["rows.inserted", 14],
      ["collection.created", 1],
      ["page.updated", 1],
      ["page.created", 1],
      ["workspace.created", 1],
    ]);
    expect(events[0]?.target).toMatchObject({ label: "Reading list", slug: "reading" });
    expect(events[1]?.target).toMatchObject({ label: "Reading list", slug: "reading" });
    // Both page entries use the page's title as it is now, and link by slug.
    expect(events[3]?.target).toMatchObject({ kind: "page", label: "The trail log", slug });
    expect(events[4]?.target).toMatchObject({ kind: "page", label: "The trail log", slug });

    await owner.mutation("pages.delete", { slug });
    const after = await trpcData<{ events: Event[] }>(await owner.query("workspaces.activity", { slug: ws }));
    expect(after.events[0]).toMatchObject({ type: "page.deleted", target: { label: "The trail log", slug: null } });
  });

  it("gives each version a change summary, and says which version a restore brought back", async () => {
    const ws = await newWorkspace();
    const slug = uniq("doc");
    await owner.mutation("pages.create", { slug, title: "Plan", body_markdown: "one\ntwo\nthree", workspace: ws });
    await owner.mutation("pages.update", { slug, body_markdown: "one\nTWO\nthree\nfour\nfive", expected_version: 1 });
    await owner.mutation("pages.update", { slug, title: "The plan", expected_version: 2 });
    await owner.mutation("pages.restore", { slug, version: 1, expected_version: 3 });
    const history = await trpcData<Rev[]>(await owner.query("pages.history", { slug }));
    expect(history.map((h) => [h.version, h.change_summary])).toEqual([
      [4, "restored from version 1"],
      [3, "title changed"],
      [2, "+3 −1 lines"],
      [1, "created, 3 lines"],
    ]);
    expect(history[2]).toMatchObject({ lines_added: 3, lines_removed: 1 });
    expect(history[0]).toMatchObject({ restored_from: 1, lines_added: 1, lines_removed: 3 });
    // Anyone who may read the page (a visitor of a public workspace) gets the same words.
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    const seen = await trpcData<Rev[]>(await new Browser(srv.url).query("pages.history", { slug }));
    expect(seen.map((h) => h.change_summary)).toEqual(history.map((h) => h.change_summary));
  });
});

describe("share links", () => {
  it("lets anyone with the link read a private page or workspace until the owner revokes it", async () => {
    const ws = await newWorkspace();
    const slug = uniq("secret-plan");
    await owner.mutation("pages.create", { slug, title: "Secret plan", body_markdown: "only for friends", workspace: ws });
    const other = uniq("other-page");
    await owner.mutation("pages.create", { slug: other, title: "Other", body_markdown: "also here", workspace: ws });
    const visitor = new Browser(srv.url);
    expect((await visitor.request(`/a/${slug}`)).status).toBe(404);

    const pageLink = await trpcData<{ url: string; link_id: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws, page: slug }));
    const path = new URL(pageLink.url).pathname;
    const res = await visitor.request(path);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("only for friends");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    expect((await visitor.request(`${path}/${other}`)).status).toBe(404);
    expect(JSON.stringify(await srv.database.c.shareLinks.find().toArray())).not.toContain(path.slice(3));

    const wsLink = await trpcData<{ url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws }));
    const index = await visitor.request(new URL(wsLink.url).pathname);
    const indexHtml = await index.text();
    expect(indexHtml).toContain("Secret plan");
    expect(indexHtml).toContain("Other");
    expect((await visitor.request(`${new URL(wsLink.url).pathname}/${other}`)).status).toBe(200);

    const list = await trpcData<{ link_id: string }[]>(await owner.query("workspaces.shareLinks.list", { slug: ws }));
    expect(list).toHaveLength(2);
    expect((await owner.mutation("workspaces.shareLinks.revoke", { slug: ws, link_id: pageLink.link_id })).status).toBe(200);
    expect((await visitor.request(path)).status).toBe(404);
    expect((await visitor.request("/s/not-a-real-secret-at-all-000")).status).toBe(404);

    const editor = `${uniq("editor")}@example.com`;
    await owner.mutation("workspaces.members.add", { slug: ws, email: editor, role: "editor" });
    const eb = await signIn(srv, editor);
    expect((await eb.mutation("workspaces.shareLinks.create", { slug: ws })).status).toBe(403);
  });
});

describe("what visitors of a public workspace see of people", () => {
  it("withholds members' e-mail addresses and the activity feed from outsiders", async () => {
    const ws = await newWorkspace();
    const slug = uniq("open-doc");
    await owner.mutation("pages.create", { slug, title: "Open", body_markdown: "x", workspace: ws });
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    const visitor = new Browser(srv.url);
    const seen = await trpcData<{ created_by: { label: string; user_id: string | null } }>(await visitor.query("pages.get", { slug }));
    expect(seen.created_by).toEqual({ kind: "user", user_id: null, token_id: null, label: "A workspace member", withheld: true, unclaimed: false });
    const history = await trpcData<{ actor: { label: string } }[]>(await visitor.query("pages.history", { slug }));
    expect(history[0]?.actor.label).toBe("A workspace member");
    expect((await visitor.query("workspaces.activity", { slug: ws })).status).toBe(403);
    const mine = await trpcData<{ created_by: { label: string; user_id: string | null } }>(await owner.query("pages.get", { slug }));
    expect(mine.created_by.label).toMatch(/@example\.com$/);
    expect(mine.created_by.user_id).toMatch(/^usr_/);
  });
});

describe("who an agent's change is attributed to, for each reader", () => {
  it("shows members the agent and its person, outsiders only the agent's label, and never 'not yet claimed' for a person's agent", async () => {
    const ws = await newWorkspace();
    const slug = uniq("agent-doc");
    await owner.mutation("pages.create", { slug, title: "Field notes", body_markdown: "one", workspace: ws });
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    const issued = await trpcData<{ token_id: string }>(await owner.mutation("tokens.create", { label: "Research bot", scopes: ["mcp:read", "mcp:write"] }));
    const token = await srv.database.c.tokens.findOne({ _id: issued.token_id });
    expect(token).not.toBeNull();
    // The agent edits through the same domain call its MCP tool makes.
    await updatePage(srv.deps, { kind: "token", token: token as TokenDoc }, { slug, body_markdown: "one\ntwo", expected_version: 1 });

    const memberView = await trpcData<{ actor: Record<string, unknown> }[]>(await owner.query("pages.history", { slug }));
    expect(memberView[0]?.actor).toMatchObject({ kind: "agent", label: "Research bot", token_id: issued.token_id, withheld: false, unclaimed: false });
    expect(memberView[0]?.actor.user_id).toMatch(/^usr_/);

    const outsider = await signIn(srv, `${uniq("outsider")}@example.com`);
    const visitor = new Browser(srv.url);
    for (const reader of [outsider, visitor]) {
      const history = await trpcData<{ actor: Record<string, unknown> }[]>(await reader.query("pages.history", { slug }));
      expect(history[0]?.actor).toEqual({ kind: "agent", user_id: null, token_id: null, label: "Research bot", withheld: true, unclaimed: false });
      expect(history[1]?.actor).toEqual({ kind: "user", user_id: null, token_id: null, label: "A workspace member", withheld: true, unclaimed: false });
      const page = await trpcData<{ updated_by: Record<string, unknown> }>(await reader.query("pages.get", { slug }));
      expect(page.updated_by).toMatchObject({ kind: "agent", label: "Research bot", withheld: true, unclaimed: false });
      expect(JSON.stringify(history)).not.toMatch(/@example\.com|usr_|tok_/);
    }
  });

  it("withholds an agent label that carries an e-mail address from outsiders", async () => {
    const ws = await newWorkspace();
    const slug = uniq("agent-doc");
    await owner.mutation("pages.create", { slug, title: "Field notes", body_markdown: "one", workspace: ws });
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    const issued = await trpcData<{ token_id: string }>(await owner.mutation("tokens.create", { label: "ana@example.com laptop", scopes: ["mcp:write"] }));
    const token = (await srv.database.c.tokens.findOne({ _id: issued.token_id })) as TokenDoc;
    await updatePage(srv.deps, { kind: "token", token }, { slug, title: "Notes", expected_version: 1 });
    const history = await trpcData<{ actor: Record<string, unknown> }[]>(await new Browser(srv.url).query("pages.history", { slug }));
    expect(history[0]?.actor).toMatchObject({ kind: "agent", label: "An agent", withheld: true });
  });
});
