// Pinned versions and machine views of pages (issue 26 items 3 and 4): `/a/{slug}@{n}` keeps
// serving version n after later edits, `.md`, `.json` and `Accept: text/markdown` answer with
// the right types, and nothing of a private page is ever given as a machine view.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";
import { PINNED_ARTIFACT_CACHE, PRIVATE_ARTIFACT_CACHE, PUBLIC_ARTIFACT_CACHE } from "./artifacts.routes";

let srv: TestServer;
let owner: Browser;
let nobody: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "machine");
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
  nobody = new Browser(srv.url);
});
afterAll(async () => {
  await srv.close();
});

async function workspace(visibility: "public" | "private"): Promise<string> {
  const slug = uniq("ws");
  await trpcData(await owner.mutation("workspaces.create", { slug, name: "Notes" }));
  if (visibility === "public") await trpcData(await owner.mutation("workspaces.setVisibility", { slug, visibility }));
  return slug;
}

/** A page at version 4, each version's body "Body of version n." */
async function pageWithVersions(ws: string): Promise<{ slug: string; id: string }> {
  const slug = uniq("page");
  const created = await trpcData<{ page_id: string }>(
    await owner.mutation("pages.create", { slug, title: "Release notes", body_markdown: "Body of version 1.", workspace: ws }),
  );
  for (let v = 2; v <= 4; v++) {
    await trpcData(await owner.mutation("pages.update", { slug, body_markdown: `Body of version ${v}.`, expected_version: v - 1 }));
  }
  return { slug, id: created.page_id };
}

describe("pinned versions", () => {
  it("serve version 3 with immutable cache headers after later edits, by slug and by id; an unkept version is a 404", async () => {
    const ws = await workspace("public");
    const { slug, id } = await pageWithVersions(ws);
    for (const path of [`/a/${slug}@3`, `/artifacts/${id}@3`]) {
      const res = await nobody.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe(PINNED_ARTIFACT_CACHE);
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox /);
      const html = await res.text();
      expect(html).toContain("Body of version 3.");
      expect(html).not.toContain("Body of version 4.");
      const etag = res.headers.get("etag") ?? "";
      expect((await nobody.request(path, { headers: { "if-none-match": etag } })).status).toBe(304);
    }
    await trpcData(await owner.mutation("pages.update", { slug, body_markdown: "Body of version 5.", expected_version: 4 }));
    expect(await (await nobody.request(`/a/${slug}@3`)).text()).toContain("Body of version 3.");
    // The current version by its number is the current document, pinned.
    expect(await (await nobody.request(`/a/${slug}@5`)).text()).toContain("Body of version 5.");
    for (const path of [`/a/${slug}@6`, `/a/${slug}@0`, `/a/${slug}@x`]) expect((await nobody.request(path)).status).toBe(404);
  });

  it("serve a private page's versions to its members only, never to be cached by others", async () => {
    const ws = await workspace("private");
    const { slug } = await pageWithVersions(ws);
    const mine = await owner.request(`/a/${slug}@2`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe(PRIVATE_ARTIFACT_CACHE);
    expect(await mine.text()).toContain("Body of version 2.");
    const theirs = await nobody.request(`/a/${slug}@2`);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain("Body of version 2.");
  });
});

