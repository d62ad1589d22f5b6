// Who an OAuth client is (docs/ARCHITECTURE.md#oauth): a client ID metadata document fetched from the URL that
// is the client_id, or a dynamic registration. This file holds the rules both share (which
// redirect URIs are acceptable) and the bounded fetch of a metadata document: no redirects,
// a timeout, a size cap, JSON only, `client_id` equal to its URL, and no loopback, private or
// otherwise non-public address unless OAUTH_ALLOW_LOOPBACK_CLIENTS is on. The address check
// runs on the address actually connected to (a DNS lookup hook, shared with webhook deliveries: outbound.ts), so a name that resolves to a
// public address once and to a private one later gains nothing.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Config } from "../config";
import { guardedLookup, isNonPublicLiteral, isPublicAddress } from "./outbound";

export { isPublicAddress };

/** The draft's advice: a metadata document is small. */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;

export class ClientDocumentError extends Error {
  constructor(
    /** The OAuth error for it: `invalid_client` (cannot be used) or `invalid_client_metadata` (says the wrong thing). */
    readonly error: "invalid_client" | "invalid_client_metadata",
    message: string,
  ) {
    super(message);
    this.name = "ClientDocumentError";
  }
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** localhost, 127.0.0.0/8 and [::1]: a program on the person's own computer. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Whether a client_id has the shape of a metadata document URL this server may fetch:
 * https with a path, no fragment, no user info, no dot segments; http only for loopback
 * hosts when loopback clients are allowed (development and tests).
 */
export function isClientDocumentUrl(config: Pick<Config, "OAUTH_ALLOW_LOOPBACK_CLIENTS">, id: string): boolean {
  if (id.length > 2000 || /[\s\\]/.test(id)) return false;
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && config.OAUTH_ALLOW_LOOPBACK_CLIENTS && isLoopbackHost(url.hostname))) return false;
  if (url.username || url.password || id.includes("#") || url.pathname === "/" || url.pathname === "") return false;
  if (
    id
      .split(/[?#]/)[0]
      ?.split("/")
      .some((seg) => seg.replace(/%2e/gi, ".") === "." || seg.replace(/%2e/gi, ".") === "..")
  )
    return false;
  return true;
}

/**
 * Client metadata that names a URL this authorization server would fetch or call on its own
 * (signing keys, a pairwise sector document, request objects, logout and notification
 * endpoints). Public clients need none of them, and each would make this server connect
 * where a stranger says, so a registration or a metadata document naming one is refused.
 */
export const FETCHED_URL_METADATA = [
  "jwks_uri",
  "sector_identifier_uri",
  "request_uris",
  "backchannel_logout_uri",
  "frontchannel_logout_uri",
  "backchannel_client_notification_endpoint",
  "post_logout_redirect_uris",
  "initiate_login_uri",
] as const;

/**
 * What is wrong with client metadata (a registration request or a metadata document) for
 * this server, which serves public clients only: the `invalid_client_metadata` description,
 * or null. A missing `token_endpoint_auth_method` means "none" here; nothing else is accepted.
 */
export function clientMetadataProblem(m: Record<string, unknown>): string | null {
  if (m.token_endpoint_auth_method !== undefined && m.token_endpoint_auth_method !== "none") {
    return 'Only public clients are supported here: token_endpoint_auth_method must be "none" (no client secret is issued).';
  }
  if ("client_secret" in m || "client_secret_expires_at" in m) return "A public client has no client_secret; remove it.";
  for (const key of FETCHED_URL_METADATA) {
    if (m[key] !== undefined)
      return `${key} is not accepted: this server fetches no URL a client names (only a client ID metadata document, by its client_id).`;
  }
  return null;
}

/** Redirect URIs a client may use: https anywhere, http only on loopback (RFC 8252 §7.3), or an app's own scheme (§7.1). */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== "string" || uri.length > 2000) return "must be a URL";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must be a URL";
  }
  if (url.hash || uri.includes("#")) return "must not contain a fragment";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:") return isLoopbackHost(url.hostname) ? null : "may use http: only on a loopback address (127.0.0.1, [::1] or localhost)";
  if (["javascript:", "data:", "file:", "blob:", "about:", "vbscript:", "ftp:", "ws:", "wss:"].includes(url.protocol))
    return `must not use the ${url.protocol} scheme`;
  return null;
}

