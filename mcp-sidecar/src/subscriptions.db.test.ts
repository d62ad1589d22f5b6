// MCP resource subscriptions through the real SDK client over HTTP: a 2026-07-28 client
// listens to artifact:// URIs and another client's update_page reaches it as
// notifications/resources/updated (the URI only); its token revoked, the stream ends with
// the spec's graceful close; the 2025 generation declares no subscriptions (stateless).
// The leak cases (member removed, outsider, page made private, confined token) are in
// abuse/subscription-leaks.db.test.ts.
import type { UserDoc } from "@atelier/shared/db";
import { revokeToken } from "@atelier/shared/domain/tokens";
import type { Client, McpSubscription } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, modernCall, rawCall, startTestSidecar, toolCall, Updates, type TestSidecar } from "./testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

let sc: TestSidecar;
let owner: UserDoc;
let writer: Client;

async function ok(c: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
  return r.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  sc = await startTestSidecar({}, "subscriptions");
  owner = await makeUser(sc, `${uniq("subs")}@example.com`);
  writer = await connectClient(sc, (await makeToken(sc, owner, { label: "Writer" })).credential, "modern");
}, 60_000);
afterAll(async () => {
  await writer.close();
  await sc.close();
});

describe("resource subscriptions (2026-07-28 subscriptions/listen)", () => {
  it("are declared on 2026-07-28 only: the stateless 2025 generation offers no resources/subscribe", async () => {
    const { credential } = await makeToken(sc, owner);
    const modern = await connectClient(sc, credential, "modern");
    const legacy = await connectClient(sc, credential, "legacy");
    expect(modern.getServerCapabilities()?.resources?.subscribe).toBe(true);
    expect(legacy.getServerCapabilities()?.resources?.subscribe).toBeFalsy();
    // resources/subscribe on the 2025 generation is refused (method not found), nothing held.
    await expect(legacy.subscribeResource({ uri: "artifact://anything" })).rejects.toThrow();
    await modern.close();
    await legacy.close();
  });

  it("tells a listener that a page changed when another client updates it, with the URI only; revoking its token ends the stream", async () => {
    const slug = uniq("watched");
    await ok(writer, "create_page", { slug, title: "Watched", body_markdown: "first" });
    // The page's creation is read by this process's follower before the listen starts: a
    // change made before it may otherwise reach the new stream too (seen once in CI, Node 22).
    await sc.follower.poll();
    const { tokenId, credential } = await makeToken(sc, owner, { label: "Listener" });
    const listener = await connectClient(sc, credential, "modern");
    const updates = new Updates(listener);
    const sub: McpSubscription = await listener.listen({ resourceSubscriptions: [`artifact://${slug}`] });
    expect(sub.honoredFilter.resourceSubscriptions).toEqual([`artifact://${slug}`]);

    await ok(writer, "update_page", { slug, body_markdown: "second" });
    await updates.next(`artifact://${slug}`, 0);
    expect(updates.uris).toEqual([`artifact://${slug}`]);
    // The listener reads what changed with its own access.
    const read = await listener.readResource({ uri: `artifact://${slug}` });
    expect((read.contents[0] as { text: string }).text).toContain("second");

    // Revoked (as the app does, from another process's point of view: a signal on the feed).
    await revokeToken(sc.deps, owner._id, tokenId);
    expect(await sub.closed).toBe("graceful");
    await ok(writer, "update_page", { slug, body_markdown: "third" });
    // Whatever is delivered now would come after the follower's next read; the stream is gone.
    await sc.follower.poll();
    expect(updates.uris).toEqual([`artifact://${slug}`]);
    await listener.close().catch(() => undefined);
  });

  it("a raw listen request without the standard headers is refused as the SDK refuses it, and holds no stream", async () => {
    const { body } = modernCall("subscriptions/listen", { notifications: { resourceSubscriptions: ["artifact://x"] } });
    const r = await rawCall(sc, body);
    expect(r.status).toBe(400);
    // A tool call still answers on the same endpoint (nothing got stuck).
    const t = await rawCall(sc, toolCall("list_workspaces"), { "mcp-protocol-version": "2025-11-25" });
    expect(t.status).toBe(200);
  });
});
