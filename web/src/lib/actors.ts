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
  /** What it happened to; a page that still exists is linked. */
  target: { text: string; kind: "page" | "page-gone" | "person" | "agent" | "table" | "thing" } | null;
  /** After the target: " as editor". */
  suffix: string;
}

const ROLE_WORDS: Record<string, string> = { owner: "owner", editor: "editor", viewer: "viewer" };

export function describeEvent(event: Pick<ActivityEvent, "type" | "target">, directory: Directory = EMPTY_DIRECTORY): EventDescription {
  const { type, target } = event;
  const person = (): EventDescription["target"] => {
    const email = directory.emails.get(target.id) ?? (target.label.includes("@") ? target.label : null);
    if (target.id === directory.meId) return { text: "you", kind: "person" };
    return { text: email ?? "a former member", kind: "person" };
  };
  const page = (gone = false): EventDescription["target"] => ({ text: target.label, kind: gone ? "page-gone" : "page" });
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
      return { verb: "created the collection", target: { text: target.label, kind: "thing" }, suffix: "" };
    case "rows.inserted": {
      // The label is "<table slug> (+<count>)".
      const m = /^(.*) \(\+(\d+)\)$/.exec(target.label);
      const count = m ? Number(m[2]) : null;
      return {
        verb: count === null ? "added rows to" : `added ${count} ${count === 1 ? "row" : "rows"} to`,
        target: { text: m?.[1] ?? target.label, kind: "table" },
        suffix: "",
      };
    }
    case "row.updated":
      return { verb: "updated a row in", target: { text: target.label, kind: "table" }, suffix: "" };
    case "row.deleted":
      return { verb: "deleted a row in", target: { text: target.label, kind: "table" }, suffix: "" };
    default: {
      // A kind of event this app doesn't know yet still reads sensibly: "page.archived" → "archived".
      const action = type.split(".")[1] ?? type;
      return { verb: action.replace(/_/g, " "), target: target.label ? { text: target.label, kind: "thing" } : null, suffix: "" };
    }
  }
}
