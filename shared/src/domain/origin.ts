// Cross-site request refusal, for every state-changing browser request and for /mcp.
// A request is same-origin when the browser says so (Sec-Fetch-Site) or, for older
// browsers, when its Origin is the public origin or the origin it was sent to.

export interface OriginHeaders {
  origin?: string | undefined;
  secFetchSite?: string | undefined;
}

/**
 * True when a browser tells us the request comes from another site. Requests without these
 * headers (curl, agents, server-to-server) are not cross-site: there is no ambient browser
 * credential for a forger to borrow.
 */
export function isCrossSite(h: OriginHeaders, allowedOrigins: string[]): boolean {
  if (h.secFetchSite && h.secFetchSite !== "same-origin" && h.secFetchSite !== "none") return true;
  if (h.origin === undefined) return false;
  if (h.origin === "null") return true;
  return !allowedOrigins.includes(h.origin.toLowerCase());
}

export function originOf(url: string): string {
  return new URL(url).origin.toLowerCase();
}
