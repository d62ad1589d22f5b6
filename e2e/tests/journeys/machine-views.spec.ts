// Machine views through the shipped nginx (issue 26, "Done when"): `/a/{slug}@3` keeps
// serving version 3 after an agent's later edit and is served from the micro-cache; `.md`,
// `.json`, a table's `.csv` and `.json`, and `llms.txt` answer with the right types and only
// public content; a private workspace's views are 404s there too.
import { expect, test } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { appApi } from "../support/app-api";
import { signInInBrowser } from "../support/browser";
import { callTool, mcpClient } from "../support/mcp";
import { stack, withinCacheBound } from "../support/stack";

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.baseUrl}${path}`, { headers, signal: AbortSignal.timeout(15_000) });

test("pinned versions, Markdown, JSON, CSV and llms.txt through nginx: public content only", async ({ page }) => {
  test.setTimeout(180_000);
  const ws = uniqueSlug("open-notes");
  const closedWs = uniqueSlug("closed-notes");
  const slug = uniqueSlug("release-notes");
  const hidden = uniqueSlug("plans");
  let credential = "";

  await test.step("a public page at version 3, a table, and a private page beside them", async () => {
    await signInInBrowser(page, uniqueEmail("machine"));
    const api = appApi(page);
    await api.mutation("workspaces.create", { slug: ws, name: "Open notes" });
    await api.mutation("pages.create", { workspace: ws, slug, title: "Release notes", body_markdown: "Version one." });
    await api.mutation("pages.update", { slug, body_markdown: "Version two.", expected_version: 1 });
    await api.mutation("pages.update", { slug, body_markdown: "Version three.", expected_version: 2 });
    await api.mutation("collections.create", { workspace: ws, slug: "prices", name: "Prices", kind: "table", columns: [{ name: "item", type: "text" }] });
    await api.mutation("rows.insert", { workspace: ws, collection: "prices", rows: [{ item: "Tea" }] });
    await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    await api.mutation("workspaces.create", { slug: closedWs, name: "Closed notes" });
    await api.mutation("pages.create", { workspace: closedWs, slug: hidden, title: "Secret plans", body_markdown: "Not for you." });
    await api.mutation("collections.create", { workspace: closedWs, slug: "costs", name: "Costs", kind: "table", columns: [{ name: "item", type: "text" }] });
    credential = (await api.mutation<{ credential: string }>("tokens.create", { label: "Release bot", scopes: ["mcp:read", "mcp:write"] })).credential;
  });

  await test.step("version 3 pinned: immutable, from the micro-cache on the second read", async () => {
    const first = await get(`/a/${slug}@3`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toContain("immutable");
    expect(await first.text()).toContain("Version three.");
    await expect.poll(async () => (await get(`/a/${slug}@3`)).headers.get("x-cache-status")).toBe("HIT");
  });

  await test.step("an agent's edit makes version 4; @3 still serves version 3, the Markdown view shows 4", async () => {
    const client = await mcpClient(credential);
    try {
      const edited = await callTool(client, "edit_page", { slug, expected_version: 3, edits: [{ op: "replace", find: "three", replace: "four" }] });
      expect(edited.version).toBe(4);
    } finally {
      await client.close();
    }
    expect(await (await get(`/a/${slug}@3`)).text()).toContain("Version three.");
    await withinCacheBound("the .md view shows version 4", async () => (await (await get(`/a/${slug}.md`)).text()).includes("Version four."), 3000);
    const md = await get(`/a/${slug}.md`);
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown; charset=utf-8/);
    expect(await md.text()).toMatch(/^---\n[\s\S]*title: "Release notes"[\s\S]*---\n/);
    const byAccept = await get(`/a/${slug}`, { accept: "text/markdown" });
    expect(byAccept.headers.get("content-type")).toMatch(/^text\/markdown/);
    const json = await get(`/a/${slug}.json`);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(((await json.json()) as { page: { slug: string } }).page.slug).toBe(slug);
  });

  await test.step("the table as CSV and JSON, and llms.txt listing the page and the table", async () => {
    const csv = await get(`/w/${ws}/tables/prices.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(await csv.text()).toBe("item\r\nTea\r\n");
    await expect.poll(async () => (await get(`/w/${ws}/tables/prices.csv`)).headers.get("x-cache-status")).toBe("HIT");
    const json = await get(`/w/${ws}/tables/prices.json`);
    expect(((await json.json()) as { rows: { values: { item: string } }[] }).rows.map((r) => r.values.item)).toEqual(["Tea"]);
    const llms = await (await get(`/w/${ws}/llms.txt`)).text();
    expect(llms).toContain(`/a/${slug}.md`);
    expect(llms).toContain(`/w/${ws}/tables/prices.csv`);
    const all = await (await get("/llms.txt")).text();
    expect(all).toContain(`/a/${slug}.md`);
    for (const secret of [hidden, closedWs, "Secret plans"]) expect(all).not.toContain(secret);
  });

  await test.step("the MCP server card and the tools' icons, through nginx", async () => {
    const card = await get("/mcp/server-card", { accept: "application/mcp-server-card+json" });
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("application/mcp-server-card+json; charset=utf-8");
    const body = (await card.json()) as { remotes: { url: string }[]; icons: { src: string }[] };
    expect(body.remotes[0]?.url).toMatch(/\/mcp$/);
    const client = await mcpClient();
    try {
      const { tools } = await client.listTools();
      const pictures = new Set([...tools.flatMap((t) => (t.icons ?? []).map((i) => i.src)), ...body.icons.map((i) => i.src)]);
      expect(pictures.size).toBeGreaterThan(3);
      for (const src of pictures) {
        const res = await get(new URL(src).pathname);
        expect(res.status, src).toBe(200);
        expect(res.headers.get("content-type"), src).toMatch(/^image\/svg\+xml/);
      }
    } finally {
      await client.close();
    }
  });

  await test.step("nothing private: every view of the private workspace is a 404 through nginx", async () => {
    for (const path of [
      `/a/${hidden}.md`,
      `/a/${hidden}.json`,
      `/a/${hidden}@1`,
      `/w/${closedWs}/llms.txt`,
      `/w/${closedWs}/tables/costs.csv`,
      `/w/${closedWs}/tables/costs.json`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain("Not for you.");
    }
  });
});
