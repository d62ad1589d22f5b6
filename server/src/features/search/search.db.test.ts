import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awaitWritesSettled } from "@atelier/shared/domain/versioned-write";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let ana: Browser;
let bo: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

interface Results {
  workspaces: { slug: string; name: string }[];
  pages: { slug: string; title: string; workspace: string; workspace_name: string; snippet: { text: string; highlights: [number, number][] } }[];
  tables: { slug: string; name: string; workspace: string }[];
}

beforeAll(async () => {
  srv = await startTestServer({}, "search");
  ana = await signIn(srv, `${uniq("ana")}@example.com`);
  bo = await signIn(srv, `${uniq("bo")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

/** search.everything once the index has every write made so far (a page's text is indexed just after its writer's answer). */
async function search(who: Browser, query: string): Promise<Results> {
  await awaitWritesSettled();
  return trpcData<Results>(await who.query("search.everything", { query }));
}

describe("search.everything", () => {
  it("finds workspaces, pages and tables the person can read by title, slug or text, and nothing of anyone else's", async () => {
    const ws = uniq("garden");
    expect((await ana.mutation("workspaces.create", { slug: ws, name: "Garden club" })).status).toBe(200);
    const page = uniq("compost");
    await ana.mutation("pages.create", { slug: page, title: "Compost Guide", body_markdown: "turn weekly", workspace: ws });
    await ana.mutation("collections.create", {
      workspace: ws,
      slug: "seeds",
      name: "Seed compost trials",
      kind: "table",
      columns: [{ name: "name", type: "text" }],
    });
    const other = uniq("bo-ws");
    await bo.mutation("workspaces.create", { slug: other, name: "Bo's compost" });
    await bo.mutation("pages.create", { slug: uniq("bo-compost"), title: "Bo's compost notes", body_markdown: "x", workspace: other });
    // Public, but Bo's: the palette searches the workspaces a person belongs to.
    await bo.mutation("workspaces.setVisibility", { slug: other, visibility: "public" });

    const found = await search(ana, "COMPOST");
    expect(found.pages).toEqual([
      { slug: page, title: "Compost Guide", workspace: ws, workspace_name: "Garden club", snippet: { text: "turn weekly", highlights: [] } },
    ]);
    expect(found.tables).toEqual([expect.objectContaining({ slug: "seeds", name: "Seed compost trials", workspace: ws })]);
    expect(found.workspaces).toEqual([]);
    expect((await search(ana, "garden club")).workspaces).toEqual([{ slug: ws, name: "Garden club" }]);
    // Slugs match too, and so does the text of a page, with the words marked in its passage.
    expect((await search(ana, page.slice(0, 12))).pages.map((p) => p.slug)).toContain(page);
    expect((await search(ana, "turn weekly")).pages).toEqual([
      expect.objectContaining({
        slug: page,
        snippet: {
          text: "turn weekly",
          highlights: [
            [0, 4],
            [5, 11],
          ],
        },
      }),
    ]);
    expect(JSON.stringify(await search(ana, "bo"))).not.toContain("Bo's");

    // Once Ana is a member, Bo's workspace and page show up for her.
    await bo.mutation("workspaces.members.add", { slug: other, email: (await trpcData<{ email: string }>(await ana.query("me.get"))).email, role: "viewer" });
    const shared = await search(ana, "compost");
    expect(shared.pages.map((p) => p.title)).toEqual(expect.arrayContaining(["Compost Guide", "Bo's compost notes"]));
    expect(shared.workspaces.map((w) => w.slug)).toEqual([other]);
  });

  it("treats the query as plain text and returns a bounded number of each kind", async () => {
    const ws = uniq("many");
    await ana.mutation("workspaces.create", { slug: ws, name: "Many" });
    for (let i = 0; i < 11; i++) await ana.mutation("pages.create", { slug: uniq(`note-${i}`), title: `Meeting note ${i}`, body_markdown: "x", workspace: ws });
    await ana.mutation("pages.create", { slug: uniq("dotted"), title: "v1.2 release", body_markdown: "x", workspace: ws });
    const many = await search(ana, "meeting note");
    expect(many.pages).toHaveLength(8);
    expect((await search(ana, "v1.2")).pages.map((p) => p.title)).toEqual(["v1.2 release"]);
    expect((await search(ana, "v1x2")).pages).toEqual([]);
    expect((await search(ana, ".*")).pages).toEqual([]);
  });

  it("needs a session and a query of sensible length", async () => {
    expect((await new Browser(srv.url).query("search.everything", { query: "x" })).status).toBe(401);
    expect((await ana.query("search.everything", { query: "   " })).status).toBe(400);
    expect((await ana.query("search.everything", { query: "x".repeat(101) })).status).toBe(400);
  });
});
