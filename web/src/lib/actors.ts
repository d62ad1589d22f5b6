// Who did something, in words a person reads at a glance: a person by their address ("You"
// for oneself), an agent by its label and the person it acts for.
import type { ActivityEvent, ActorView } from "./collaboration";

export interface Directory {
  /** The signed-in person's id, to say "You". */
  meId: string | null;
  /** user_id → e-mail, from the workspace's members. */
  emails: ReadonlyMap<string, string>;
  /** token_id → e-mail of the person the agent acts for, from the workspace's agents. */
  agentOwners: ReadonlyMap<string, string | null>;
  /** token_id → the agent's name. */
  agentLabels: ReadonlyMap<string, string>;
}

export const EMPTY_DIRECTORY: Directory = { meId: null, emails: new Map(), agentOwners: new Map(), agentLabels: new Map() };

export interface ActorDescription {
  kind: "user" | "agent";
  /** "You", "ana@example.com", "Research bot". */
  name: string;
  /** For an agent: "for you", "for ana@example.com", "not yet claimed", or null if unknown. */
  forWhom: string | null;
}

export function describeActor(actor: ActorView, directory: Directory = EMPTY_DIRECTORY): ActorDescription {
  const isMe = actor.user_id !== null && actor.user_id === directory.meId;
  if (actor.kind === "user") {
    return { kind: "user", name: isMe ? "You" : actor.label || (actor.user_id && directory.emails.get(actor.user_id)) || "Someone", forWhom: null };
  }
  // A reader outside the workspace: the agent by its label, and nothing about whom it acts for.
  if (actor.withheld) return { kind: "agent", name: actor.label || "An agent", forWhom: null };
  const myEmail = directory.meId ? directory.emails.get(directory.meId) : undefined;
  const ownerEmail = actor.token_id ? directory.agentOwners.get(actor.token_id) : undefined;
  let forWhom: string | null = null;
  if (isMe || (ownerEmail && ownerEmail === myEmail)) forWhom = "for you";
  else if (ownerEmail) forWhom = `for ${ownerEmail}`;
  else if (actor.user_id && directory.emails.get(actor.user_id)) forWhom = `for ${directory.emails.get(actor.user_id)}`;
  else if (actor.unclaimed) forWhom = "anonymous, not yet claimed";
  return { kind: "agent", name: actor.label || "An agent", forWhom };
}

/** One line for lists and screen readers: "Research bot (agent, for ana@example.com)". */
export function actorText(actor: ActorView, directory: Directory = EMPTY_DIRECTORY): string {
  const d = describeActor(actor, directory);
  if (d.kind === "user") return d.name;
  return `${d.name} (agent${d.forWhom ? `, ${d.forWhom}` : ""})`;
}

/** How an event reads after its actor's name: "edited" + a page, "added" + a person. */
export interface EventDescription {
  verb: string;
  /** What it happened to; a page or table that still exists is linked (by its slug, when known). */
  target: { text: string; kind: "page" | "page-gone" | "person" | "agent" | "table" | "thing"; slug?: string | null } | null;
  /** After the target: " as editor". */
  suffix: string;
}

const ROLE_WORDS: Record<string, string> = { owner: "owner", editor: "editor", viewer: "viewer" };

type EventInput = Pick<ActivityEvent, "type"> & {
  target: Omit<ActivityEvent["target"], "slug"> & { slug?: string | null };
  count?: number;
};

const rows = (n: number) => `${n} ${n === 1 ? "row" : "rows"}`;

export function describeEvent(event: EventInput, directory: Directory = EMPTY_DIRECTORY): EventDescription {
  const { type, target } = event;
  const count = event.count ?? 1;
  // Pages and tables are named by their title and linked by their slug; without a slug
  // (gone, or an older server) a page reads as gone and a table is linked by its label.
  const table = (): EventDescription["target"] => ({ text: target.label, kind: "table", slug: target.slug === undefined ? target.label : target.slug });
  const person = (): EventDescription["target"] => {
    const email = directory.emails.get(target.id) ?? (target.label.includes("@") ? target.label : null);
    if (target.id === directory.meId) return { text: "you", kind: "person" };
    return { text: email ?? "a former member", kind: "person" };
  };
  const page = (gone = false): EventDescription["target"] =>
    gone || target.slug === null ? { text: target.label, kind: "page-gone" } : { text: target.label, kind: "page", slug: target.slug ?? target.label };
  switch (type) {
    case "page.created":
      return { verb: "created", target: page(), suffix: "" };
    case "page.updated":
      return { verb: "edited", target: page(), suffix: "" };
    case "page.restored":
      return { verb: "restored an earlier version of", target: page(), suffix: "" };
    case "page.deleted":
      return { verb: "deleted", target: page(true), suffix: "" };
    case "workspace.created":
      return { verb: "created this workspace", target: null, suffix: "" };
    case "workspace.public":
      return { verb: "made this workspace public", target: null, suffix: "" };
    case "workspace.private":
      return { verb: "made this workspace private", target: null, suffix: "" };
    case "member.added":
      return { verb: "added", target: person(), suffix: "" };
    case "member.removed":
      return { verb: "removed", target: person(), suffix: "" };
    case "member.role_changed":
      return { verb: "made", target: person(), suffix: ROLE_WORDS[target.label] ? ` ${ROLE_WORDS[target.label]}` : "" };
    case "agent.blocked":
    case "agent.unblocked":
      return {
        verb: type === "agent.blocked" ? "cut off" : "let back in",
        target: { text: directory.agentLabels.get(target.id) ?? (target.label || "an agent"), kind: "agent" },
        suffix: "",
      };
    case "collection.created":
      // The server gives a slug for tables it still has: those are linked.
      return target.slug
        ? { verb: "created the table", target: table(), suffix: "" }
        : { verb: "created the collection", target: { text: target.label, kind: "thing" }, suffix: "" };
    case "rows.inserted": {
      // Older events labelled the table "<table> (+<count>)".
      const m = /^(.*) \(\+(\d+)\)$/.exec(target.label);
      const n = m ? Number(m[2]) : count;
      const legacy = m?.[1];
      return {
        verb: `added ${rows(n)} to`,
        target: legacy !== undefined ? { text: legacy, kind: "table", slug: target.slug === undefined ? legacy : target.slug } : table(),
        suffix: "",
      };
    }
    case "row.updated":
      return { verb: count === 1 ? "updated a row in" : `updated ${rows(count)} in`, target: table(), suffix: "" };
    case "row.deleted":
      return { verb: count === 1 ? "deleted a row from" : `deleted ${rows(count)} from`, target: table(), suffix: "" };
    case "webhook.created":
      return { verb: "added a webhook", target: null, suffix: "" };
    case "webhook.removed":
      return { verb: "removed a webhook", target: null, suffix: "" };
    case "webhook.disabled":
      return { verb: "turned off a webhook that kept failing", target: null, suffix: "" };
    default: {
      // A kind of event this app doesn't know yet still reads sensibly: "page.archived" → "archived".
      const action = type.split(".")[1] ?? type;
      return { verb: action.replace(/_/g, " "), target: target.label ? { text: target.label, kind: "thing" } : null, suffix: "" };
    }
  }
}
