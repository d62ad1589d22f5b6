// Issue 25 item 4 for MCP resource subscriptions (2026-07-28 subscriptions/listen, real SDK
// clients over HTTP): a subscriber is told only about pages it may read at the moment of
// delivery — a member removed mid-stream, an outsider subscribed to a private page, a page
// whose workspace was made private, a token confined to another workspace: each gets nothing.
// "Nothing" is shown without a clock: the subscriber also listens to a canary page it may
// read, changed after the one it may not; notifications follow the feed's one order, so when
// the canary's arrives the other's would have arrived before it.
import type { UserDoc } from "@atelier/shared/db";
import { addMemberByEmail, removeMember } from "@atelier/shared/domain/members";
import { createWorkspaceFor, setVisibility } from "@atelier/shared/domain/workspaces";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, Updates, type TestSidecar } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

let sc: TestSidecar;
let owner: UserDoc;
let ownerClient: Client;

async function ok(c: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
}

async function workspace(visibility: "private" | "public" = "private"): Promise<string> {
  const slug = uniq("ws");
  await createWorkspaceFor(sc.deps, { kind: "user", user: owner }, { slug, name: "W" });
  if (visibility === "public") await setVisibility(sc.deps, { kind: "user", user: owner }, slug, "public");
  return slug;
}

async function page(c: Client, ws: string): Promise<string> {
  const slug = uniq("p");
  await ok(c, "create_page", { slug, title: "T", body_markdown: "x", workspace: ws });
  return slug;
}

/** A listener on `watched` and `canary`; after `act`, `watched` changes, then `canary`: only the canary's notification may come. */
async function expectNothingAfter(
  listener: Client,
  writerOfWatched: Client,
  watched: string,
  writerOfCanary: Client,
  canary: string,
  act: () => Promise<void>,
) {
  const updates = new Updates(listener);
  const sub = await listener.listen({ resourceSubscriptions: [`artifact://${watched}`, `artifact://${canary}`] });
  await act();
  const from = updates.uris.length;
  await ok(writerOfWatched, "update_page", { slug: watched, body_markdown: `secret ${uniq("v")}` });
  await ok(writerOfCanary, "update_page", { slug: canary, body_markdown: `canary ${uniq("v")}` });
  await updates.next(`artifact://${canary}`, from);
  expect(updates.uris.slice(from)).toEqual([`artifact://${canary}`]);
  await sub.close();
}

beforeAll(async () => {
  sc = await startTestSidecar({}, "subleaks");
  owner = await makeUser(sc, `${uniq("owner")}@example.com`);
  ownerClient = await connectClient(sc, (await makeToken(sc, owner, { label: "Owner's agent" })).credential, "modern");
}, 60_000);
afterAll(async () => {
  await ownerClient.close();
  await sc.close();
});

describe("MCP resource subscriptions leak nothing", () => {
  it("a member removed mid-stream is told nothing more of the workspace's pages", async () => {
    const email = `${uniq("member")}@example.com`;
    const member = await makeUser(sc, email);
    const ws = await workspace();
    await addMemberByEmail(sc.deps, { kind: "user", user: owner }, { workspace: ws, email, role: "editor" });
    const client = await connectClient(sc, (await makeToken(sc, member, { label: "Member's agent" })).credential, "modern");
    const watched = await page(ownerClient, ws);
    const canary = await page(client, (await sc.database.c.workspaces.findOne({ ownerId: member._id, "members.userId": member._id }))?.slug ?? "");
    // While a member, the change arrives.
    const seen = new Updates(client);
    const sub = await client.listen({ resourceSubscriptions: [`artifact://${watched}`] });
    await ok(ownerClient, "update_page", { slug: watched, body_markdown: "visible" });
    await seen.next(`artifact://${watched}`, 0);
    await sub.close();
    await expectNothingAfter(client, ownerClient, watched, client, canary, () =>
      removeMember(sc.deps, { kind: "user", user: owner }, { workspace: ws, userId: member._id }),
    );
    await client.close();
  });

  it("an outsider subscribed to a private page is told nothing", async () => {
    const outsider = await makeUser(sc, `${uniq("outsider")}@example.com`);
    const client = await connectClient(sc, (await makeToken(sc, outsider)).credential, "modern");
    const watched = await page(ownerClient, await workspace());
    const canary = await page(ownerClient, await workspace("public"));
    await expectNothingAfter(client, ownerClient, watched, ownerClient, canary, async () => undefined);
    await client.close();
  });

  it("a page whose workspace is made private is told to nobody any more", async () => {
    const ws = await workspace("public");
    const watched = await page(ownerClient, ws);
    const canary = await page(ownerClient, await workspace("public"));
    const anonymous = await connectClient(sc, undefined, "modern");
    const seen = new Updates(anonymous);
    const sub = await anonymous.listen({ resourceSubscriptions: [`artifact://${watched}`] });
    await ok(ownerClient, "update_page", { slug: watched, body_markdown: "public" });
    await seen.next(`artifact://${watched}`, 0);
    await sub.close();
    await expectNothingAfter(anonymous, ownerClient, watched, ownerClient, canary, async () => {
      await setVisibility(sc.deps, { kind: "user", user: owner }, ws, "private");
    });
    await anonymous.close();
  });

  it("a token confined to one workspace is told nothing of a public workspace it could read", async () => {
    const confinedTo = await workspace();
    const canary = await page(ownerClient, confinedTo);
    const watched = await page(ownerClient, await workspace("public"));
    const client = await connectClient(sc, (await makeToken(sc, owner, { workspaces: [confinedTo] })).credential, "modern");
    await expectNothingAfter(client, ownerClient, watched, ownerClient, canary, async () => undefined);
    await client.close();
  });
});
