// Reading figures as the app and agents see them (docs/ARCHITECTURE.md#reading-figures): the
// last 30 days of a page (and of each share link to it), totals, top referrers and agent
// reads, and a workspace's most-read pages. Owners and editors only (access.ts, canSeeStats).
import type { PageViewDoc } from "../../db/index";
import { AppError } from "../../errors";
import type { PageStatsView, WorkspaceStatsView } from "../../schemas/analytics";
import { canSeeStats, type Principal } from "../access";
import { now } from "../clock";
import type { StoreDeps } from "../deps";
import { readablePage } from "../pages/page-store";
import { readableWorkspace } from "../workspaces";
import { dayOf, hostOfKey } from "./visitors";

export const STATS_DAYS = 30;
const TOP = 10;

/** The last STATS_DAYS UTC days, oldest first. */
function lastDays(): string[] {
  const today = Date.UTC(now().getUTCFullYear(), now().getUTCMonth(), now().getUTCDate());
  return Array.from({ length: STATS_DAYS }, (_, i) => dayOf(new Date(today - (STATS_DAYS - 1 - i) * 86_400_000)));
}

function assertStats(principal: Principal, ws: Parameters<typeof canSeeStats>[1], what: string): void {
  if (canSeeStats(principal, ws)) return;
  throw new AppError("forbidden", `Only the workspace's owners and editors can see who read this ${what}.`);
}

interface Sums {
  views: number;
  uniques: number;
  bots: number;
  agent_reads: number;
}
const zero = (): Sums => ({ views: 0, uniques: 0, bots: 0, agent_reads: 0 });
const agentReads = (r: Pick<PageViewDoc, "agents">) => Object.values(r.agents ?? {}).reduce((a, b) => a + b, 0);

function add(into: Sums, r: PageViewDoc): void {
  into.views += r.views ?? 0;
  into.uniques += r.uniques ?? 0;
  into.bots += r.bots ?? 0;
  into.agent_reads += agentReads(r);
}

function series(days: string[], rows: PageViewDoc[]) {
  const by = new Map(days.map((d) => [d, { day: d, views: 0, uniques: 0 }]));
  for (const r of rows) {
    const d = by.get(r.period);
    if (d) {
      d.views += r.views ?? 0;
      d.uniques += r.uniques ?? 0;
    }
  }
  return [...by.values()];
}

function top(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP);
}

/** How an agent key reads in the app: the token's label, or the OAuth client's name. */
async function agentLabels(deps: StoreDeps, keys: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const tokenIds = keys.filter((k) => k.startsWith("t:")).map((k) => k.slice(2));
  const clients = keys.filter((k) => k.startsWith("c:")).map((k) => k.slice(2));
  if (tokenIds.length) {
    for (const t of await deps.database.c.tokens.find({ _id: { $in: tokenIds } }, { projection: { label: 1, agentLabel: 1 } }).toArray()) {
      out.set(`t:${t._id}`, t.agentLabel ?? t.label);
    }
  }
  for (const c of clients) {
    const t = await deps.database.c.tokens.findOne({ "oauth.clientId": c }, { projection: { oauth: 1 } });
    out.set(`c:${c}`, t?.oauth?.clientName ?? c);
  }
  return out;
}

export async function pageStats(deps: StoreDeps, principal: Principal, input: { slug: string }): Promise<PageStatsView> {
  const { page, ws } = await readablePage(deps, principal, { slug: input.slug });
  assertStats(principal, ws, "page");
  const rows = await deps.database.c.pageViews.find({ pageId: page._id }).toArray();
  const days = lastDays();
  const first = days[0] ?? "";
  const recent = rows.filter((r) => r.kind === "day" && r.period >= first);
  const totals = zero();
  const all = zero();
  const referrers = new Map<string, number>();
  const agents = new Map<string, number>();
  const links = new Map<string, PageViewDoc[]>();
  for (const r of rows) add(all, r);
  for (const r of recent) {
    add(totals, r);
    for (const [k, n] of Object.entries(r.referrers ?? {})) referrers.set(hostOfKey(k), (referrers.get(hostOfKey(k)) ?? 0) + n);
    for (const [k, n] of Object.entries(r.agents ?? {})) agents.set(hostOfKey(k), (agents.get(hostOfKey(k)) ?? 0) + n);
    if (r.shareLinkId) links.set(r.shareLinkId, [...(links.get(r.shareLinkId) ?? []), r]);
  }
  const topAgents = top(agents);
  const labels = await agentLabels(
    deps,
    topAgents.map(([k]) => k),
  );
  return {
    slug: page.slug,
    page_id: page._id,
    days: series(days, recent),
    totals,
    all_time: { views: all.views, agent_reads: all.agent_reads },
    referrers: top(referrers).map(([host, views]) => ({ host, views })),
    agents: topAgents.map(([agent, reads]) => ({ agent, label: labels.get(agent) ?? agent, reads })),
    share_links: [...links]
      .map(([link_id, rs]) => {
        const s = zero();
        for (const r of rs) add(s, r);
        return { link_id, views: s.views, uniques: s.uniques, days: series(days, rs) };
      })
      .sort((a, b) => b.views - a.views),
  };
}

export async function workspaceStats(deps: StoreDeps, principal: Principal, input: { workspace: string }): Promise<WorkspaceStatsView> {
  const ws = await readableWorkspace(deps, principal, input.workspace);
  assertStats(principal, ws, "workspace");
  const days = lastDays();
  const rows = await deps.database.c.pageViews.find({ workspaceId: ws._id, kind: "day", period: { $gte: days[0] ?? "" } }).toArray();
  const totals = zero();
  const byPage = new Map<string, Sums>();
  for (const r of rows) {
    add(totals, r);
    const s = byPage.get(r.pageId) ?? zero();
    add(s, r);
    byPage.set(r.pageId, s);
  }
  const ranked = [...byPage].sort((a, b) => b[1].views + b[1].agent_reads - (a[1].views + a[1].agent_reads)).slice(0, TOP);
  const pages = await deps.database.c.pages.find({ _id: { $in: ranked.map(([id]) => id) } }, { projection: { slug: 1, title: 1 } }).toArray();
  const named = new Map(pages.map((p) => [p._id, p]));
  return {
    workspace: ws.slug,
    days: series(days, rows),
    totals,
    top_pages: ranked.flatMap(([id, s]) => {
      const p = named.get(id);
      return p ? [{ slug: p.slug, title: p.title, views: s.views, uniques: s.uniques, agent_reads: s.agent_reads }] : [];
    }),
  };
}
