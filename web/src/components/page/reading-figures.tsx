// Who read the page (issue 32, docs/ARCHITECTURE.md#reading-figures): views over the last 30
// days as a plain SVG sparkline, totals, top referring sites, reads by agents and views per
// share link. Owners and editors only (the server refuses anyone else). Counts, never readers.
import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { QueryFallback } from "../load-error";
import "./reading-figures.css";

type Day = { day: string; views: number; uniques: number };

/** A sparkline of daily views: bars scale to the busiest day; the text beside it says the same in words. */
export function Sparkline({ days, label }: { days: Day[]; label: string }) {
  const max = Math.max(1, ...days.map((d) => d.views));
  const w = 4;
  const gap = 1;
  const h = 32;
  const width = days.length * (w + gap);
  const busiest = days.reduce<Day | null>((b, d) => (d.views > (b?.views ?? 0) ? d : b), null);
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${width} ${h}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`${label}${busiest ? `; busiest day ${busiest.day} with ${busiest.views}` : "; no views yet"}`}
    >
      <line x1="0" y1={h - 0.5} x2={width} y2={h - 0.5} className="sparkline__base" />
      {days.map((d, i) => {
        const bar = d.views === 0 ? 0 : Math.max(1.5, (d.views / max) * (h - 2));
        return (
          <rect key={d.day} x={i * (w + gap)} y={h - bar} width={w} height={bar} className="sparkline__bar">
            <title>{`${d.day}: ${d.views} views, ${d.uniques} visitors`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

type Stats = RouterOutputs["analytics"]["page"];

const n = (x: number) => x.toLocaleString("en");

export function ReadingFigures({ slug, onClose }: { slug: string; onClose: () => void }) {
  const trpc = useTRPC();
  const stats = useQuery(trpc.analytics.page.queryOptions({ slug }));
  return (
    <aside className="history reading" aria-labelledby="reading-title">
      <div className="history__head">
        <h2 id="reading-title" className="section-title">
          Readers
        </h2>
        <button type="button" className="button button--small button--quiet" onClick={onClose} aria-label="Close readers">
          Close
        </button>
      </div>
      {!stats.isSuccess ? <QueryFallback query={stats} loading="Loading readers…" what="The reading figures" /> : <Figures stats={stats.data} />}
      <p className="reading__note">
        Counted without cookies; people who ask not to be tracked are not counted. <a href="/privacy#reading-figures">How</a>
      </p>
    </aside>
  );
}

function Figures({ stats }: { stats: Stats }) {
  const t = stats.totals;
  return (
    <>
      <figure className="reading__chart">
        <Sparkline days={stats.days} label={`Views per day over the last 30 days: ${n(t.views)} in all`} />
        <figcaption>Last 30 days</figcaption>
      </figure>
      <dl className="reading__totals">
        <div>
          <dt>Views</dt>
          <dd>{n(t.views)}</dd>
        </div>
        <div>
          <dt>Visitors</dt>
          <dd>{n(t.uniques)}</dd>
        </div>
        <div>
          <dt>Agent reads</dt>
          <dd>{n(t.agent_reads)}</dd>
        </div>
        <div>
          <dt>Bots</dt>
          <dd>{n(t.bots)}</dd>
        </div>
      </dl>
      <Ranked title="Top referrers" empty="No referring sites yet." rows={stats.referrers.map((r) => ({ key: r.host, label: r.host, count: r.views }))} />
      <Ranked
        title="Agent reads"
        empty="No agent has read it through MCP yet."
        rows={stats.agents.map((a) => ({ key: a.agent, label: a.label, count: a.reads }))}
      />
      {stats.share_links.length > 0 ? (
        <section className="reading__section" aria-label="Share links">
          <h3 className="reading__title">Through share links</h3>
          <ul className="reading__list">
            {stats.share_links.map((l) => (
              <li key={l.link_id} className="reading__link">
                <span className="mono">{l.link_id}</span>
                <Sparkline days={l.days} label={`Views through link ${l.link_id} per day: ${n(l.views)} in all`} />
                <span>{n(l.views)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="reading__note">
        All time: {n(stats.all_time.views)} views, {n(stats.all_time.agent_reads)} agent reads.
      </p>
    </>
  );
}

function Ranked({ title, empty, rows }: { title: string; empty: string; rows: { key: string; label: string; count: number }[] }) {
  return (
    <section className="reading__section" aria-label={title}>
      <h3 className="reading__title">{title}</h3>
      {rows.length === 0 ? (
        <p className="reading__note">{empty}</p>
      ) : (
        <ul className="reading__list">
          {rows.map((r) => (
            <li key={r.key} className="reading__row">
              <span className="reading__label">{r.label}</span>
              <span>{n(r.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A workspace's most-read pages over the last 30 days (owners and editors). */
export function MostRead({ workspace }: { workspace: string }) {
  const trpc = useTRPC();
  const stats = useQuery(trpc.analytics.workspace.queryOptions({ workspace }));
  if (!stats.isSuccess) return null;
  const s = stats.data;
  return (
    <section className="reading reading--workspace" aria-labelledby="most-read-title">
      <h2 id="most-read-title" className="section-title">
        Most read
      </h2>
      <figure className="reading__chart">
        <Sparkline days={s.days} label={`Views of the workspace's pages per day over the last 30 days: ${n(s.totals.views)} in all`} />
        <figcaption>
          Last 30 days: {n(s.totals.views)} views, {n(s.totals.agent_reads)} agent reads
        </figcaption>
      </figure>
      {s.top_pages.length === 0 ? (
        <p className="reading__note">No reads yet.</p>
      ) : (
        <ol className="reading__list">
          {s.top_pages.map((p) => (
            <li key={p.slug} className="reading__row">
              <Link className="reading__label" href={`/buckets/${workspace}/${p.slug}`}>
                {p.title}
              </Link>
              <span>{n(p.views + p.agent_reads)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
