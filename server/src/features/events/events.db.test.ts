// The live streams (docs/events.md#live-streams): the app's stream carries a workspace's
// changes to its members with who made them, resumes after its last id exactly once and in
// order, and ends when the session does; a published page's stream says only that the
// document changed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, SseReader, startTestServer, trpcData, type Browser, type SseEvent, type TestServer } from "../../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
type Change = {
  workspace_id: string;
  seq: number;
  type: string;
  target: { kind: string; id: string };
  actor: { user_id: string | null };
  version: number | null;
};
const change = (e: SseEvent | null) => e?.data as Change;

describe("live streams", () => {
  let srv: TestServer;
  let owner: Browser;
  let ownerId: string;
  let ws: string;

  beforeAll(async () => {
    srv = await startTestServer({}, "live");
    owner = await signIn(srv, `${uniq("owner")}@example.com`);
    ownerId = (await trpcData<{ id: string }>(await owner.query("me.get"))).id;
    ws = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug: ws, name: "Live" }));
  });
  afterAll(async () => srv.close());

  const appStream = (b: Browser, lastId?: string) =>
    SseReader.open(`${srv.url}/api/events`, { cookie: b.cookie, ...(lastId ? { "last-event-id": lastId } : {}) });

  it("needs a session", async () => {
    const s = await SseReader.open(`${srv.url}/api/events`);
    expect(s.res.status).toBe(401);
  });

  it("tells a member what changed, who did it and the version, in order; a resume gets the rest once", async () => {
    const s = await appStream(owner);
    expect(s.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.res.headers.get("x-accel-buffering")).toBe("no");
    await s.find((e) => e.event === "ready");
    const page = uniq("p");
    const at = s.seen.length;
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "One", body_markdown: "x", workspace: ws }));
    const created = await s.next((e) => e.event === "change" && change(e).type === "page.created", at);
    expect(change(created)).toMatchObject({ type: "page.created", target: { kind: "page" }, actor: { user_id: ownerId }, version: 1 });
    // Bodies and titles never travel on the stream.
    expect(JSON.stringify(s.seen)).not.toContain("One");
    const lastId = created?.id ?? "";
    s.close();
    for (let v = 1; v <= 3; v++) await trpcData(await owner.mutation("pages.update", { slug: page, body_markdown: `v${v + 1}`, expected_version: v }));
    // Reconnecting with the last id: the three updates, each once, in order, then "ready".
    const again = await appStream(owner, lastId);
    await again.find((e) => e.event === "ready");
    const updates = again.seen.filter((e) => e.event === "change").map((e) => change(e).version);
    expect(updates).toEqual([2, 3, 4]);
    again.close();
  });

  it("says resync for a position no longer kept", async () => {
    const head = await srv.deps.database.c.changeHeads.findOne({ _id: "*" });
    await srv.deps.database.c.changeHeads.updateOne({ _id: "*" }, { $set: { floor: (head?.seq ?? 0) + 1 } });
    const s = await appStream(owner, "1");
    expect((await s.find((e) => e.event === "resync" || e.event === "ready"))?.event).toBe("resync");
    s.close();
    await srv.deps.database.c.changeHeads.updateOne({ _id: "*" }, { $set: { floor: 1 } });
  });

  it("ends when the person signs out", async () => {
    const b = await signIn(srv, `${uniq("leaver")}@example.com`);
    const s = await appStream(b);
    await s.find((e) => e.event === "ready");
    await b.mutation("auth.signOut");
    // Their next change would be the first delivery after signing out: the stream says so and ends.
    await trpcData(await owner.mutation("pages.create", { slug: uniq("p"), title: "After", body_markdown: "x", workspace: ws }));
    expect(await s.find((e) => e.event === "signed_out")).not.toBeNull();
    await s.next(() => false);
    expect(s.ended).toBe(true);
  });

  it("a published page's stream: ready with a state, a change when the document changes, nothing else", async () => {
    const pub = uniq("pub");
    await trpcData(await owner.mutation("workspaces.create", { slug: pub, name: "Public" }));
    await trpcData(await owner.mutation("workspaces.setVisibility", { slug: pub, visibility: "public" }));
    const page = uniq("a");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Open", body_markdown: "first", workspace: pub }));
    expect((await SseReader.open(`${srv.url}/api/events/page?a=nope-${page}`)).res.status).toBe(404);
    expect((await SseReader.open(`${srv.url}/api/events/page?a=Bad!`)).res.status).toBe(400);
    const s = await SseReader.open(`${srv.url}/api/events/page?a=${page}`);
    expect(s.res.headers.get("access-control-allow-origin")).toBe("*");
    const ready = await s.find((e) => e.event === "ready");
    const at = s.seen.length;
    await trpcData(await owner.mutation("pages.update", { slug: page, body_markdown: "second", expected_version: 1 }));
    const changed = await s.next((e) => e.event === "change", at);
    expect(changed?.data).toEqual({ state: expect.any(String) });
    expect((changed?.data as { state: string }).state).not.toBe((ready?.data as { state: string }).state);
    // The page's document carries the live script; an HTML page of its author's does not.
    const html = await (await fetch(`${srv.url}/a/${page}`)).text();
    expect(html).toContain("<script data-atelier-live>");
    s.close();
  });
});
