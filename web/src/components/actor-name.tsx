import { type Directory, describeActor, EMPTY_DIRECTORY } from "../lib/actors";
import type { ActorView } from "../lib/collaboration";
import { EmailAddress } from "./email-address";
import "./actor-name.css";

export function AgentIcon({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="2.5" y="4.5" width="11" height="9" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M8 1.75v2.75" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      <circle cx="6" cy="9" r="1.1" fill="currentColor" />
      <circle cx="10" cy="9" r="1.1" fill="currentColor" />
    </svg>
  );
}

export function PersonIcon({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="5.5" r="2.75" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M2.75 14c.6-2.7 2.7-4.25 5.25-4.25S12.65 11.3 13.25 14" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

/**
 * A person or an agent, told apart at a glance: an icon, the name, and for an agent a chip
 * "agent" and whom it acts for. Screen readers hear "Research bot, agent, for ana@…".
 */
export function ActorName({ actor, directory = EMPTY_DIRECTORY }: { actor: ActorView; directory?: Directory }) {
  const d = describeActor(actor, directory);
  if (d.kind === "user") {
    return (
      <span className="actor actor--user">
        <span className="actor__icon">
          <PersonIcon />
        </span>
        <span className="actor__name">{d.name === "You" ? "You" : <EmailAddress email={d.name} />}</span>
      </span>
    );
  }
  return (
    <span className="actor actor--agent">
      <span className="actor__icon">
        <AgentIcon />
      </span>
      <span className="actor__name">{d.name}</span>
      <span className="chip chip--agent">
        <span className="sr-only">, </span>agent
      </span>
      {d.forWhom ? (
        <span className="actor__for">
          <span className="sr-only">, </span>
          {d.forWhom}
        </span>
      ) : null}
    </span>
  );
}
