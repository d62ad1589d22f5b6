// Reading figures (issue 32) through the real server: nginx's view log, read from a real
// file as nginx writes it, counts views and exactly one unique per visitor (the address nginx names), bots apart,
// DNT and Sec-GPC not at all, and only reads that open a public page; without a proxy in
// front the server counts public reads where it serves them, and never twice behind nginx;
// private pages, share links and machine views are counted where they are served; the figures
// are for owners and editors only; the raw address is never stored or logged; old days fold
// into months; the figures go with their page.
import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { sweepOnce } from "@atelier/shared/domain/sweeper";
import { COLLECTION_NAMES } from "@atelier/shared/db";
import type { PageStatsView, WorkspaceStatsView } from "@atelier/shared/schemas/analytics";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Browser, signIn, startTestServer, trpcData, trpcErrorOf, type TestServer } from "../../testing";
import { startViewLog, type ViewLog } from "./view-log";

let srv: TestServer;
let viewLog: ViewLog;
const viewLogDir = mkdtempSync(path.join(tmpdir(), "atelier-views-"));
const viewLogFile = path.join(viewLogDir, "views.log");
let owner: Browser;
let ownerEmail = "";
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
/** 10,000 views by default (the figure); ANALYTICS_TEST_VIEWS=2000 for a quicker run on a busy machine. */
const VIEWS = Number(process.env.ANALYTICS_TEST_VIEWS ?? 10_000);
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

beforeAll(async () => {
  srv = await startTestServer({}, "analytics");
  viewLog = startViewLog({ ...srv.deps, logger: srv.deps.logger }, viewLogFile);
  await viewLog.readNow();
  expect(viewLog.reading).toBe(true);
  ownerEmail = `${uniq("owner")}@example.com`;
  owner = await signIn(srv, ownerEmail);
}, 120_000);
afterAll(async () => {
  await viewLog.close();
  rmSync(viewLogDir, { recursive: true, force: true });
  await srv.close();
});
afterEach(() => resetClock());

async function workspace(visibility: "public" | "private"): Promise<string> {
  const slug = uniq("ws");
  await trpcData(await owner.mutation("workspaces.create", { slug, name: "Reports" }));
  if (visibility === "public") await trpcData(await owner.mutation("workspaces.setVisibility", { slug, visibility }));
  return slug;
}

async function page(ws: string): Promise<{ slug: string; id: string }> {
  const slug = uniq("report");
  const created = await trpcData<{ page_id: string }>(
    await owner.mutation("pages.create", { slug, title: "Q3 report", body_markdown: "Numbers.", workspace: ws }),
  );
  return { slug, id: created.page_id };
}

/** A visitor's address: distinct per visitor, in a range no stored id could contain by chance. */
const addressOf = (i: number) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;

interface Read {
  path: string;
  address: string;
  method?: string;
  status?: number;
  query?: string;
  dest?: string;
  purpose?: string;
  dnt?: string;
  gpc?: string;
  userAgent?: string;
  referrer?: string;
}

/** One line as deploy/nginx.conf's `log_format atelier_view` writes it (tab-separated, `-` for nothing). */
function line(r: Read): string {
  const f = [r.method ?? "GET", String(r.status ?? 200), r.path, r.query, r.dest, r.purpose, r.dnt, r.gpc, r.userAgent ?? FIREFOX, r.referrer, r.address];
  return f.map((v) => (v === undefined || v === "" ? "-" : v)).join("\t");
}

/** Appends reads as nginx does (whole lines to the view log) and has the reader read them now. */
async function logged(reads: (Read | string)[]): Promise<void> {
  const from = viewLog.received;
  appendFileSync(viewLogFile, reads.map((r) => `${typeof r === "string" ? r : line(r)}\n`).join(""));
  await viewLog.readNow();
  expect(viewLog.received - from).toBe(reads.length);
}

