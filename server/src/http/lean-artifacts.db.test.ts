import { createServer, get as httpGet, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import { listen } from "@atelier/shared/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../testing";

// The lean path answers public pages from the read cache before Express; the full route
// answers everything else. Both must give a reader exactly the same answer.
let srv: TestServer;
let plain: Awaited<ReturnType<typeof listen>>;
let owner: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({ CACHE_TTL_MS: "60000" }, "lean");
  // The same deps (and cache) behind Express alone, for comparison.
  const app = createApp(srv.deps);
  plain = await listen({ listen: (port, host, cb) => createServer(app).listen(port, host, cb) });
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await plain.close();
  await srv.close();
});

/** A GET whose body is read as it arrives (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

function answer(res: Response) {
  const headers = Object.fromEntries([...res.headers].filter(([k]) => k !== "date"));
  return { status: res.status, headers };
}

async function publicPage(): Promise<string> {
  const ws = (await trpcData<{ defaultWorkspace: string }>(await owner.query("me.get"))).defaultWorkspace;
  const slug = uniq("lean");
  expect((await owner.mutation("pages.create", { slug, title: "Lean", body_markdown: "# Fast\n\nÜnïcödé bytes — counted right.", workspace: ws })).status).toBe(
    200,
  );
  expect((await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" })).status).toBe(200);
  return slug;
}

describe("the lean read path for /a/{slug}", () => {
  it("answers a cached public page with exactly the full route's status, headers, CSP and bytes (GET, HEAD, 304)", async () => {
    const slug = await publicPage();
    // This process follows the change feed and drops cache entries that the page's own
    // creation and publishing make stale; let it read those signals first, or one could
    // arrive mid-test and empty the cache the cases below read from (poll() reads after the
    // call, past any read that began before the writes).
    await srv.deps.follower?.poll();
    const nobody = new Browser(srv.url);
    const first = await nobody.request(`/a/${slug}`); // a miss: the full route fills the cache
    expect(first.status).toBe(200);
    // The document's own tag (the copy compressed for a client that takes gzip, as fetch does, carries it weak).
    const etag = (first.headers.get("etag") ?? "").replace(/^W\//, "");
    const cases: [string, RequestInit][] = [
      ["GET", {}],
      ["HEAD", { method: "HEAD" }],
      ["304", { headers: { "if-none-match": etag } }],
      ["304 among others", { headers: { "if-none-match": `"nope", W/${etag}` } }],
      ["200 for another tag", { headers: { "if-none-match": '"nope"' } }],
      // A client that takes gzip gets the document compressed (the same bytes once decompressed).
      ["gzip", { headers: { "accept-encoding": "gzip, deflate, br" } }],
      ["gzip HEAD", { method: "HEAD", headers: { "accept-encoding": "gzip" } }],
      ["gzip 304", { headers: { "accept-encoding": "gzip", "if-none-match": `W/${etag}` } }],
      ["gzip refused (q=0)", { headers: { "accept-encoding": "gzip;q=0, deflate" } }],
    ];
    for (const [what, init] of cases) {
      const before = srv.lean.served;
      const lean = await fetch(`${srv.url}/a/${slug}`, init);
      expect(srv.lean.served, `${what} took the lean path`).toBe(before + 1);
      const full = await fetch(`${plain.url}/a/${slug}`, init);
      expect(srv.lean.served).toBe(before + 1);
      expect(answer(lean), what).toEqual(answer(full));
      expect(Buffer.from(await lean.arrayBuffer()).equals(Buffer.from(await full.arrayBuffer())), what).toBe(true);
    }
    // fetch takes gzip unless told otherwise.
    const lean = await fetch(`${srv.url}/a/${slug}`, { headers: { "accept-encoding": "identity" } });
    expect(answer(lean).headers).toMatchObject({
      "content-type": "text/html; charset=utf-8",
      "cache-control": "public, max-age=0, s-maxage=1, stale-while-revalidate=1",
      etag,
      "content-length": String(Buffer.byteLength(await first.text())),
    });
    expect(await lean.text()).toContain("Ünïcödé bytes — counted right.");
    // Compressed for a client that takes gzip: fetch decompresses, so read the raw bytes through node:http.
    const raw = await rawGet(`${srv.url}/a/${slug}`, { "accept-encoding": "gzip" });
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(raw.headers.etag).toBe(`W/${etag}`);
    expect(raw.headers.vary).toBe("Accept, Accept-Encoding");
    expect(gunzipSync(raw.body).toString("utf8")).toBe(await (await fetch(`${srv.url}/a/${slug}`, { headers: { "accept-encoding": "identity" } })).text());
    expect(srv.logLines.some((l) => l.includes('"lean-') && l.includes(`/a/${slug}`) && l.includes('"statusCode":200'))).toBe(true);
  });

  it("leaves everything else to the full route: query strings, private pages, other methods, unknown slugs", async () => {
    const slug = await publicPage();
    await fetch(`${srv.url}/a/${slug}`); // cached
    const before = srv.lean.served;
    expect((await fetch(`${srv.url}/a/${slug}?embed=1`)).headers.get("etag")).toMatch(/-embed"$/);
    expect((await fetch(`${srv.url}/a/${slug}`, { method: "POST", headers: { origin: srv.url } })).status).toBe(404);
    expect((await fetch(`${srv.url}/a/no-such-page-${n}`)).status).toBe(404);
    expect((await fetch(`${srv.url}/a/Not_A_Slug`)).status).toBe(404);
    expect(srv.lean.served).toBe(before);

    // Made private: this process dropped its entry at once, so the lean path has nothing.
    const ws = (await trpcData<{ defaultWorkspace: string }>(await owner.query("me.get"))).defaultWorkspace;
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "private" });
    const res = await fetch(`${srv.url}/a/${slug}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(srv.lean.served).toBe(before);
    expect((await owner.request(`/a/${slug}`)).headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("views on the lean path (reading figures)", () => {
  const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
  it("counts each public read it answers that opens the page, as the full route would, unless a proxy in front counted it", async () => {
    const slug = await publicPage();
    await srv.deps.follower?.poll();
    const read = (address: string, headers: Record<string, string> = {}) =>
      fetch(`${srv.url}/a/${slug}`, { headers: { "x-forwarded-for": address, "user-agent": FIREFOX, ...headers } });
    expect((await read("203.0.113.70")).status).toBe(200); // the full route fills the cache
    const before = srv.lean.served;
    expect((await read("203.0.113.71", { "sec-fetch-dest": "document" })).status).toBe(200);
    expect((await read("203.0.113.71", { "if-none-match": (await read("203.0.113.72")).headers.get("etag") ?? "" })).status).toBe(304);
    expect((await read("203.0.113.73", { "sec-fetch-dest": "iframe" })).status).toBe(200);
    expect((await read("203.0.113.74", { "x-atelier-views": "nginx" })).status).toBe(200);
    expect(srv.lean.served, "all on the lean path").toBe(before + 5);
    await srv.deps.views?.flush();
    const stats = await trpcData<{ totals: unknown }>(await owner.query("analytics.page", { slug }));
    // .70 (full route), .71 twice, .72; not the framed read, not the one nginx counted.
    expect(stats.totals).toEqual({ views: 4, uniques: 3, bots: 0, agent_reads: 0 });
  });
});
