// Search over what pages say (issue 30 item 2), through the real MCP SDK client: search_pages
// ranks by relevance over titles, addresses and text with the matched passage; it sees only
// what the caller may read (an outsider, a removed member, a token confined to one workspace,
// an unclaimed sandbox's token, a private workspace named outright); updates, deletes (of a
// page, a table, a workspace) keep the index right; the backfill indexes pages stored
// without it. The index's own documents are checked where that is the observable effect.
import { addMemberByEmail, removeMember } from "@atelier/shared/domain/members";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { searchPages } from "@atelier/shared/domain/pages/search-pages";
import { registerAnonymous } from "@atelier/shared/domain/registrations";
import { BACKFILL_META, backfillSearchIndex, bandOf, forwardDocId, searchKey } from "@atelier/shared/domain/search-index";
import { bandDocId, headDocId, SEARCH_LAYOUT } from "@atelier/shared/domain/search-postings";
import { searchEverything } from "@atelier/shared/domain/search";
import { createCollection } from "@atelier/shared/domain/tables/create-collection";
import { deleteTable } from "@atelier/shared/domain/tables/delete-table";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import { createWorkspaceFor, deleteWorkspace } from "@atelier/shared/domain/workspaces";
import type { Principal } from "@atelier/shared/domain/access";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

interface Hit {
  slug: string;
  title: string;
  score: number;
  snippet: { text: string; highlights: [number, number][] };
}

/** search_pages once the index has every write made so far (a page's terms are indexed just after its writer's answer). */
async function search(client: Client, args: Record<string, unknown>): Promise<Hit[]> {
  await awaitWritesSettled();
  const r = await client.callTool({ name: "search_pages", arguments: args });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return (r.structuredContent as { pages: Hit[] }).pages;
}

const marked = (h: Hit | undefined) => (h ? h.snippet.highlights.map(([a, b]) => h.snippet.text.slice(a, b)) : null);

function must<T>(v: T | null | undefined): T {
  if (v === null || v === undefined) throw new Error("expected a value");
  return v;
}

beforeAll(async () => {
  sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_REG_PER_IP_PER_DAY: "1000" }, "search");
}, 120_000);
afterAll(async () => {
  await sc.close();
});