describe("machine views", () => {
  it("answer .md with front matter, .json with get_page's output, and Markdown to Accept: text/markdown; the page links its Markdown", async () => {
    const ws = await workspace("public");
    const { slug } = await pageWithVersions(ws);

    const md = await nobody.request(`/a/${slug}.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("cache-control")).toBe(PUBLIC_ARTIFACT_CACHE);
    expect(md.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await md.text();
    const [front, rest] = [text.slice(0, text.indexOf("\n---\n") + 5), text.slice(text.indexOf("\n---\n") + 5)];
    expect(front.split("\n")).toEqual([
      "---",
      'title: "Release notes"',
      "version: 4",
      expect.stringMatching(/^updated: \d{4}-\d\d-\d\dT/),
      "author: person",
      `url: ${srv.config.BASE_URL}/a/${slug}@4`,
      "---",
      "",
    ]);
    expect(rest).toBe("Body of version 4.\n");

    const pinned = await (await nobody.request(`/a/${slug}@2.md`)).text();
    expect(pinned).toContain("version: 2\n");
    expect(pinned).toContain("---\nBody of version 2.\n");

    const json = await nobody.request(`/a/${slug}.json`);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const got = (await json.json()) as { page: { slug: string; version: number; parts: { body: string }[]; updated_by: { withheld: boolean } } };
    expect(got.page).toMatchObject({ slug, version: 4, parts: [{ body: "Body of version 4." }], updated_by: { withheld: true } });

    const negotiated = await nobody.request(`/a/${slug}`, { headers: { accept: "text/markdown" } });
    expect(negotiated.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(negotiated.headers.get("vary")).toBe("Accept");
    expect(await negotiated.text()).toContain("Body of version 4.");

    const html = await nobody.request(`/a/${slug}`, { headers: { accept: "text/html,*/*;q=0.8" } });
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(await html.text()).toContain(`<link rel="alternate" type="text/markdown" href="${srv.config.BASE_URL}/a/${slug}.md">`);
  });

  it("never give a private page as Markdown or JSON, even to its owner; Accept: text/markdown gets the owner the document", async () => {
    const ws = await workspace("private");
    const { slug, id } = await pageWithVersions(ws);
    for (const b of [owner, nobody]) {
      for (const path of [`/a/${slug}.md`, `/a/${slug}.json`, `/a/${slug}@2.md`, `/artifacts/${id}.json`]) {
        const res = await b.request(path);
        expect(res.status, path).toBe(404);
        expect(await res.text()).not.toContain("Body of version");
      }
    }
    const mine = await owner.request(`/a/${slug}`, { headers: { accept: "text/markdown" } });
    expect(mine.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(mine.headers.get("cache-control")).toBe(PRIVATE_ARTIFACT_CACHE);
    expect((await nobody.request(`/a/${slug}`, { headers: { accept: "text/markdown" } })).status).toBe(404);
  });
});

describe("llms.txt", () => {
  it("lists public workspaces and their pages as Markdown links, one file per public workspace, and nothing private", async () => {
    const open = await workspace("public");
    const closed = await workspace("private");
    const pub = await pageWithVersions(open);
    const priv = await pageWithVersions(closed);
    await trpcData(await owner.mutation("pages.update", { slug: priv.slug, title: "Secret plans", expected_version: 4 }));

    const all = await nobody.request("/llms.txt");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(all.headers.get("cache-control")).toBe(PUBLIC_ARTIFACT_CACHE);
    const text = await all.text();
    expect(text).toMatch(/^# Atelier\n\n> /);
    expect(text).toContain(`- [Release notes](${srv.config.BASE_URL}/a/${pub.slug}.md)`);
    expect(text).toContain(`(${srv.config.BASE_URL}/w/${open}/llms.txt)`);
    for (const secret of [priv.slug, closed, "Secret plans"]) expect(text).not.toContain(secret);

    const one = await nobody.request(`/w/${open}/llms.txt`);
    expect(one.status).toBe(200);
    expect(await one.text()).toContain(`- [Release notes](${srv.config.BASE_URL}/a/${pub.slug}.md)`);
    for (const b of [nobody, owner]) {
      const res = await b.request(`/w/${closed}/llms.txt`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(priv.slug);
    }
    expect((await nobody.request("/w/no-such-workspace-zz/llms.txt")).status).toBe(404);
  });
});

describe("tables as CSV and JSON", () => {
  async function table(ws: string): Promise<string> {
    const slug = uniq("tbl");
    await trpcData(
      await owner.mutation("collections.create", {
        workspace: ws,
        slug,
        name: "Prices, 2026",
        kind: "table",
        columns: [
          { name: "item", type: "text" },
          { name: "price", type: "number" },
          { name: "in_stock", type: "boolean" },
        ],
      }),
    );
    await trpcData(
      await owner.mutation("rows.insert", {
        workspace: ws,
        collection: slug,
        rows: [
          { item: 'Tea, "green"', price: 4.5, in_stock: true },
          { item: "Line\nbreak", price: 2 },
        ],
      }),
    );
    return slug;
  }

  it("serve a public table as RFC 4180 CSV and as list_rows JSON, listed in the workspace's llms.txt; a private table is a 404", async () => {
    const open = await workspace("public");
    const pub = await table(open);
    const csv = await nobody.request(`/w/${open}/tables/${pub}.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(csv.headers.get("cache-control")).toBe(PUBLIC_ARTIFACT_CACHE);
    expect(csv.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await csv.text()).toBe('item,price,in_stock\r\n"Tea, ""green""",4.5,true\r\n"Line\nbreak",2,\r\n');

    const json = await nobody.request(`/w/${open}/tables/${pub}.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = (await json.json()) as { table: { slug: string; row_count: number }; rows: { values: Record<string, unknown> }[]; next_cursor: null };
    expect(body.table).toMatchObject({ slug: pub, row_count: 2 });
    expect(body.rows.map((r) => r.values.item)).toEqual(['Tea, "green"', "Line\nbreak"]);
    expect(body.next_cursor).toBeNull();

    const llms = await (await nobody.request(`/w/${open}/llms.txt`)).text();
    expect(llms).toContain(`- [Prices, 2026](${srv.config.BASE_URL}/w/${open}/tables/${pub}.csv)`);

    const closed = await workspace("private");
    const priv = await table(closed);
    for (const b of [nobody, owner]) {
      for (const path of [
        `/w/${closed}/tables/${priv}.csv`,
        `/w/${closed}/tables/${priv}.json`,
        `/w/${open}/tables/no-such.csv`,
        `/w/${open}/tables/${pub}.xml`,
      ]) {
        const res = await b.request(path);
        expect(res.status, path).toBe(404);
        expect(await res.text()).not.toContain("Tea");
      }
    }
  });
});
