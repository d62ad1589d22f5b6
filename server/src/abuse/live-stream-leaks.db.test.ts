// Issue 25 item 4: nothing leaks through the live streams. Each subscriber receives only
// changes it may read at the moment of delivery. "Nothing" is shown without a clock: after
// the change it may not see, a change it may see is made; the stream's order (one global
// order of signals) means the first arrives before the second, so when the second arrives
// the first would have too.
import type { TokenDoc } from "@atelier/shared/db";
import { deliverableChange } from "@atelier/shared/domain/changes/deliver";
import { readChanges } from "@atelier/shared/domain/changes/feed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, SseReader, startTestServer, trpcData, type Browser, type SseEvent, type TestServer } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
const ofWorkspace = (id: string) => (e: SseEvent) => e.event === "change" && (e.data as { workspace_id: string }).workspace_id === id;

describe("live streams leak nothing", () => {
  let srv: TestServer;
  let owner: Browser;

  beforeAll(async () => {
    srv = await startTestServer({}, "liveleaks");
    owner = await signIn(srv, `${uniq("owner")}@example.com`);
  });
  afterAll(async () => srv.close());

  async function workspace(visibility: "private" | "public" = "private"): Promise<{ slug: string; id: string }> {
    const slug = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug, name: "W" }));
    if (visibility === "public") await trpcData(await owner.mutation("workspaces.setVisibility", { slug, visibility }));
    const ws = await srv.deps.database.c.workspaces.findOne({ slug });
    return { slug, id: ws?._id ?? "" };
  }

  it("a member removed mid-stream gets nothing of the workspace from then on", async () => {
    const email = `${uniq("member")}@example.com`;
    const member = await signIn(srv, email);
    const own = await trpcData<{ defaultWorkspace: string }>(await member.query("me.get"));
    const ws = await workspace();
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws.slug, email, role: "editor" }));
    const memberId = (await srv.deps.database.c.users.findOne({ email }))?._id;
    const s = await SseReader.open(`${srv.url}/api/events`, { cookie: member.cookie });
    await s.find((e) => e.event === "ready");
    const before = s.seen.length;
    await trpcData(await owner.mutation("pages.create", { slug: uniq("p"), title: "Before", body_markdown: "x", workspace: ws.slug }));
    expect(await s.next(ofWorkspace(ws.id), before)).not.toBeNull();
    await trpcData(await owner.mutation("workspaces.members.remove", { slug: ws.slug, user_id: memberId }));
    const after = s.seen.length;
    await trpcData(await owner.mutation("pages.create", { slug: uniq("p"), title: "Secret", body_markdown: "x", workspace: ws.slug }));
    // A change the member may see, in their own workspace, comes after it.
    await trpcData(await member.mutation("pages.create", { slug: uniq("p"), title: "Mine", body_markdown: "x", workspace: own.defaultWorkspace }));
    expect(await s.next((e) => e.event === "change" && (e.data as { type: string }).type === "page.created" && !ofWorkspace(ws.id)(e), after)).not.toBeNull();
    expect(s.seen.slice(after).filter(ofWorkspace(ws.id))).toEqual([]);
    s.close();
  });

  it("a page's workspace made private: its public stream says gone and ends, and carries nothing after", async () => {
    const ws = await workspace("public");
    const page = uniq("a");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Open", body_markdown: "x", workspace: ws.slug }));
    const s = await SseReader.open(`${srv.url}/api/events/page?a=${page}`);
    await s.find((e) => e.event === "ready");
    await trpcData(await owner.mutation("workspaces.setVisibility", { slug: ws.slug, visibility: "private" }));
    expect(await s.find((e) => e.event === "gone")).not.toBeNull();
    await s.next(() => false);
    expect(s.ended).toBe(true);
    expect(s.seen.map((e) => e.event)).toEqual(["ready", "gone"]);
    // And a new stream for it is refused like any page that is not there.
    expect((await SseReader.open(`${srv.url}/api/events/page?a=${page}`)).res.status).toBe(404);
  });

  it("a share link revoked: its view's stream says gone at the next change", async () => {
    const ws = await workspace();
    const page = uniq("s");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Shared", body_markdown: "x", workspace: ws.slug }));
    const link = await trpcData<{ url: string; link_id: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws.slug }));
    const secret = new URL(link.url).pathname.split("/")[2] ?? "";
    const s = await SseReader.open(`${srv.url}/api/events/page?s=${secret}&page=${page}`);
    await s.find((e) => e.event === "ready");
    await trpcData(await owner.mutation("workspaces.shareLinks.revoke", { slug: ws.slug, link_id: link.link_id }));
    await trpcData(await owner.mutation("pages.update", { slug: page, body_markdown: "changed", expected_version: 1 }));
    expect(await s.find((e) => e.event === "gone")).not.toBeNull();
    expect(s.seen.some((e) => e.event === "change")).toBe(false);
  });

  // Tokens reach the feed through MCP (list_changes, resource subscriptions); the decision is
  // the one function every stream uses, checked here with the token as the store has it now.
  it("a revoked token, and a sandbox token outside its sandbox, are given no change", async () => {
    const ws = await workspace("public");
    await trpcData(await owner.mutation("pages.create", { slug: uniq("p"), title: "T", body_markdown: "x", workspace: ws.slug }));
    const [c] = (await readChanges(srv.deps, ws.id, 0, 10)).changes;
    if (!c) throw new Error("no change");
    const created = await trpcData<{ token_id: string }>(await owner.mutation("tokens.create", { label: "reader", scopes: ["mcp:read"], expiresInDays: 1 }));
    const tokenDoc = async () => (await srv.deps.database.c.tokens.findOne({ _id: created.token_id })) as TokenDoc;
    expect(await deliverableChange(srv.deps, { kind: "token", token: await tokenDoc() }, c)).not.toBeNull();
    await trpcData(await owner.mutation("tokens.revoke", { token_id: created.token_id }));
    // Refused at delivery as the store has it now, even on a workspace that is public.
    const revoked = await tokenDoc();
    expect(revoked.revokedAt).toBeTruthy();
    expect(await deliverableChange(srv.deps, { kind: "token", token: revoked }, c)).toBeNull();
    const sandbox: TokenDoc = { ...revoked, revokedAt: null, kind: "anonymous", ownerId: null, workspaceIds: ["some-sandbox"] };
    expect(await deliverableChange(srv.deps, { kind: "token", token: sandbox }, c)).toBeNull();
  });
});
