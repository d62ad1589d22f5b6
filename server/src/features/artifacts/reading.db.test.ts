// Reading pages and tables (issue 17 items 6 and 8), through HTTP: the published document
// prints its title once and highlights code without scripts; the app's embedded form adds
// only our sizing script, under the same sandbox; a published table lines numbers up and
// keeps dates whole; a table shows once per page; a text filter matches substrings.
import { RENDERER_VERSION } from "@atelier/shared/domain/render";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let ws = "";
beforeAll(async () => {
  srv = await startTestServer({}, "readingsrv");
  owner = await signIn(srv, `reading-${Date.now()}@example.com`);
  ws = (await trpcData<{ defaultWorkspace: string }>(await owner.query("me.get"))).defaultWorkspace;
  await trpcData(
    await owner.mutation("collections.create", {
      workspace: ws,
      slug: "tasks",
      name: "Tasks",
      kind: "table",
      columns: [
        { name: "title", type: "text", required: true },
        { name: "cost", type: "number" },
        { name: "due", type: "date" },
        { name: "status", type: "select", options: ["todo", "doing", "done"] },
      ],
    }),
  );
  await trpcData(
    await owner.mutation("rows.insert", {
      workspace: ws,
      collection: "tasks",
      rows: [
        { title: "Write the Release notes", cost: 1250.5, due: "2026-11-21", status: "done" },
        { title: "Price check (a.b)", cost: 3, due: "2026-12-01T09:30:00.000Z", status: "todo" },
        { title: "Plan", cost: null, due: null, status: null },
      ],
    }),
  );
});
afterAll(async () => {
  await srv.close();
});

interface TrpcError {
  error: { data: { appCode: string; issues: { path: string; code: string }[] | null } };
}

