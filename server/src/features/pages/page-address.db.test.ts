// A page's address through tRPC (issue 17 item 3): moving a page, the old address redirecting
// (301) for readers, chains collapsing, and refusals that write nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createTeamWorkspace, signIn, startTestServer, trpcData, trpcErrorOf, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "pageaddress");
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

const newWorkspace = (by: Browser = owner) => createTeamWorkspace(by, uniq("ws"));

const errorCode = trpcErrorOf;

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
