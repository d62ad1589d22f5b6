// The lean read path (issue 15): GET and HEAD /a/{slug} for a public page this process
// already holds in its read cache, answered straight from node:http, before Express, its
// router and pino-http, with the document kept as bytes, its headers built once and one
// buffered log line written from a template (issue 30). Anything
// else (a miss, a query string, a private page, a redirect, another method or path) goes to
// the full app unchanged, which fills the cache. The answer is exactly the full route's:
// same status, headers and CSP (lean-artifacts.db.test.ts compares them).
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import { cachedPublicArtifact } from "@atelier/shared/domain/artifacts";
import { SLUG_PATTERN } from "@atelier/shared/schemas/common";
import { requestLineWriter } from "@atelier/shared/http-log";
import type { Logger } from "@atelier/shared/logger";
import type { ReadCache } from "@atelier/shared/domain/cache";
import type { ViewCounter } from "@atelier/shared/domain/analytics/counter";
import { countServedRead } from "@atelier/shared/domain/analytics/views";
import { isComposedDocument } from "@atelier/shared/domain/render";
import { artifactHeaders, artifactVary, etagMatches, gzipped, gzippedEtag, PUBLIC_ARTIFACT_CACHE, takesGzip } from "../features/artifacts/artifacts.routes";

export interface LeanFront {
  listener: RequestListener;
  /** How many requests the lean path answered (tests and the bench read it). */
  readonly served: number;
}

export interface LeanDeps {
  cache: ReadCache;
  logger: Logger;
  /** Counts the views this path answers when no proxy in front counts them (docs/ARCHITECTURE.md#reading-figures). */
  views?: ViewCounter;
}

export function leanArtifactFront(deps: LeanDeps, app: RequestListener): LeanFront {
  // The client's address as the app reads it (Express's req.ip: TRUST_PROXY's peers only).
  const trust = (app as { get?: (name: string) => unknown }).get?.("trust proxy fn");
  const addressOf = (req: IncomingMessage): string =>
    typeof trust === "function" ? proxyaddr(req, trust as (addr: string, hop: number) => boolean) : (req.socket.remoteAddress ?? "");
  // The bytes of each cached document, for as long as its cache entry lives.
  // The bytes of each cached document and its headers (with and without Content-Length), for as long as its cache entry lives.
  interface Entry {
    body: Buffer;
    wrapped: boolean;
    headers: Record<string, string>;
    ok: Record<string, string>;
    /** Compressed on the first request that takes gzip. */
    gzip?: { body: Buffer; headers: Record<string, string>; ok: Record<string, string> };
  }
  const bytes = new WeakMap<object, Entry>();
  const logLine = requestLineWriter(deps.logger);
  let served = 0;
  let nextId = 0;
  const listener: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "";
    const method = req.method;
    if ((method !== "GET" && method !== "HEAD") || !url.startsWith("/a/") || url.includes("?", 3)) return app(req, res);
    // Markdown asked for by Accept is another representation: the full route answers it.
    if (req.headers.accept?.includes("text/markdown")) return app(req, res);
    const slug = url.slice(3);
    if (!SLUG_PATTERN.test(slug)) return app(req, res);
    const doc = deps.cache.enabled ? cachedPublicArtifact(deps, slug) : null;
    if (!doc) return app(req, res);
    let entry = bytes.get(doc);
    if (!entry) {
      const body = Buffer.from(doc.html, "utf8");
      const headers = { ...artifactHeaders(), ETag: doc.etag, "Cache-Control": PUBLIC_ARTIFACT_CACHE, Vary: artifactVary(doc.html) };
      entry = { body, wrapped: !isComposedDocument(doc.html), headers, ok: { ...headers, "Content-Length": String(body.length) } };
      bytes.set(doc, entry);
    }
    // An HTML artifact opened as a page: the full route answers with its live wrapper.
    if (entry.wrapped && req.headers["sec-fetch-dest"] === "document") return app(req, res);
    const startedAt = performance.now();
    served++;
    countServedRead(deps.views, { method, query: "", headers: req.headers, address: () => addressOf(req) }, doc, true);
    let answer: { body: Buffer; headers: Record<string, string>; ok: Record<string, string> } = entry;
    if (takesGzip(req.headers["accept-encoding"])) {
      if (!entry.gzip) {
        const body = gzipped(entry.body);
        const headers = { ...entry.headers, ETag: gzippedEtag(doc.etag) };
        entry.gzip = { body, headers, ok: { ...headers, "Content-Encoding": "gzip", "Content-Length": String(body.length) } };
      }
      answer = entry.gzip;
    }
    if (etagMatches(req.headers["if-none-match"], doc.etag)) {
      res.writeHead(304, answer.headers);
      res.end();
    } else {
      res.writeHead(200, answer.ok);
      if (method === "HEAD") res.end();
      else res.end(answer.body);
    }
    // The same line pino-http writes for every other request; the logger given here buffers it.
    logLine({ id: `lean-${++nextId}`, method, url, statusCode: res.statusCode, startedAt });
  };
  return {
    listener,
    get served() {
      return served;
    },
  };
}