const stats = async (by: Browser, slug: string) => trpcData<PageStatsView>(await by.query("analytics.page", { slug }));

describe("nginx's view log", () => {
  it("counts 10,000 views from 500 visitors as 10,000 views and exactly 500 uniques, with the referring host only", { timeout: 900_000 }, async () => {
    const ws = await workspace("public");
    const p = await page(ws);
    await logged(
      Array.from({ length: VIEWS }, (_, i) => ({
        path: `/a/${p.slug}`,
        address: addressOf(i % 500),
        referrer: i % 4 === 0 ? "https://news.example.org/story?id=7" : undefined,
        status: i % 3 === 0 ? 304 : 200,
        dest: i % 2 === 0 ? "document" : undefined,
      })),
    );
    await srv.deps.views?.flush();
    const s = await stats(owner, p.slug);
    expect(s.totals).toEqual({ views: VIEWS, uniques: 500, bots: 0, agent_reads: 0 });
    expect(s.days.at(-1)).toMatchObject({ views: VIEWS, uniques: 500 });
    expect(s.days).toHaveLength(30);
    expect(s.referrers).toEqual([{ host: "news.example.org", views: VIEWS / 4 }]);
    // The same visitors the next time: views, no new uniques; by /artifacts/{id}, a pinned version and a machine view too.
    await logged(
      Array.from({ length: 500 }, (_, i) => ({
        path: [`/artifacts/${p.id}`, `/a/${p.slug}@1`, `/a/${p.slug}.md`, `/artifacts/${p.id}@1.json`][i % 4] ?? "",
        address: addressOf(i),
      })),
    );
    await srv.deps.views?.flush();
    expect((await stats(owner, p.slug)).totals).toMatchObject({ views: VIEWS + 500, uniques: 500 });
    const ws2 = await trpcData<WorkspaceStatsView>(await owner.query("analytics.workspace", { workspace: ws }));
    expect(ws2.top_pages).toEqual([{ slug: p.slug, title: "Q3 report", views: VIEWS + 500, uniques: 500, agent_reads: 0 }]);
  });

  it("counts bots apart, nothing at all for DNT or Sec-GPC, and only reads that open the page", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("public"));
    const path = `/a/${p.slug}`;
    await logged([
      { path, address: "203.0.113.7", userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" },
      { path, address: "203.0.113.8", dnt: "1" },
      { path, address: "203.0.113.9", gpc: "1" },
      // Not a reader opening the page: a live page's reload, the app's framed view, the
      // author's document inside an HTML page's live wrapper, a script's fetch, a prefetch, a
      // HEAD, an answer that was not the page.
      { path, address: "203.0.113.11", query: "v=3" },
      { path, address: "203.0.113.12", query: "embed=1" },
      { path, address: "203.0.113.13", dest: "iframe" },
      { path, address: "203.0.113.14", dest: "empty" },
      { path, address: "203.0.113.15", purpose: "prefetch" },
      { path, address: "203.0.113.16", method: "HEAD" },
      { path, address: "203.0.113.17", status: 404 },
      { path, address: "203.0.113.18", status: 301 },
      // A user agent with a tab and quotes, as nginx escapes them.
      { path, address: "203.0.113.10", userAgent: "Mozilla/5.0 \\x22quoted\\x22\\x09tabbed" },
    ]);
    await srv.deps.views?.flush();
    expect((await stats(owner, p.slug)).totals).toEqual({ views: 1, uniques: 1, bots: 1, agent_reads: 0 });
  });

  it("counts nothing for what is not a public page, nor for a line that is not one of the log's", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("private"));
    const before = await srv.database.c.pageViews.countDocuments();
    const countedBefore = viewLog.counted;
    await logged([
      ...[`/a/${p.slug}`, "/a/no-such-page", `/artifacts/${crypto.randomUUID()}`, "/s/abcdefghijklmnopqrstuvwxyz", "/app/", "/a/Not_A_Slug", "/a/x/y"].map(
        (path) => ({
          path,
          address: "203.0.113.20",
        }),
      ),
      "not a line of the view log",
      "GET\t200",
      `GET\t200\t/a/${p.slug}\t-\t-`,
    ]);
    await srv.deps.views?.flush();
    expect(viewLog.counted).toBe(countedBefore);
    expect(await srv.database.c.pageViews.countDocuments()).toBe(before);
    expect((await stats(owner, p.slug)).totals.views).toBe(0);
  });
});

