import { Link } from "wouter";
import { type Directory, describeEvent } from "../../lib/actors";
import { formatDate } from "../../lib/format";
import { type ActivityEvent, useActivity } from "../../lib/collaboration";
import { ActorName } from "../actor-name";
import { TimeAgo } from "../time-ago";
import { QueryFallback } from "../load-error";
import { EmptyState } from "../empty-state";
import "./panels.css";
import "./activity-panel.css";

function dayOf(iso: string): string {
  const d = new Date(iso);
  const today = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  if (d.toDateString() === today.toDateString()) return "Today";
  if (d.toDateString() === yesterday.toDateString()) return "Yesterday";
  return formatDate(iso);
}

function EventText({ event, slug, directory }: { event: ActivityEvent; slug: string; directory: Directory }) {
  const { verb, target, suffix } = describeEvent(event, directory);
  return (
    <>
      {verb}{" "}
      {target === null ? null : target.kind === "page" && target.slug ? (
        <Link href={`/buckets/${slug}/${target.slug}`}>{target.text}</Link>
      ) : target.kind === "table" && target.slug ? (
        <Link href={`/buckets/${slug}/tables/${target.slug}`}>{target.text}</Link>
      ) : (
        <strong>{target.text}</strong>
      )}
      {suffix}
      {event.type === "page.restored" && event.restored_from !== null ? ` (from version ${event.restored_from})` : null}
    </>
  );
}

/** Who did what here, newest first, people and agents told apart. */
export function ActivityPanel({ slug, directory }: { slug: string; directory: Directory }) {
  const activity = useActivity(slug, true);

  if (!activity.isSuccess) return <QueryFallback query={activity} loading="Loading activity…" what="The activity" />;
  const events = activity.data.pages.flatMap((p) => p.events);
  if (events.length === 0) {
    return <EmptyState title="Nothing has happened here yet">Changes by people and agents will show up here as they happen.</EmptyState>;
  }

  const groups: { day: string; events: ActivityEvent[] }[] = [];
  for (const event of events) {
    const day = dayOf(event.at);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.events.push(event);
    else groups.push({ day, events: [event] });
  }

  return (
    <section className="panel-section" aria-labelledby="activity-title">
      <h2 id="activity-title" className="sr-only">
        Activity
      </h2>
      {groups.map((group) => (
        <div key={group.day} className="activity-day">
          <h3 className="activity-day__title">{group.day}</h3>
          <ol className="activity-list">
            {group.events.map((event) => (
              <li key={event.id} className={`activity-item activity-item--${event.actor.kind}`}>
                <span className="activity-item__text">
                  <ActorName actor={event.actor} directory={directory} /> <EventText event={event} slug={slug} directory={directory} />
                </span>
                <span className="activity-item__time">
                  <TimeAgo iso={event.at} />
                </span>
              </li>
            ))}
          </ol>
        </div>
      ))}
      {activity.hasNextPage ? (
        <div className="load-more">
          <button type="button" className="button" onClick={() => void activity.fetchNextPage()} disabled={activity.isFetchingNextPage}>
            {activity.isFetchingNextPage ? "Loading…" : "Show earlier activity"}
          </button>
        </div>
      ) : null}
    </section>
  );
}
