// The one check of where this server may connect on someone else's say (a client ID metadata
// document's URL, a webhook endpoint): never a loopback, private, link-local, metadata or
// otherwise non-public address unless the deployment allows it (development and tests). The
// check runs on the address actually connected to, through a DNS lookup hook, so a name that
// resolves to a public address once and to a private one later gains nothing; callers never
// follow redirects (docs/security.md#outbound-requests).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

// Addresses that are not on the public internet (RFC 6890 and friends).
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv4");
}
// IPv6 forms that carry an IPv4 address are refused whole (but the dotted `::ffff:a.b.c.d`,
// judged by its IPv4 address below):
// IPv4-compatible (`::/96`, so `[::7f00:1]` is 127.0.0.1), IPv4-mapped (`::ffff:0:0/96`),
// IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4
// (`2002::/16`) and Teredo (`2001::/32`). A server on the public internet has a plain IPv4
// or IPv6 address.
for (const [net, prefix] of [
  ["::", 96],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2001::", 32],
  ["2002::", 16],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4) {
    return isPublicAddress(address.slice(7));
  }
  return !NON_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The error code of a connection refused by the lookup hook. */
export const NON_PUBLIC_CODE = "ENONPUBLIC";

/** Whether a URL's host is an IP literal that is not public (names are judged when resolved). */
export function isNonPublicLiteral(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return isIP(h) !== 0 && !isPublicAddress(h);
}

/** A DNS lookup for http(s).request that resolves only to public addresses (unless `allowNonPublic`). */
export function guardedLookup(allowNonPublic: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = (addresses as unknown as LookupAddress[]).filter((a) => allowNonPublic || isPublicAddress(a.address));
      const first = list[0];
      if (!first) {
        const e = Object.assign(new Error("resolves only to loopback or private addresses"), { code: NON_PUBLIC_CODE });
        return callback(e, "", 4);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}
