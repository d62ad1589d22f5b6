// Reading figures (issue 32) through nginx at the scale: 10,000 reads of a published
// page by 500 visitors, with the micro-cache on, are counted within ±1 % as views and exactly
// as 500 uniques. The visitors' addresses come from a load balancer in front of nginx (here,
// this test on loopback, trusted for X-Forwarded-For with `set_real_ip_from`, as
// deploy/nginx.conf describes); that is the only change to the shipped file, and this nginx
// writes its view log where the stack's own nginx does, which the stack's servers read.
import { expect, test } from "@playwright/test";
import { Api, uniqueEmail, uniqueSlug } from "../support/api";
import { startOwnNginx } from "../support/nginx";
import { table, writeSection } from "../support/report";

const VIEWS = 10_000;
const VISITORS = 500;
const LANES = 20;
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

test("10,000 reads by 500 visitors through nginx are counted within 1 % and as exactly 500 uniques", async () => {
  test.setTimeout(300_000);
  const api = new Api();
  await api.signIn(uniqueEmail("figures-load"));
  const ws = uniqueSlug("figures-load");
  const slug = uniqueSlug("popular");
  await api.mutation("workspaces.create", { slug: ws, name: "Popular" });
  await api.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
  await api.mutation("pages.create", { slug, title: "Popular", workspace: ws, body_markdown: "# Popular\n\nRead by many.\n" });

  const nginx = await startOwnNginx("lb", { realIpFrom: "127.0.0.1" });
  const base = nginx.base;
  try {
    const cache = new Map<string, number>();
    let next = 0;
    let failed = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        for (let i = next++; i < VIEWS; i = next++) {
          const visitor = i % VISITORS;
          const res = await fetch(`${base}/a/${slug}`, {
            headers: {
              "user-agent": FIREFOX,
              "x-forwarded-for": `198.51.${Math.floor(visitor / 250)}.${(visitor % 250) + 1}`,
              "sec-fetch-dest": "document",
              ...(i % 10 === 0 ? { referer: "https://news.example.org/today" } : {}),
            },
          });
          await res.arrayBuffer();
          if (res.status !== 200) failed++;
          const status = res.headers.get("x-cache-status") ?? "none";
          cache.set(status, (cache.get(status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (Date.now() - t0) / 1000;
    expect(failed).toBe(0);
    // The micro-cache answered most of them: those never reach a server, and are counted all the same.
    expect(cache.get("HIT") ?? 0).toBeGreaterThan(VIEWS / 2);

    // The servers write what they counted every ANALYTICS_FLUSH_SECONDS (5 s).
    let figures = { views: 0, uniques: 0, bots: 0, agent_reads: 0 };
    let referrers: { host: string; views: number }[] = [];
    await expect(async () => {
      const s = await api.query<{ totals: typeof figures; referrers: typeof referrers }>("analytics.page", { slug });
      figures = s.totals;
      referrers = s.referrers;
      expect(figures.views).toBeGreaterThanOrEqual(VIEWS * 0.99);
      expect(figures.uniques).toBe(VISITORS);
    }).toPass({ timeout: 60_000, intervals: [1000] });
    // One more flush interval: nothing late arrives beyond the bound.
    await new Promise((r) => setTimeout(r, 6000));
    figures = (await api.query<{ totals: typeof figures }>("analytics.page", { slug })).totals;
    expect(Math.abs(figures.views - VIEWS)).toBeLessThanOrEqual(VIEWS * 0.01);
    expect(figures.uniques).toBe(VISITORS);
    expect(figures.bots).toBe(0);
    expect(referrers).toEqual([{ host: "news.example.org", views: expect.any(Number) }]);

    writeSection(
      "view-counts",
      60,
      "Reading figures through nginx (issue 32)",
      table(
        ["reads sent", "visitors", "answered by the micro-cache", "seconds", "views counted", "uniques counted"],
        [
          [
            VIEWS,
            VISITORS,
            `${cache.get("HIT") ?? 0} (HIT), ${cache.get("STALE") ?? 0} (STALE), ${cache.get("UPDATING") ?? 0} (UPDATING)`,
            seconds.toFixed(1),
            figures.views,
            figures.uniques,
          ],
        ],
      ),
    );
  } finally {
    nginx.stop();
  }
});