describe("reads counted where they are served", () => {
  it("counts a private page read by a member, a share link's views by link, and machine views", { timeout: 120_000 }, async () => {
    const ws = await workspace("private");
    const p = await page(ws);
    expect((await owner.request(`/a/${p.slug}`, { headers: { "x-forwarded-for": "203.0.113.30", "user-agent": FIREFOX } })).status).toBe(200);
    // The app's own page view (?embed=1) is the author looking: not counted.
    expect((await owner.request(`/a/${p.slug}?embed=1`, { headers: { "x-forwarded-for": "203.0.113.30", "user-agent": FIREFOX } })).status).toBe(200);
    const link = await trpcData<{ link_id: string; url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws, page: p.slug }));
    const path = new URL(link.url).pathname;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${srv.url}${path}`, {
        headers: { "x-forwarded-for": `203.0.113.${40 + (i % 2)}`, "user-agent": FIREFOX, referer: "https://mail.example.com/inbox" },
      });
      expect(r.status).toBe(200);
    }
    const pub = await page(await workspace("public"));
    expect((await fetch(`${srv.url}/a/${pub.slug}.md`, { headers: { "x-forwarded-for": "203.0.113.50", "user-agent": FIREFOX } })).status).toBe(200);
    // A proxy in front that counts public reads from its own log (the shipped nginx says so): not again here.
    const viaNginx = { "x-forwarded-for": "203.0.113.51", "user-agent": FIREFOX, "x-atelier-views": "nginx" };
    expect((await fetch(`${srv.url}/a/${pub.slug}.md`, { headers: viaNginx })).status).toBe(200);
    expect((await fetch(`${srv.url}/a/${pub.slug}`, { headers: viaNginx })).status).toBe(200);
    await srv.deps.views?.flush();
    const s = await stats(owner, p.slug);
    expect(s.totals).toEqual({ views: 4, uniques: 3, bots: 0, agent_reads: 0 });
    expect(s.share_links).toEqual([expect.objectContaining({ link_id: link.link_id, views: 3, uniques: 2 })]);
    expect(s.referrers).toEqual([{ host: "mail.example.com", views: 3 }]);
    expect((await stats(owner, pub.slug)).totals).toMatchObject({ views: 1, uniques: 1 });
  });

  it("counts a public page's reads where it is served when no proxy counts them, and only reads that open it", { timeout: 120_000 }, async () => {
    const pub = await page(await workspace("public"));
    const read = (address: string, headers: Record<string, string> = {}, query = "") =>
      fetch(`${srv.url}/a/${pub.slug}${query}`, { headers: { "x-forwarded-for": address, "user-agent": FIREFOX, ...headers } });
    for (let i = 0; i < 4; i++)
      expect((await read(`203.0.113.${60 + (i % 2)}`, { "sec-fetch-dest": "document", referer: "https://a.example/" })).status).toBe(200);
    const etag = (await read("203.0.113.62")).headers.get("etag") ?? "";
    expect((await read("203.0.113.62", { "if-none-match": etag })).status).toBe(304);
    // Not views: the live reload, the app's frame, a framed document, a prefetch, HEAD.
    expect((await read("203.0.113.63", {}, "?v=2")).status).toBe(200);
    expect((await read("203.0.113.63", {}, "?embed=1")).status).toBe(200);
    expect((await read("203.0.113.63", { "sec-fetch-dest": "iframe" })).status).toBe(200);
    expect((await read("203.0.113.63", { "sec-purpose": "prefetch" })).status).toBe(200);
    expect((await fetch(`${srv.url}/a/${pub.slug}`, { method: "HEAD", headers: { "user-agent": FIREFOX } })).status).toBe(200);
    await srv.deps.views?.flush();
    const s = await stats(owner, pub.slug);
    expect(s.totals).toEqual({ views: 6, uniques: 3, bots: 0, agent_reads: 0 });
    expect(s.referrers).toEqual([{ host: "a.example", views: 4 }]);
  });
});

describe("who may see the figures", () => {
  it("owners only among these: not an outsider of a public workspace, not a stranger to a private one", { timeout: 120_000 }, async () => {
    const pub = await page(await workspace("public"));
    const priv = await page(await workspace("private"));
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    expect(await trpcErrorOf(await stranger.query("analytics.page", { slug: pub.slug }))).toMatchObject({ status: 403, code: "forbidden" });
    expect(await trpcErrorOf(await stranger.query("analytics.page", { slug: priv.slug }))).toMatchObject({ status: 404, code: "not_found" });
    expect((await trpcErrorOf(await new Browser(srv.url).query("analytics.page", { slug: pub.slug }))).status).toBe(401);
    expect(await trpcErrorOf(await owner.query("analytics.page", { slug: "Not A Slug" }))).toMatchObject({ status: 400 });
  });
});

describe("what is kept", () => {
  it("never stores or logs a reader's address, and keeps a visitor hash only for its day", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("public"));
    const address = "192.0.2.171";
    await logged([{ path: `/a/${p.slug}`, address }]);
    expect((await fetch(`${srv.url}/a/${p.slug}`, { headers: { "x-forwarded-for": "192.0.2.172", "user-agent": FIREFOX } })).status).toBe(200);
    await srv.deps.views?.flush();
    expect(await srv.database.c.viewVisitors.countDocuments()).toBeGreaterThan(0);
    for (const name of COLLECTION_NAMES) {
      const docs = await srv.database.db.collection(name).find().toArray();
      expect(
        docs.filter((d) => JSON.stringify(d).includes(address) || JSON.stringify(d).includes("192.0.2.172")),
        name,
      ).toEqual([]);
    }
    expect(srv.logLines.filter((l) => l.includes(address) || l.includes("192.0.2.172"))).toEqual([]);
    // The next day the sweeper deletes the day's visitors and its salt.
    advanceClock(86_400);
    await sweepOnce({ database: srv.database, config: srv.config, cache: srv.deps.cache });
    expect(await srv.database.c.viewVisitors.countDocuments()).toBe(0);
    expect(await srv.database.c.analyticsSalts.countDocuments()).toBe(0);
  });

  it("sums days past the retention into their month, and deletes the figures with their page", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("public"));
    await logged([{ path: `/a/${p.slug}`, address: "203.0.113.60", referrer: "https://a.example/" }]);
    await srv.deps.views?.flush();
    const day = new Date().toISOString().slice(0, 10);
    advanceClock((srv.config.ANALYTICS_RETENTION_DAYS + 2) * 86_400);
    await sweepOnce({ database: srv.database, config: srv.config, cache: srv.deps.cache });
    const rows = await srv.database.c.pageViews.find({ pageId: p.id }).toArray();
    expect(rows).toEqual([expect.objectContaining({ kind: "month", period: day.slice(0, 7), views: 1, uniques: 1, referrers: { "a%2Eexample": 1 } })]);
    resetClock();
    // The sweep 397 days on ended the owner's session too: a new one.
    owner = await signIn(srv, ownerEmail);
    expect((await stats(owner, p.slug)).all_time.views).toBe(1);
    await trpcData(await owner.mutation("pages.delete", { slug: p.slug }));
    expect(await srv.database.c.pageViews.countDocuments({ pageId: p.id })).toBe(0);
  });
});