/**
 * Fetches and checks a client ID metadata document. Answers its JSON object and how long it
 * may be reused (seconds, from Cache-Control within 60 s … 1 h), or throws ClientDocumentError.
 */
export async function fetchClientDocument(
  config: Pick<Config, "OAUTH_ALLOW_LOOPBACK_CLIENTS" | "OAUTH_CLIENT_FETCH_TIMEOUT_SECONDS">,
  clientId: string,
): Promise<{ metadata: Record<string, unknown>; maxAgeSeconds: number }> {
  if (!isClientDocumentUrl(config, clientId)) throw new ClientDocumentError("invalid_client", "The client_id is not a usable client metadata document URL.");
  const url = new URL(clientId);
  const allowNonPublic = config.OAUTH_ALLOW_LOOPBACK_CLIENTS;
  if (!allowNonPublic && isNonPublicLiteral(url.hostname)) {
    throw new ClientDocumentError("invalid_client", "The client metadata document is on a loopback or private address, which this server does not fetch.");
  }
  const timeoutMs = config.OAUTH_CLIENT_FETCH_TIMEOUT_SECONDS * 1000;
  const body = await new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
    const fail = (message: string) => reject(new ClientDocumentError("invalid_client", message));
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: "GET", headers: { accept: "application/json", "user-agent": "Atelier-OAuth" }, lookup: guardedLookup(allowNonPublic), timeout: timeoutMs },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          // The other server's status and body stay out of our answer: it is not ours to relay.
          return fail("The client metadata document could not be fetched: its URL must answer with the document itself (redirects are not followed).");
        }
        const declared = Number(res.headers["content-length"] ?? "0");
        if (declared > CLIENT_DOCUMENT_MAX_BYTES) {
          res.destroy();
          return fail(`The client metadata document is larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes.`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > CLIENT_DOCUMENT_MAX_BYTES) {
            res.destroy();
            fail(`The client metadata document is larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes.`);
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ res, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", () => fail("The client metadata document could not be read."));
      },
    );
    // One deadline for the whole exchange, not only for idle sockets.
    const deadline = setTimeout(() => {
      req.destroy();
      fail(`The client metadata document did not arrive within ${config.OAUTH_CLIENT_FETCH_TIMEOUT_SECONDS} s.`);
    }, timeoutMs);
    req.on("timeout", () => req.destroy());
    req.on("close", () => clearTimeout(deadline));
    req.on("error", (err: NodeJS.ErrnoException) => {
      fail(
        err.code === "ENONPUBLIC"
          ? "The client metadata document's host resolves to a loopback or private address, which this server does not fetch."
          : "The client metadata document could not be fetched (the host is unreachable).",
      );
    });
    req.end();
  });

  const type =
    String(body.res.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase() ?? "";
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    throw new ClientDocumentError("invalid_client_metadata", "The client metadata document must be served as application/json.");
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(body.text);
  } catch {
    throw new ClientDocumentError("invalid_client_metadata", "The client metadata document is not valid JSON.");
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw new ClientDocumentError("invalid_client_metadata", "The client metadata document must be a JSON object.");
  }
  const m = metadata as Record<string, unknown>;
  if (m.client_id !== clientId)
    throw new ClientDocumentError("invalid_client_metadata", "The client metadata document's client_id differs from the URL it was fetched from.");
  const problem = clientMetadataProblem(m);
  if (problem) throw new ClientDocumentError("invalid_client_metadata", problem);
  if (!Array.isArray(m.redirect_uris) || m.redirect_uris.length === 0) {
    throw new ClientDocumentError("invalid_client_metadata", "The client metadata document must list redirect_uris.");
  }
  const cc = String(body.res.headers["cache-control"] ?? "");
  const maxAge = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cc)?.[1];
  const maxAgeSeconds = Math.max(60, Math.min(3600, maxAge === undefined ? 300 : Number(maxAge)));
  return { metadata: { ...m, token_endpoint_auth_method: "none" }, maxAgeSeconds };
}
