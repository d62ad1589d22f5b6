// Reading figures through the real MCP client (issue 32): get_page and resources/read count a
// read under the agent's token, anonymous callers are not counted, and get_page_stats shows
// the figures to the workspace's owner's agents, never to another person's agent.
import type { UserDoc } from "@atelier/shared/db";
import { setVisibility } from "@atelier/shared/domain/workspaces";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let agent: Client;
let tokenId = "";
let slug = "";
let wsSlug = "";

async function call<T>(c: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: T; text: string }> {
  const r = await c.callTool({ name, arguments: args });
  return { isError: r.isError === true, data: r.structuredContent as T, text: (r.content as { text: string }[])[0]?.text ?? "" };
}

interface Stats {
  stats: { totals: { views: number; agent_reads: number }; agents: { agent: string; label: string; reads: number }[]; days: unknown[] };
}

beforeAll(async () => {
  sc = await startTestSidecar({}, "pagestats");
  owner = await makeUser(sc, `stats-${Date.now()}@example.com`);
  const t = await makeToken(sc, owner, { label: "Report reader" });
  tokenId = t.tokenId;
  agent = await connectClient(sc, t.credential);
  slug = `stats-${Date.now().toString(36)}`;
  expect((await call(agent, "create_page", { slug, title: "Stats", body_markdown: "Figures." })).isError).toBe(false);
  wsSlug = (await sc.database.c.workspaces.findOne({ "members.userId": owner._id }))?.slug ?? "";
}, 120_000);
afterAll(async () => {
  await agent.close();
  await sc.close();
});

describe("agent reads", () => {
  it("counts get_page and resources/read by token, not anonymous reads, and get_page_stats shows them by agent", { timeout: 120_000 }, async () => {
    expect((await call(agent, "get_page", { slug })).isError).toBe(false);
    expect((await call(agent, "get_page", { slug, version: 1 })).isError).toBe(false);
    await agent.readResource({ uri: `artifact://${slug}` });
    const ws = await sc.database.c.workspaces.findOne({ slug: wsSlug });
    if (!ws) throw new Error("no workspace");
    await setVisibility(sc.deps, { kind: "user", user: owner }, wsSlug, "public");
    const anonymous = await connectClient(sc);
    expect((await call(anonymous, "get_page", { slug })).isError).toBe(false);
    await anonymous.close();
    await sc.views.flush();
    const r = await call<Stats>(agent, "get_page_stats", { slug });
    expect(r.isError).toBe(false);
    expect(r.data.stats.totals).toMatchObject({ views: 0, agent_reads: 3 });
    expect(r.data.stats.agents).toEqual([{ agent: `t:${tokenId}`, label: "Report reader", reads: 3 }]);
    expect(r.data.stats.days).toHaveLength(30);
  });

  it("refuses another person's agent (a reader of the public workspace) and bad input", { timeout: 120_000 }, async () => {
    const stranger = await makeUser(sc, `stranger-${Date.now()}@example.com`);
    const other = await connectClient(sc, (await makeToken(sc, stranger, { scopes: ["mcp:read"] })).credential);
    const refused = await call(other, "get_page_stats", { slug });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("forbidden");
    const bad = await call(agent, "get_page_stats", { slug: "Not A Slug" });
    expect(bad.isError).toBe(true);
    await other.close();
  });
});
