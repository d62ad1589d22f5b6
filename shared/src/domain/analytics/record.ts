// What the adapters call to count a read (docs/ARCHITECTURE.md#reading-figures): one rule for
// who is counted how. A person's browser: a view and a visitor, unless it asked not to be
// counted (DNT, Sec-GPC: nothing at all) or its user agent names a bot (counted apart).
// An agent through MCP: a read by its token or OAuth client, never an anonymous caller.
import type { Principal } from "../access";
import type { ViewCounter } from "./counter";
import { isBot, optedOut, referrerHost, visitorKey } from "./visitors";

export interface BrowserRead {
  workspaceId: string;
  pageId: string;
  shareLinkId?: string | null;
  /** The client's address as the trusted proxy gave it (never stored); asked only when a visitor is counted. */
  address: string | (() => string);
  userAgent: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** A referring host or URL (only its host is kept). */
  referrer?: unknown;
}

/** Counts a read (or `times` identical reads: nginx's view log sends repeats as they come). */
export function countBrowserRead(views: ViewCounter | undefined, read: BrowserRead, times = 1): void {
  if (!views?.enabled || optedOut(read.headers)) return;
  const at = { workspaceId: read.workspaceId, pageId: read.pageId, shareLinkId: read.shareLinkId ?? null };
  if (isBot(read.userAgent)) return views.record({ kind: "bot", ...at }, times);
  const address = typeof read.address === "string" ? read.address : read.address();
  views.record({ kind: "visit", ...at, visitor: visitorKey(address, read.userAgent), referrer: referrerHost(read.referrer) }, times);
}

/** The key an agent's reads are counted under: its OAuth client, or its token; null for nobody. */
export function agentKey(principal: Principal): string | null {
  if (principal.kind !== "token") return null;
  const client = principal.token.oauth?.clientId;
  return client ? `c:${client}` : `t:${principal.token._id}`;
}

export function countAgentRead(views: ViewCounter | undefined, principal: Principal, at: { workspaceId: string; pageId: string }): void {
  const agent = agentKey(principal);
  if (!views?.enabled || !agent) return;
  views.record({ kind: "agent", ...at, agent });
}
