// Reading figures (issue 32) through the real server: the published page's beacon counts
// views and exactly one unique per visitor (addresses given by the trusted proxy's
// X-Forwarded-For), bots apart, DNT and Sec-GPC not at all; private pages, share links and
// machine views are counted where they are served; the figures are for owners and editors
// only; bad beacons are 400 and write nothing; the raw address is never stored or logged;
// old days fold into months; the figures go with their page.
import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { sweepOnce } from "@atelier/shared/domain/sweeper";
import { COLLECTION_NAMES } from "@atelier/shared/db";
import type { PageStatsView, WorkspaceStatsView } from "@atelier/shared/schemas/analytics";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, trpcErrorOf, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let ownerEmail = "";
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
/** 10,000 views by default (the figure); ANALYTICS_TEST_VIEWS=2000 for a quicker run on a busy machine. */
const VIEWS = Number(process.env.ANALYTICS_TEST_VIEWS ?? 10_000);
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

beforeAll(async () => {
  srv = await startTestServer({}, "analytics");
  ownerEmail = `${uniq("owner")}@example.com`;
  owner = await signIn(srv, ownerEmail);
}, 120_000);
afterAll(async () => {
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

function beacon(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${srv.url}/api/v`, {
    method: "POST",
    headers: { "content-type": "text/plain;charset=UTF-8", origin: "null", "sec-fetch-site": "cross-site", "user-agent": FIREFOX, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function inBatches(total: number, send: (i: number) => Promise<Response>): Promise<void> {
  for (let i = 0; i < total; i += 50) {
    const statuses = await Promise.all(Array.from({ length: Math.min(50, total - i) }, (_, k) => send(i + k).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([204]));
  }
}

const stats = async (by: Browser, slug: string) => trpcData<PageStatsView>(await by.query("analytics.page", { slug }));

describe("the beacon of a published page", () => {
  it("counts 10,000 views from 500 visitors as 10,000 views and exactly 500 uniques, with the referring host only", { timeout: 900_000 }, async () => {
    const ws = await workspace("public");
    const p = await page(ws);
    await inBatches(VIEWS, (i) => beacon({ p: `/a/${p.slug}`, r: i % 4 === 0 ? "news.example.org" : "" }, { "x-forwarded-for": addressOf(i % 500) }));
    await srv.deps.views?.flush();
    const s = await stats(owner, p.slug);
    expect(s.totals).toEqual({ views: VIEWS, uniques: 500, bots: 0, agent_reads: 0 });
    expect(s.days.at(-1)).toMatchObject({ views: VIEWS, uniques: 500 });
    expect(s.days).toHaveLength(30);
    expect(s.referrers).toEqual([{ host: "news.example.org", views: VIEWS / 4 }]);
    // The same visitors the next time: views, no new uniques; by /artifacts/{id} and a pinned version too.
    await inBatches(500, (i) => beacon({ p: i % 2 ? `/artifacts/${p.id}` : `/a/${p.slug}@1` }, { "x-forwarded-for": addressOf(i) }));
    await srv.deps.views?.flush();
    expect((await stats(owner, p.slug)).totals).toMatchObject({ views: VIEWS + 500, uniques: 500 });
    const ws2 = await trpcData<WorkspaceStatsView>(await owner.query("analytics.workspace", { workspace: ws }));
    expect(ws2.top_pages).toEqual([{ slug: p.slug, title: "Q3 report", views: VIEWS + 500, uniques: 500, agent_reads: 0 }]);
  });

  it("counts bots apart, and nothing at all for DNT or Sec-GPC", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("public"));
    await beacon({ p: `/a/${p.slug}` }, { "x-forwarded-for": "203.0.113.7", "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    await beacon({ p: `/a/${p.slug}` }, { "x-forwarded-for": "203.0.113.8", dnt: "1" });
    await beacon({ p: `/a/${p.slug}` }, { "x-forwarded-for": "203.0.113.9", "sec-gpc": "1" });
    await beacon({ p: `/a/${p.slug}` }, { "x-forwarded-for": "203.0.113.10" });
    await srv.deps.views?.flush();
    expect((await stats(owner, p.slug)).totals).toEqual({ views: 1, uniques: 1, bots: 1, agent_reads: 0 });
  });

  it("answers 400 to a body that is not the beacon, and 204 without counting for what is not a public page", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("private"));
    const before = await srv.database.c.pageViews.countDocuments();
    expect((await beacon("not json")).status).toBe(400);
    expect((await beacon({ p: 42 })).status).toBe(400);
    expect((await beacon({ p: "/a/x".repeat(100) })).status).toBe(400);
    for (const path of [`/a/${p.slug}`, "/a/no-such-page", "/s/abcdefghijklmnopqrstuvwxyz", "/app/"]) {
      expect((await beacon({ p: path }, { "x-forwarded-for": "203.0.113.20" })).status).toBe(204);
    }
    await srv.deps.views?.flush();
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
    await srv.deps.views?.flush();
    const s = await stats(owner, p.slug);
    expect(s.totals).toEqual({ views: 4, uniques: 3, bots: 0, agent_reads: 0 });
    expect(s.share_links).toEqual([expect.objectContaining({ link_id: link.link_id, views: 3, uniques: 2 })]);
    expect(s.referrers).toEqual([{ host: "mail.example.com", views: 3 }]);
    expect((await stats(owner, pub.slug)).totals).toMatchObject({ views: 1, uniques: 1 });
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
    await beacon({ p: `/a/${p.slug}` }, { "x-forwarded-for": address });
    await srv.deps.views?.flush();
    expect(await srv.database.c.viewVisitors.countDocuments()).toBeGreaterThan(0);
    for (const name of COLLECTION_NAMES) {
      const docs = await srv.database.db.collection(name).find().toArray();
      expect(
        docs.filter((d) => JSON.stringify(d).includes(address)),
        name,
      ).toEqual([]);
    }
    expect(srv.logLines.filter((l) => l.includes(address))).toEqual([]);
    // The next day the sweeper deletes the day's visitors and its salt.
    advanceClock(86_400);
    await sweepOnce({ database: srv.database, config: srv.config, cache: srv.deps.cache });
    expect(await srv.database.c.viewVisitors.countDocuments()).toBe(0);
    expect(await srv.database.c.analyticsSalts.countDocuments()).toBe(0);
  });

  it("sums days past the retention into their month, and deletes the figures with their page", { timeout: 120_000 }, async () => {
    const p = await page(await workspace("public"));
    await beacon({ p: `/a/${p.slug}`, r: "a.example" }, { "x-forwarded-for": "203.0.113.60" });
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