describe("the published page", () => {
  it("prints the title once, keeps alignment and highlights code, with no script; the app's embed adds only its own", async () => {
    const body = "# Cost plan\n\n| Item | Cost |\n|:--|--:|\n| Paper | 12.50 |\n\n```python\ndef total(): return 1\n```\n";
    await trpcData(await owner.mutation("pages.create", { slug: "cost-plan", title: "Cost plan", body_markdown: body, tables: [{ collection: "tasks" }] }));
    const res = await owner.request("/a/cost-plan");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toContain('<td align="right">12.50</td>');
    expect(html).toContain('<code class="hljs language-python"><span class="hljs-keyword">def</span> <span class="hljs-title function_">total</span>');
    // The one script is the live table's sorter (issue 27): nothing else runs on a published page.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('d.querySelectorAll("figure.atelier-table")');

    // The live table: numbers right-aligned and formatted, dates whole and readable, choices toned.
    expect(html).toContain('<th scope="col" class="num">cost</th><th scope="col" class="date">due</th>');
    expect(html).toContain(
      '<figure class="atelier-table"><figcaption>Tasks</figcaption><div class="atelier-scroll" tabindex="0" role="group" aria-label="Tasks"><table>',
    );
    expect(html).toContain('<td class="num">1,250.5</td><td class="date"><time datetime="2026-11-21">21 Nov 2026</time></td>');
    expect(html).toContain('<time datetime="2026-12-01T09:30:00.000Z">1 Dec 2026, 09:30 UTC</time>');
    expect(html).toContain('<span class="atelier-choice" data-tone="ok">done</span>');

    const embedded = await owner.request("/a/cost-plan?embed=1");
    expect(embedded.status).toBe(200);
    expect(embedded.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts/);
    expect(embedded.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    const text = await embedded.text();
    expect(text.match(/<script>/g)).toHaveLength(2);
    expect(text).toContain("atelier:height");
    // The embedded form adds the sizing script and hides the header the app prints itself.
    expect(
      text.replace(/<script>\(function\(\)\{\nif\(window\.parent[\s\S]*?<\/script>/, "").replace("<style>header.atelier-head{display:none}</style>", ""),
    ).toBe(html);
  });

  it("gives the embedded form of a public page its own ETag, honoured on revalidation", async () => {
    await trpcData(await owner.mutation("pages.create", { slug: "open-notes", title: "Open notes", body_markdown: "Hello" }));
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    try {
      const visitor = new Browser(srv.url);
      // Identity: the copy compressed for a client that takes gzip carries the same tag, weak.
      const plain = await visitor.request("/a/open-notes", { headers: { "accept-encoding": "identity" } });
      const embed = await visitor.request("/a/open-notes?embed=1");
      const plainTag = plain.headers.get("etag") ?? "";
      const embedTag = embed.headers.get("etag") ?? "";
      expect(plainTag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(embedTag).toBe(`${plainTag.slice(0, -1)}-embed"`);
      expect((await visitor.request("/a/open-notes?embed=1", { headers: { "if-none-match": embedTag } })).status).toBe(304);
      // The plain document's tag does not validate the embedded one, nor the other way round.
      expect((await visitor.request("/a/open-notes?embed=1", { headers: { "if-none-match": plainTag } })).status).toBe(200);
      expect((await visitor.request("/a/open-notes", { headers: { "if-none-match": embedTag } })).status).toBe(200);
    } finally {
      await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "private" });
    }
  });
});

describe("reading, third pass (issue 27)", () => {
  it("answers a missing or private page with the branded not-found page, whose sign-in comes back to it", async () => {
    const visitor = new Browser(srv.url);
    await trpcData(await owner.mutation("pages.create", { slug: "members-only", title: "Members only", body_markdown: "Secret" }));
    for (const path of ["/a/members-only", "/a/never-written"]) {
      const res = await visitor.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts/);
      const text = await res.text();
      expect(text).toContain("<h1>This page isn’t here</h1>");
      expect(text).toContain(`href="/app/sign-in?next=${encodeURIComponent(path)}"`);
      expect(text).toContain("prefers-color-scheme:dark");
      expect(text).not.toContain("Secret");
    }
    // The same page for both: a private page is not told apart from a missing one.
    const a = await (await visitor.request("/a/members-only")).text();
    const b = await (await visitor.request("/a/never-written")).text();
    expect(a.replace("members-only", "X")).toBe(b.replace("never-written", "X"));
    // An address that is not a page's gets the page without a way back; a dead share link, no sign-in at all.
    expect(await (await visitor.request("/a/NOT_A_SLUG")).text()).toContain('href="/app/sign-in"');
    const link = await visitor.request(`/s/${"x".repeat(32)}`);
    expect(link.status).toBe(404);
    expect(await link.text()).not.toContain("sign-in");
  });

  it("renders a document made by an older renderer again when it is read, counting the bytes it grew by", async () => {
    const body = "# Old look\n\n- [x] done\n\n```\ncode\n```";
    await trpcData(await owner.mutation("pages.create", { slug: "old-look", title: "Old look", body_markdown: body }));
    const { artifacts, workspaces, pages } = srv.database.c;
    // A read refreshes only a finished version: the page's search index (just after the answer) clears its mark.
    await expect.poll(async () => (await pages.findOne({ slug: "old-look" }))?.revisionPending).toBe(false);
    const fresh = await artifacts.findOne({ _id: "old-look" });
    expect(fresh?.renderer).toBe(RENDERER_VERSION);
    // As stored before issue 27: another document, no renderer recorded.
    const old = "<!doctype html><title>Old look</title><h1>Old look</h1><h1>Old look</h1>";
    await artifacts.updateOne({ _id: "old-look" }, { $set: { html: old, etag: '"old"', bytes: old.length }, $unset: { renderer: "" } });
    const wsDoc = await workspaces.findOne({ slug: ws });
    const usageBefore = wsDoc?.usage.bytes ?? 0;
    srv.deps.cache.clear();

    // This read gets what is stored; the next ones the document made again.
    expect(await (await owner.request("/a/old-look")).text()).toBe(old);
    await expect.poll(async () => (await artifacts.findOne({ _id: "old-look" }))?.renderer, { timeout: 5000 }).toBe(RENDERER_VERSION);
    srv.deps.cache.clear();
    const now = await (await owner.request("/a/old-look")).text();
    expect(now).toBe(fresh?.html);
    expect(now.match(/<h1[\s>]/g)).toHaveLength(1);
    const usageAfter = (await workspaces.findOne({ slug: ws }))?.usage.bytes ?? 0;
    expect(usageAfter - usageBefore).toBe(Buffer.byteLength(fresh?.html ?? "") - Buffer.byteLength(old));
  });
});

describe("a table once per page", () => {
  it("refuses a second view of the same table on create and on update, writing nothing", async () => {
    const dup = await owner.mutation("pages.create", {
      slug: "twice",
      title: "Twice",
      body_markdown: "x",
      tables: [{ collection: "tasks" }, { collection: "tasks", limit: 2 }],
    });
    expect(dup.status).toBe(400);
    const refused = (await dup.json()) as TrpcError;
    expect(refused.error.data.appCode).toBe("invalid_request");
    expect(refused.error.data.issues).toEqual([expect.objectContaining({ path: "tables.1.collection", code: "duplicate" })]);
    expect((await owner.query("pages.get", { slug: "twice" })).status).toBe(404);

    await trpcData(await owner.mutation("pages.create", { slug: "once", title: "Once", body_markdown: "x", tables: [{ collection: "tasks" }] }));
    const upd = await owner.mutation("pages.update", { slug: "once", tables: [{ collection: "tasks" }, { collection: "tasks" }] });
    expect(upd.status).toBe(400);
    const page = await trpcData<{ version: number; parts: { kind: string }[] }>(await owner.query("pages.get", { slug: "once" }));
    expect(page.version).toBe(1);
    expect(page.parts.filter((p) => p.kind === "table_view")).toHaveLength(1);
  });
});

describe("the text filter", () => {
  const titles = async (filter: unknown) =>
    (await trpcData<{ rows: { values: { title: string } }[] }>(await owner.query("rows.list", { workspace: ws, collection: "tasks", filter }))).rows.map(
      (r) => r.values.title,
    );

  it("matches a substring in any case, taking its characters literally", async () => {
    expect(await titles({ title: { contains: "release" } })).toEqual(["Write the Release notes"]);
    expect(await titles({ title: { contains: "E" } })).toEqual(["Write the Release notes", "Price check (a.b)"]);
    expect(await titles({ title: { contains: "(a.b)" } })).toEqual(["Price check (a.b)"]);
    expect(await titles({ title: { contains: "a.c" } })).toEqual([]);
    expect(await titles({ title: { contains: ".*" } })).toEqual([]);
    expect(await titles({ status: { contains: "DO" } })).toEqual(["Write the Release notes", "Price check (a.b)"]);
    // Equality still means the whole value.
    expect(await titles({ title: "Plan" })).toEqual(["Plan"]);
  });

  it("refuses contains on a number or date column, and an empty one", async () => {
    const number = await owner.query("rows.list", { workspace: ws, collection: "tasks", filter: { cost: { contains: "1" } } });
    expect(number.status).toBe(400);
    expect(((await number.json()) as TrpcError).error.data.issues).toEqual([expect.objectContaining({ path: "filter.cost.contains", code: "not_allowed" })]);
    expect((await owner.query("rows.list", { workspace: ws, collection: "tasks", filter: { title: { contains: "" } } })).status).toBe(400);
  });
});