describe("search_pages", () => {
  it("ranks titles above passing mentions, matches words in any form, and quotes the passage with the words marked", async () => {
    const owner = await makeUser(sc, `${uniq("rank")}@example.com`);
    const me: Principal = { kind: "user", user: owner };
    const ws = uniq("orchard");
    await createWorkspaceFor(sc.deps, me, { slug: ws, name: "Orchard" });
    const filler = "The committee met on Tuesday and talked about the budget, the fence and the new shed. ".repeat(6);
    await createPage(sc.deps, me, {
      slug: uniq("pruning"),
      title: "Pruning apple trees",
      body_markdown: `Prune apple trees in late winter. ${filler}`,
      workspace: ws,
    });
    await createPage(sc.deps, me, {
      slug: uniq("minutes"),
      title: "Minutes",
      body_markdown: `${filler} Someone mentioned an apple once. ${filler}`,
      workspace: ws,
    });
    await createPage(sc.deps, me, {
      slug: uniq("cider"),
      title: "Cider",
      body_markdown: `Pressing **Äpfel**: the apples go in whole. ${filler}`,
      workspace: ws,
    });
    await createPage(sc.deps, me, { slug: uniq("fence"), title: "Fence", body_markdown: filler, workspace: ws });
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);

    const apple = await search(client, { query: "apple", workspace: ws });
    expect(apple.map((h) => h.title)).toEqual(["Pruning apple trees", "Cider", "Minutes"]);
    expect(must(apple[0]).score).toBeGreaterThan(must(apple[2]).score);
    // "apples" is indexed as "apple"; the Minutes' passage is the one sentence that says it.
    expect(marked(apple[1])).toEqual(["apples"]);
    expect(apple[2]?.snippet.text).toContain("Someone mentioned an apple once.");
    expect(marked(apple[2])).toEqual(["apple"]);
    // Case and accents do not matter; a page holding every word comes before one holding some.
    expect((await search(client, { query: "äpfel", workspace: ws })).map((h) => h.title)).toEqual(["Cider"]);
    expect((await search(client, { query: "APFEL", workspace: ws })).map((h) => h.title)).toEqual(["Cider"]);
    const two = await search(client, { query: "prune winter shed", workspace: ws });
    expect(two[0]?.title).toBe("Pruning apple trees");
    expect(two.map((h) => h.title)).toEqual(expect.arrayContaining(["Minutes", "Fence", "Cider"]));
    // Nothing for words no page has, or a query of stop words and punctuation only.
    expect(await search(client, { query: "zeppelin", workspace: ws })).toEqual([]);
    expect(await search(client, { query: "the .* and", workspace: ws })).toEqual([]);
    await client.close();
  }, 120_000);

  it("keeps the index right through updates, moves and deletes", async () => {
    const owner = await makeUser(sc, `${uniq("upd")}@example.com`);
    const ws = uniq("upd-ws");
    await createWorkspaceFor(sc.deps, { kind: "user", user: owner }, { slug: ws, name: "Updates" });
    const { credential } = await makeToken(sc, owner);
    const client = await connectClient(sc, credential);
    const slug = uniq("birds");
    await client.callTool({ name: "create_page", arguments: { slug, title: "Birds", body_markdown: "Saw two herons by the pond.", workspace: ws } });
    expect((await search(client, { query: "heron", workspace: ws })).map((h) => h.slug)).toEqual([slug]);

    await client.callTool({ name: "update_page", arguments: { slug, body_markdown: "Saw a kingfisher by the pond." } });
    expect(await search(client, { query: "heron", workspace: ws })).toEqual([]);
    expect((await search(client, { query: "kingfisher", workspace: ws })).map((h) => h.slug)).toEqual([slug]);
    expect((await search(client, { query: "pond", workspace: ws })).map((h) => h.slug)).toEqual([slug]);

    const moved = uniq("wader");
    const mv = await client.callTool({ name: "move_page", arguments: { slug, new_slug: moved } });
    expect(mv.isError, JSON.stringify(mv.content)).toBeFalsy();
    expect((await search(client, { query: "wader", workspace: ws })).map((h) => h.slug)).toEqual([moved]);

    const page = must(await sc.database.c.pages.findOne({ slug: moved }));
    const key = searchKey("page", page._id);
    // The posting sits in the band of its weight, which the term's head counts.
    const weight = must((await sc.database.c.searchDocs.findOne({ _id: forwardDocId(page.workspaceId, key) }))?.terms.kingfisher);
    const band = bandDocId(page.workspaceId, "kingfisher", bandOf(weight));
    expect(await sc.database.c.searchTerms.findOne({ _id: band })).toMatchObject({ p: { [key]: weight } });
    expect(await sc.database.c.searchTerms.findOne({ _id: headDocId(page.workspaceId, "kingfisher") })).toMatchObject({
      n: 1,
      c: { [`b${bandOf(weight)}`]: 1 },
    });
    await client.callTool({ name: "delete_page", arguments: { slug: moved } });
    expect(await search(client, { query: "kingfisher", workspace: ws })).toEqual([]);
    // Its postings and its forward document are gone, not only hidden.
    expect((await sc.database.c.searchTerms.findOne({ _id: band }))?.p).toEqual({});
    expect(await sc.database.c.searchTerms.findOne({ _id: headDocId(page.workspaceId, "kingfisher") })).toMatchObject({
      n: 0,
      c: { [`b${bandOf(weight)}`]: 0 },
    });
    expect(await sc.database.c.searchDocs.findOne({ _id: forwardDocId(page.workspaceId, key) })).toBeNull();
    await client.close();
  }, 120_000);

  it("sees only what the caller may read", async () => {
    const owner = await makeUser(sc, `${uniq("own")}@example.com`);
    const member = await makeUser(sc, `${uniq("mem")}@example.com`);
    const outsider = await makeUser(sc, `${uniq("out")}@example.com`);
    const me: Principal = { kind: "user", user: owner };
    const secret = uniq("private");
    const other = uniq("second");
    await createWorkspaceFor(sc.deps, me, { slug: secret, name: "Private" });
    await createWorkspaceFor(sc.deps, me, { slug: other, name: "Second" });
    await createPage(sc.deps, me, { slug: uniq("plan"), title: "Plan", body_markdown: "The quokka migration plan.", workspace: secret });
    await createPage(sc.deps, me, { slug: uniq("other-plan"), title: "Other", body_markdown: "A quokka elsewhere.", workspace: other });
    await addMemberByEmail(sc.deps, me, { workspace: secret, email: member.email, role: "viewer" });

    const outsiderClient = await connectClient(sc, (await makeToken(sc, outsider)).credential);
    expect(await search(outsiderClient, { query: "quokka" })).toEqual([]);
    // Naming the private workspace is refused as if it did not exist.
    const named = await outsiderClient.callTool({ name: "search_pages", arguments: { query: "quokka", workspace: secret } });
    expect(named.isError).toBe(true);
    expect(JSON.stringify(named.content)).toContain("not_found");

    const memberClient = await connectClient(sc, (await makeToken(sc, member)).credential);
    expect((await search(memberClient, { query: "quokka" })).map((h) => h.title)).toEqual(["Plan"]);
    await removeMember(sc.deps, me, { workspace: secret, userId: member._id });
    expect(await search(memberClient, { query: "quokka" })).toEqual([]);

    // A token confined to one workspace finds nothing in the owner's others.
    const confined = await connectClient(sc, (await makeToken(sc, owner, { workspaces: [other] })).credential);
    expect((await search(confined, { query: "quokka" })).map((h) => h.title)).toEqual(["Other"]);
    const ownerClient = await connectClient(sc, (await makeToken(sc, owner)).credential);
    expect((await search(ownerClient, { query: "quokka" })).map((h) => h.title).sort()).toEqual(["Other", "Plan"]);

    // An unclaimed sandbox's token: its own sandbox only.
    const reg = await registerAnonymous(sc.deps, { agentLabel: "Searcher", requesterIp: `10.9.0.${Math.floor(Math.random() * 250)}` });
    const bot = await connectClient(sc, reg.credential);
    await bot.callTool({ name: "create_page", arguments: { slug: uniq("sandboxed"), title: "Sandbox", body_markdown: "My own quokka notes." } });
    expect((await search(bot, { query: "quokka" })).map((h) => h.title)).toEqual(["Sandbox"]);
    expect((await search(ownerClient, { query: "quokka" })).map((h) => h.title)).not.toContain("Sandbox");
    for (const c of [outsiderClient, memberClient, confined, ownerClient, bot]) await c.close();
  }, 120_000);

  it("⌘K's search finds tables by name and pages by a half-typed title word, and forgets a deleted table and workspace", async () => {
    const owner = await makeUser(sc, `${uniq("k")}@example.com`);
    const me: Principal = { kind: "user", user: owner };
    const ws = uniq("kws");
    await createWorkspaceFor(sc.deps, me, { slug: ws, name: "K" });
    await createCollection(sc.deps, me, { workspace: ws, slug: "harvests", name: "Harvest ledger", kind: "table", columns: [{ name: "n", type: "text" }] });
    await createPage(sc.deps, me, { slug: uniq("almanac"), title: "Almanac", body_markdown: "When to sow parsnips.", workspace: ws });
    await awaitWritesSettled();
    const typed = await searchEverything(sc.deps, me, { query: "alman" });
    expect(typed.pages.map((p) => p.title)).toEqual(["Almanac"]);
    const body = await searchEverything(sc.deps, me, { query: "parsnips" });
    expect(body.pages).toEqual([expect.objectContaining({ title: "Almanac", snippet: { text: "When to sow parsnips.", highlights: [[12, 20]] } })]);
    expect((await searchEverything(sc.deps, me, { query: "ledger" })).tables.map((t) => t.name)).toEqual(["Harvest ledger"]);
    await deleteTable(sc.deps, me, { workspace: ws, collection: "harvests" });
    expect((await searchEverything(sc.deps, me, { query: "ledger" })).tables).toEqual([]);
    const wsDoc = must(await sc.database.c.workspaces.findOne({ slug: ws }));
    await deleteWorkspace(sc.deps, me, { slug: ws, confirm: ws });
    expect(await sc.database.c.searchTerms.countDocuments({ workspaceId: wsDoc._id })).toBe(0);
    expect(await sc.database.c.searchDocs.countDocuments({ workspaceId: wsDoc._id })).toBe(0);
  }, 120_000);

  it("backfills pages stored before the index, once", async () => {
    const owner = await makeUser(sc, `${uniq("bf")}@example.com`);
    const me: Principal = { kind: "user", user: owner };
    const ws = uniq("bf-ws");
    await createWorkspaceFor(sc.deps, me, { slug: ws, name: "Old" });
    const slug = uniq("old");
    await createPage(sc.deps, me, { slug, title: "Old page", body_markdown: "A narwhal from before the index.", workspace: ws });
    await awaitWritesSettled();
    // As if stored before the index existed: its postings and forward document removed.
    const page = must(await sc.database.c.pages.findOne({ slug }));
    await sc.database.c.searchTerms.deleteMany({ workspaceId: page.workspaceId });
    await sc.database.c.searchDocs.deleteMany({ workspaceId: page.workspaceId });
    await sc.database.c.meta.deleteOne({ _id: BACKFILL_META });
    const client = await connectClient(sc, (await makeToken(sc, owner)).credential);
    expect(await search(client, { query: "narwhal" })).toEqual([]);
    expect(await backfillSearchIndex(sc.deps)).toBeGreaterThan(0);
    expect((await search(client, { query: "narwhal" })).map((h) => h.slug)).toEqual([slug]);
    // Done: a second pass does nothing.
    expect(await backfillSearchIndex(sc.deps)).toBeNull();
    await client.close();
  }, 120_000);

  it("moves an index of layout 1 (one postings document per term) to layout 2 in the backfill", async () => {
    const owner = await makeUser(sc, `${uniq("l1")}@example.com`);
    const me: Principal = { kind: "user", user: owner };
    const ws = uniq("l1-ws");
    await createWorkspaceFor(sc.deps, me, { slug: ws, name: "Layout one" });
    const slug = uniq("l1");
    await createPage(sc.deps, me, { slug, title: "Layout one", body_markdown: "An axolotl indexed the old way.", workspace: ws });
    // The page's own indexing runs after the answer; let it finish before rewriting the index by hand.
    await awaitWritesSettled();
    const page = must(await sc.database.c.pages.findOne({ slug }));
    // As layout 1 left it: one document per term with every posting, forward documents without `v`.
    await sc.database.c.searchTerms.deleteMany({ workspaceId: page.workspaceId });
    const oldKey = "kOLDHASHKEY1";
    await sc.database.c.searchTerms.insertOne({ _id: `${page.workspaceId}:axolotl`, workspaceId: page.workspaceId, term: "axolotl", p: { [oldKey]: 100 } });
    await sc.database.c.searchDocs.deleteMany({ workspaceId: page.workspaceId });
    await sc.database.c.searchDocs.insertOne({
      _id: forwardDocId(page.workspaceId, searchKey("page", page._id)),
      workspaceId: page.workspaceId,
      kind: "page",
      targetId: page._id,
      version: page.version,
      terms: { axolotl: 100 },
    });
    await sc.database.c.meta.deleteOne({ _id: BACKFILL_META });
    expect(await backfillSearchIndex(sc.deps)).toBeGreaterThan(0);
    expect(await sc.database.c.searchTerms.findOne({ _id: `${page.workspaceId}:axolotl` })).toBeNull();
    expect(await sc.database.c.searchDocs.findOne({ _id: forwardDocId(page.workspaceId, searchKey("page", page._id)) })).toMatchObject({ v: SEARCH_LAYOUT });
    const found = await searchPages(sc.deps, me, { query: "axolotl", workspace: ws });
    expect(found.pages.map((p) => p.slug)).toEqual([slug]);
  }, 120_000);
});
