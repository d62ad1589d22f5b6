// list_changes through the real MCP client: the feed in order, paged, resumed, filtered by
// what the caller may read, and a too-old cursor answered cursor_expired.
import type { UserDoc } from "@atelier/shared/db";
import { setVisibility } from "@atelier/shared/domain/workspaces";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let client: Client;
let wsSlug = "";

interface Change {
  seq: number;
  type: string;
  actor: { kind: string; user_id: string | null; token_id: string | null };
  target: { kind: string; id: string };
  version: number | null;
}
interface Changes {
  changes: Change[];
  next_cursor: string;
  more: boolean;
}

async function call<T>(c: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: T; error: { error: string } }> {
  const r = await c.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]?.text ?? "{}";
  return { isError: r.isError === true, data: r.structuredContent as T, error: JSON.parse(text) as { error: string } };
}

async function follow(c: Client, limit: number, cursor?: string): Promise<Change[]> {
  const out: Change[] = [];
  for (;;) {
    const r = await call<Changes>(c, "list_changes", { workspace: wsSlug, limit, ...(cursor ? { cursor } : {}) });
    expect(r.isError).toBe(false);
    out.push(...r.data.changes);
    if (r.data.next_cursor === cursor) return out;
    cursor = r.data.next_cursor;
  }
}

beforeAll(async () => {
  sc = await startTestSidecar({}, "changes");
  owner = await makeUser(sc, `changes-${Date.now()}@example.com`);
  client = await connectClient(sc, (await makeToken(sc, owner, { label: "Feed bot" })).credential);
  for (const [i, slug] of ["feed-a", "feed-b"].entries()) {
    expect((await call(client, "create_page", { slug: `${slug}-${Date.now()}`, title: `Page ${i}`, body_markdown: "first" })).isError).toBe(false);
  }
  wsSlug = (await sc.database.c.workspaces.findOne({ "members.userId": owner._id }))?.slug ?? "";
});
afterAll(async () => {
  await client.close();
  await sc.close();
});

describe("list_changes", () => {
  it("returns the same ordered sequence whether read in one call or one change at a time", async () => {
    const page = (await sc.database.c.pages.findOne({ title: "Page 0" }))?.slug ?? "";
    expect((await call(client, "update_page", { slug: page, body_markdown: "second" })).isError).toBe(false);
    const whole = await follow(client, 500);
    const single = await follow(client, 1);
    expect(single).toEqual(whole);
    const first = whole[0]?.seq ?? 0;
    expect(whole.map((c) => c.seq)).toEqual(whole.map((_, i) => first + i));
    const pageChanges = whole.filter((c) => c.target.kind === "page").map((c) => [c.type, c.version]);
    expect(pageChanges).toEqual([
      ["page.created", 1],
      ["page.created", 1],
      ["page.updated", 2],
    ]);
    // The agent that made them, by id; no titles or bodies anywhere.
    expect(whole.find((c) => c.type === "page.updated")?.actor).toMatchObject({ kind: "agent", user_id: owner._id });
    expect(JSON.stringify(whole)).not.toMatch(/Page 0|first|second/);
    // Resuming from the last position returns nothing new.
    const last = String(whole[whole.length - 1]?.seq ?? 0);
    expect((await call<Changes>(client, "list_changes", { workspace: wsSlug, cursor: last })).data.changes).toEqual([]);
  });

  it("answers a cursor it never wrote (or no longer keeps) with cursor_expired", async () => {
    const r = await call(client, "list_changes", { workspace: wsSlug, cursor: "999999" });
    expect(r.isError).toBe(true);
    expect(r.error.error).toBe("cursor_expired");
    const bad = await call(client, "list_changes", { workspace: wsSlug, cursor: "not-a-number" });
    expect(bad.isError).toBe(true);
  });

  it("shows outsiders of a public workspace its content changes only, with no ids of people; a private one not at all", async () => {
    const outsider = await connectClient(sc, (await makeToken(sc, await makeUser(sc, `outsider-${Date.now()}@example.com`))).credential);
    const hidden = await call(outsider, "list_changes", { workspace: wsSlug });
    expect(hidden.isError).toBe(true);
    expect(hidden.error.error).toBe("not_found");
    await setVisibility(sc.deps, { kind: "user", user: owner }, wsSlug, "public");
    const seen = await follow(outsider, 100);
    expect(seen.length).toBeGreaterThan(0);
    for (const c of seen) {
      expect(["page", "row", "collection", "workspace"]).toContain(c.target.kind);
      expect(c.actor.user_id).toBeNull();
      expect(c.actor.token_id).toBeNull();
    }
    expect(seen.some((c) => c.type === "workspace.created")).toBe(false);
    await outsider.close();
  });
});
