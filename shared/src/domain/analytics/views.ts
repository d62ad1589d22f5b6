// Which reads of a published page are views, and the view log nginx sends
// (docs/ARCHITECTURE.md#reading-figures). Behind the shipped nginx, nginx counts every read of
// /a/ and /artifacts/, the micro-cache's answers included: it sends one line per read to a
// server process (a file on tmpfs, `ANALYTICS_NGINX_LOG`, that one server reads and empties) and tells the servers
// behind it so (`X-Atelier-Views: nginx`), and they then leave public reads to the log. A
// server with no such proxy in front counts public reads where it serves them. Private pages
// and share links are always counted where they are served (nginx logs no share link, and a
// logged private page is not public, so the log skips it). One rule for what a view is.
import { SLUG_PATTERN } from "../../schemas/common";
import { getRenderedArtifact } from "../artifacts";
import type { StoreDeps } from "../deps";
import type { ViewCounter } from "./counter";
import { countBrowserRead } from "./record";

/** The header the shipped nginx sets on every request it passes on: it counts public reads itself. */
export const VIEWS_COUNTED_BY = "x-atelier-views";

/** Whether a public read reaching this server was already counted by the proxy in front (nginx's view log). */
export function countedUpstream(headers: Record<string, string | string[] | undefined>): boolean {
  return headers[VIEWS_COUNTED_BY] === "nginx";
}

/** What decides whether a read is someone opening the page. */
export interface ReadShape {
  method: string;
  /** The query string, without `?` ("" when none). */
  query: string;
  /** `Sec-Fetch-Dest`, when the browser sent one. */
  dest: string | undefined;
  /** `Sec-Purpose` or `Purpose` (prefetch, prerender), when sent. */
  purpose: string | undefined;
}

/**
 * A view is a GET that opens the page: not the app's own framed view (`?embed=1`), not a live
 * page reloading after a change (`?v=`), not the author's document framed by an HTML page's
 * live wrapper or fetched by a script (`Sec-Fetch-Dest` other than `document`), not a prefetch.
 */
export function isPageOpen(r: ReadShape): boolean {
  if (r.method !== "GET") return false;
  if (/(^|&)(v|embed)=/.test(r.query)) return false;
  if (r.dest !== undefined && r.dest !== "" && r.dest !== "document") return false;
  return !r.purpose || !/prefetch|prerender/i.test(r.purpose);
}

/** A read a server answered itself, as its adapter saw it. */
export interface ServedRead {
  method: string;
  /** The query string, without `?` ("" when none). */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client's address as TRUST_PROXY reads it; asked only when the read is counted. */
  address: () => string;
}

const one = (v: string | string[] | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * Counts a read this server answered, when it opens the page: a private page or share link
 * always; a public page only when no proxy in front counted it already (nginx's view log).
 */
export function countServedRead(
  views: ViewCounter | undefined,
  read: ServedRead,
  at: { workspaceId: string; pageId: string; shareLinkId?: string },
  isPublic: boolean,
): void {
  const h = read.headers;
  if (!views?.enabled || (isPublic && countedUpstream(h))) return;
  if (!isPageOpen({ method: read.method, query: read.query, dest: one(h["sec-fetch-dest"]), purpose: one(h["sec-purpose"]) ?? one(h.purpose) })) return;
  countBrowserRead(views, {
    workspaceId: at.workspaceId,
    pageId: at.pageId,
    shareLinkId: at.shareLinkId ?? null,
    address: read.address,
    userAgent: one(h["user-agent"]),
    headers: h,
    referrer: one(h.referrer) ?? one(h.referer),
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The page a public address names (`/a/{slug}`, `/artifacts/{id}`, either with `@{n}`, `.md` or `.json`), or null. */
export function viewTarget(path: string): { slug: string } | { pageId: string } | null {
  const m = /^\/(a|artifacts)\/([^/@.]+)(?:@[1-9][0-9]{0,8})?(?:\.(?:md|json))?$/.exec(path);
  if (!m) return null;
  const [, kind, name = ""] = m;
  if (kind === "a") return SLUG_PATTERN.test(name) ? { slug: name } : null;
  return UUID.test(name) ? { pageId: name } : null;
}

/** One line of nginx's view log (deploy/nginx.conf, `log_format atelier_view`). */
export interface LoggedRead extends ReadShape {
  status: number;
  path: string;
  address: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  headers: { dnt?: string; "sec-gpc"?: string };
}

/** The fields of `log_format atelier_view`, in order, tab-separated. */
const FIELDS = ["method", "status", "path", "query", "dest", "purpose", "dnt", "gpc", "userAgent", "referrer", "address"] as const;

/** nginx writes `-` for a header that was not sent, and `\xHH` for bytes it escapes. */
function field(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "-" || raw === "") return undefined;
  return raw.includes("\\x") ? raw.replace(/\\x([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw;
}

/** A line of nginx's view log (`GET\t200\t/a/…`) as a read, or null when it is not one. */
export function parseViewBody(line: string): LoggedRead | null {
  const parts = line.replace(/\n$/, "").split("\t");
  if (parts.length !== FIELDS.length) return null;
  const f = Object.fromEntries(FIELDS.map((name, i) => [name, field(parts[i])])) as Record<(typeof FIELDS)[number], string | undefined>;
  const status = Number(f.status);
  if (!f.method || !f.path || !f.address || !Number.isInteger(status)) return null;
  return {
    method: f.method,
    status,
    path: f.path,
    query: f.query ?? "",
    dest: f.dest,
    purpose: f.purpose,
    address: f.address,
    userAgent: f.userAgent,
    referrer: f.referrer,
    headers: { ...(f.dnt ? { dnt: f.dnt } : {}), ...(f.gpc ? { "sec-gpc": f.gpc } : {}) },
  };
}

/** A target's page, when it is public, for a short while (the log sends one line per read). */
export type PublicPageLookup = (target: { slug: string } | { pageId: string }) => Promise<{ workspaceId: string; pageId: string } | null>;

export function publicPageLookup(deps: StoreDeps, ttlMs = 2000): PublicPageLookup {
  const known = new Map<string, { at: number; page: Promise<{ workspaceId: string; pageId: string } | null> }>();
  return (target) => {
    const key = "slug" in target ? `s:${target.slug}` : `p:${target.pageId}`;
    const t = Date.now();
    const hit = known.get(key);
    if (hit && t - hit.at < ttlMs) return hit.page;
    if (known.size > 10_000) known.clear();
    const page = getRenderedArtifact(deps, { kind: "nobody" }, target).then(
      (found) => (found?.kind === "document" && found.isPublic ? { workspaceId: found.workspaceId, pageId: found.pageId } : null),
      () => null,
    );
    known.set(key, { at: t, page });
    return page;
  };
}

/** Counts a line of the view log (`times` alike): a successful read that opens a public page (anything else is skipped). */
export async function countLoggedRead(views: ViewCounter | undefined, lookup: PublicPageLookup, read: LoggedRead, times = 1): Promise<boolean> {
  if (!views?.enabled || (read.status !== 200 && read.status !== 304) || !isPageOpen(read)) return false;
  const target = viewTarget(read.path);
  if (!target) return false;
  const page = await lookup(target);
  if (!page) return false;
  countBrowserRead(views, { ...page, address: read.address, userAgent: read.userAgent, headers: read.headers, referrer: read.referrer }, times);
  return true;
}
