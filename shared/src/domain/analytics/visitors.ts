// Who a view came from, as far as counting needs (docs/decisions.md, "Reading figures (issue 32)"):
// a bot or not, whether the reader asked not to be counted, the referring host, and a key
// for the day's unique-visitor hash. Pure functions; nothing here is stored.
import { sha256 } from "../../ids";

/** The UTC day of a moment, `YYYY-MM-DD`: the period of a daily row. */
export function dayOf(t: Date): string {
  return t.toISOString().slice(0, 10);
}

/** Bots, crawlers, link previews and scripts: counted apart, never as views or visitors. */
const BOT =
  /bot|crawl|spider|slurp|archiver|preview|facebookexternalhit|embedly|monitor|uptime|headless|phantom|lighthouse|curl|wget|python|httpie|go-http|okhttp|java\/|libwww|axios|node-fetch|undici|^$/i;

export function isBot(userAgent: string | undefined): boolean {
  return BOT.test(userAgent ?? "");
}

/** `DNT: 1` or `Sec-GPC: 1`: the view is not counted at all. */
export function optedOut(headers: Record<string, string | string[] | undefined>): boolean {
  return headers.dnt === "1" || headers["sec-gpc"] === "1";
}

const HOST = /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/;

/** A referring host as given (a host, or a URL whose host is taken); null when there is none or it is not a host name. */
export function referrerHost(raw: unknown): string | null {
  if (typeof raw !== "string" || raw === "" || raw.length > 2048) return null;
  let host = raw.toLowerCase();
  if (host.includes("/")) {
    try {
      host = new URL(raw).hostname.toLowerCase();
    } catch {
      return null;
    }
  }
  host = host.replace(/:\d{1,5}$/, "");
  return host.length <= 253 && HOST.test(host) ? host : null;
}

/** A referring host as a field name (no dots in a field name), and back. */
export const hostKey = (host: string): string => host.replaceAll(".", "%2E");
export const hostOfKey = (key: string): string => key.replaceAll("%2E", ".");

/**
 * What identifies a visitor within this process until the next flush: a hash of the address
 * and user agent, kept in memory only. The stored hash adds the day's salt and the page
 * (counter.ts), so the same reader of two pages cannot be linked by what is stored.
 */
export function visitorKey(address: string, userAgent: string | undefined): string {
  return sha256(`${address}\n${userAgent ?? ""}`);
}
