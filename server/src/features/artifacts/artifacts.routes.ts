// The browser routes (docs/contract.md#routes).
import { isUtf8 } from "node:buffer";
import { gzipSync } from "node:zlib";
import { getRenderedArtifact } from "@atelier/shared/domain/artifacts";
import { instanceLlmsTxt, workspaceLlmsTxt } from "@atelier/shared/domain/llms-txt";
import { publicTableCsv, publicTableJson } from "@atelier/shared/domain/tables/public-table";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { jsonOf, markdownOf, pageAtVersion, renderedAtVersion } from "@atelier/shared/domain/pages/page-at-version";
import { countServedRead } from "@atelier/shared/domain/analytics/views";
import { resolveShareLink } from "@atelier/shared/domain/share-links";
import { withFileGrants } from "@atelier/shared/domain/files";
import {
  embeddedDocument,
  embeddedEtag,
  escapeHtml,
  isComposedDocument,
  LIVE_WRAPPER_CSP,
  liveWrapperDocument,
  notFoundDocument,
  wrapperEtag,
} from "@atelier/shared/domain/render";
import { AppError } from "@atelier/shared/errors";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { parseInput } from "@atelier/shared/schemas/parse";
import { SummarySchema, TitleSchema, MAX_BODY_BYTES } from "@atelier/shared/schemas/pages";
import express, { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { sessionFromRequest, type Deps } from "../../context";

// No allow-same-origin: an artifact's own scripts run in an opaque origin and can never read
// the app's cookies or call its API.
const ARTIFACT_CSP = "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms allow-modals allow-downloads; frame-ancestors 'self'";

/**
 * A public artifact may be kept by a shared cache (the shipped nginx micro-cache) for one
 * second, and served stale for one more while one request fetches it again; browsers always
 * revalidate (max-age=0) with the ETag. The whole bound is in docs/decisions.md (issue 15).
 * Private answers are `private, no-store`, and every response that depends on a cookie is one.
 */
export const PUBLIC_ARTIFACT_CACHE = "public, max-age=0, s-maxage=1, stale-while-revalidate=1";
export const PRIVATE_ARTIFACT_CACHE = "private, no-store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A pinned version (`@{n}`) is the same bytes for as long as it is kept: browsers keep it
 * (immutable), shared caches for one second like any public page, so that a workspace made
 * private stops being served by the micro-cache within the usual bound (docs/decisions.md).
 */
export const PINNED_ARTIFACT_CACHE = "public, max-age=31536000, s-maxage=1, immutable";

/** What a machine view (`.md`, `.json`) carries besides its type: never a document a browser runs. */
const MACHINE_HEADERS = { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox", "Referrer-Policy": "no-referrer" };

/** `slug`, `slug@3`, `slug.md`, `slug@3.json`: the address, the version pinned and the view asked for. */
const ADDRESS = /^([^@.]+)(?:@([1-9][0-9]{0,8}))?(?:\.(md|json))?$/;

interface Address {
  key: { slug: string } | { pageId: string };
  version: number | undefined;
  view: "html" | "md" | "json";
}

function addressOf(raw: string, id: "slug" | "pageId"): Address | null {
  const m = ADDRESS.exec(raw);
  if (!m) return null;
  const [, name = "", version, view] = m;
  const valid = id === "slug" ? SlugSchema.safeParse(name).success : UUID.test(name);
  if (!valid) return null;
  return {
    key: id === "slug" ? { slug: name } : { pageId: name },
    version: version === undefined ? undefined : Number(version),
    view: (view ?? "html") as Address["view"],
  };
}

/**
 * Counts a read this server answered, when it opens the page (docs/ARCHITECTURE.md#reading-figures):
 * private pages and share links always; a public page only when no proxy in front counted it
 * already (the shipped nginx counts public reads from its own log, cache hits included).
 */
function countRead(deps: Deps, req: Request, at: { workspaceId: string; pageId: string; shareLinkId?: string }, isPublic = false): void {
  const q = req.originalUrl.indexOf("?");
  countServedRead(
    deps.views,
    { method: req.method, query: q < 0 ? "" : req.originalUrl.slice(q + 1), headers: req.headers, address: () => req.ip ?? "" },
    at,
    isPublic,
  );
}

/** Whether the request asks for Markdown rather than HTML (`Accept: text/markdown`). */
function wantsMarkdown(req: Request): boolean {
  return req.accepts(["text/html", "text/markdown"]) === "text/markdown";
}

/**
 * A pinned version (HTML, for those who may read the page), or a machine view (Markdown or
 * JSON, of public pages only: nothing private is ever given as one).
 */
function versionHandler(deps: Deps, address: Address, req: Request, res: Response): Promise<void> | void {
  const reader = address.view === "html" ? async () => (await sessionFromRequest(deps, req)).principal : ({ kind: "nobody" } as const);
  return (async () => {
    const at = await pageAtVersion(deps, reader, address.key, address.version);
    const where = "slug" in address.key ? `/a/${address.key.slug}` : `/artifacts/${address.key.pageId}`;
    if (!at) return notFound(res, address.view === "html" && address.version !== undefined ? `${where}@${address.version}` : null);
    countRead(deps, req, { workspaceId: at.ws._id, pageId: at.page._id }, at.isPublic);
    const cache = !at.isPublic ? PRIVATE_ARTIFACT_CACHE : address.version !== undefined ? PINNED_ARTIFACT_CACHE : PUBLIC_ARTIFACT_CACHE;
    if (address.view === "html") {
      const { html, etag } = await renderedAtVersion(deps, at);
      sendArtifactHeaders(res);
      res.set("Cache-Control", cache);
      if (at.isPublic) {
        res.set("ETag", etag);
        if (etagMatches(req.get("if-none-match"), etag)) return void res.status(304).end();
      }
      return void res.status(200).send(at.isPublic ? html : withFileGrants(deps.config, html, at.ws._id));
    }
    res.set({ ...MACHINE_HEADERS, "Cache-Control": cache });
    if (address.view === "json")
      return void res
        .status(200)
        .type("application/json; charset=utf-8")
        .send(JSON.stringify(await jsonOf(deps, at)));
    res.set("Vary", "Accept");
    res.status(200).type("text/markdown; charset=utf-8").send(markdownOf(deps.config.BASE_URL, at));
  })();
}

/** The headers every artifact answer carries (the lean path in front of the router too). */
export function artifactHeaders(): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ARTIFACT_CSP,
    "Referrer-Policy": "no-referrer",
  };
}

/** The live wrapper's headers (docs/decisions.md#html-artifacts-and-live-updates-issue-25): its own strict policy, no sandbox. */
export function liveWrapperHeaders(): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": LIVE_WRAPPER_CSP,
    "Referrer-Policy": "no-referrer",
  };
}

/**
 * What a public document's answer varies on: Accept (Markdown), Accept-Encoding (it is sent
 * compressed to a client that takes gzip), and for an HTML artifact Sec-Fetch-Dest (a page
 * navigation gets the wrapper).
 */
export function artifactVary(html: string): string {
  return isComposedDocument(html) ? "Accept, Accept-Encoding" : "Accept, Accept-Encoding, Sec-Fetch-Dest";
}

/**
 * Whether a client takes gzip (Accept-Encoding names it, and not with q=0). A public document
 * is then sent compressed, compressed once per version on the lean path, so that nginx's
 * micro-cache stores the compressed copy instead of compressing the page again for every
 * reader it serves (issue 30); `*` is not read as gzip.
 */
export function takesGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";");
    if (name?.trim().toLowerCase() !== "gzip") continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** A public document compressed for a client that takes gzip. */
export function gzipped(html: string | Buffer): Buffer {
  return gzipSync(html, { level: 6 });
}

/** The ETag of the compressed copy: weak, as nginx makes the tag of what it compresses (If-None-Match matches either). */
export function gzippedEtag(etag: string): string {
  return etag.startsWith("W/") ? etag : `W/${etag}`;
}

/** The author's own <title> of an HTML artifact (text only: no markup can be in it). */
function titleOf(html: string): string | null {
  return /<title[^>]*>([^<]{1,200})<\/title>/i.exec(html)?.[1]?.trim() || null;
}

function sendArtifactHeaders(res: Response): void {
  res.set(artifactHeaders());
}

/** The two not-found pages, made once: a share link's, and a page's without a way back. */
const LINK_NOT_FOUND = notFoundDocument({ shareLink: true });
const PAGE_NOT_FOUND = notFoundDocument({ next: null });

/**
 * Nothing to show (missing, or not readable: the same answer). For a page's address the
 * sign-in link comes back to it; `next` is only ever an address this route validated.
 */
function notFound(res: Response, next: string | null = null): void {
  sendArtifactHeaders(res);
  res
    .set("Cache-Control", "no-store")
    .status(404)
    .send(next ? notFoundDocument({ next }) : PAGE_NOT_FOUND);
}

function linkNotFound(res: Response): void {
  sendArtifactHeaders(res);
  res.set("Cache-Control", "no-store").status(404).send(LINK_NOT_FOUND);
}

export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const v = t.trim().replace(/^W\//, "");
    return v === etag || v === "*";
  });
}

function artifactHandler(deps: Deps, by: (req: Request) => { slug: string } | { pageId: string } | null): RequestHandler {
  return async (req, res) => {
    const key = by(req);
    if (!key) return notFound(res);
    // The session is looked up only for a page that is not public: a public read is one lookup.
    const found = await getRenderedArtifact(deps, async () => (await sessionFromRequest(deps, req)).principal, key, {
      fresh: typeof req.query.v === "string",
    });
    if (!found) return notFound(res, "slug" in key ? `/a/${key.slug}` : `/artifacts/${key.pageId}`);
    if (found.kind === "moved") {
      // A page whose address changed: the old one points to the new one for a while.
      res.set("Cache-Control", found.isPublic ? "public, max-age=300, s-maxage=1" : "private, no-store").redirect(301, `/a/${found.slug}`);
      return;
    }
    // The app's page view asks for the document with its sizing script (?embed=1): another representation.
    const embed = req.query.embed === "1";
    // A public HTML artifact opened as a page gets the live wrapper that frames it; everything
    // else, the frame itself included, gets the author's document as given.
    const wrap = found.isPublic && !embed && "slug" in key && !isComposedDocument(found.html) && req.get("sec-fetch-dest") === "document";
    if (wrap) res.set(liveWrapperHeaders());
    else sendArtifactHeaders(res);
    const etag = wrap ? wrapperEtag(found.etag) : embed ? embeddedEtag(found.etag) : found.etag;
    countRead(deps, req, { workspaceId: found.workspaceId, pageId: found.pageId }, found.isPublic);
    const gzip = found.isPublic && !wrap && !embed && takesGzip(req.get("accept-encoding"));
    if (found.isPublic) {
      res.set({ ETag: gzip ? gzippedEtag(etag) : etag, "Cache-Control": PUBLIC_ARTIFACT_CACHE, Vary: artifactVary(found.html) });
      if (etagMatches(req.get("if-none-match"), etag)) {
        res.status(304).end();
        return;
      }
    } else {
      res.set("Cache-Control", PRIVATE_ARTIFACT_CACHE);
    }
    if (wrap) return void res.status(200).send(liveWrapperDocument({ slug: key.slug, title: titleOf(found.html) ?? key.slug }));
    const html = found.isPublic ? found.html : withFileGrants(deps.config, found.html, found.workspaceId);
    if (gzip) return void res.set("Content-Encoding", "gzip").status(200).send(gzipped(html));
    res.status(200).send(embed ? embeddedDocument(html) : html);
  };
}

const HttpCreatePageSchema = z
  .object({
    title: TitleSchema,
    slug: SlugSchema,
    body_markdown: z.string().refine((s) => Buffer.byteLength(s) <= MAX_BODY_BYTES, "must be at most 1 MiB"),
    summary: SummarySchema.optional(),
  })
  .strict();

const requireSession =
  (deps: Deps): RequestHandler =>
  async (req, res, next) => {
    const session = await sessionFromRequest(deps, req);
    if (session.principal.kind !== "user") {
      throw new AppError("unauthorized", "Sign in to the app first; this route takes the app session, not a bearer token.");
    }
    res.locals.principal = session.principal;
    next();
  };

/** JSON bodies only, valid UTF-8, at most a little over the 1 MiB content limit. */
export const jsonBody = express.json({
  limit: MAX_BODY_BYTES + 64 * 1024,
  strict: true,
  verify: (_req, _res, buf) => {
    if (!isUtf8(buf)) throw new AppError("invalid_request", "The request body is not valid UTF-8.");
  },
});

export function artifactRoutes(deps: Deps): Router {
  const r = Router();
  const current = {
    slug: artifactHandler(deps, (req) => (SlugSchema.safeParse(req.params.slug).success ? { slug: String(req.params.slug) } : null)),
    pageId: artifactHandler(deps, (req) => (UUID.test(String(req.params.pageId)) ? { pageId: String(req.params.pageId) } : null)),
  };
  // The current document, unless a version (`@3`), a machine view (`.md`, `.json`) or Markdown
  // by `Accept` is asked for (a page that is not public then answers with its document as ever).
  for (const [path, id] of [
    ["/a/:slug", "slug"],
    ["/artifacts/:pageId", "pageId"],
  ] as const) {
    r.get(path, async (req, res, next) => {
      const raw = String((req.params as Record<string, string>)[id]);
      const address = addressOf(raw, id);
      if (address && address.view === "html" && address.version === undefined && wantsMarkdown(req)) {
        const at = await pageAtVersion(deps, { kind: "nobody" }, address.key, undefined);
        if (at) return versionHandler(deps, { ...address, view: "md" }, req, res);
      }
      if (!address || (address.view === "html" && address.version === undefined)) return current[id](req, res, next);
      return versionHandler(deps, address, req, res);
    });
  }
  // Share links: the secret is the whole credential, so the answer is never cached or indexed
  // and the Referer never carries it onwards.
  const shared: RequestHandler = async (req, res) => {
    const secret = String(req.params.secret);
    const pageSlug = req.params.pageSlug === undefined ? undefined : String(req.params.pageSlug);
    // Only the one spelling opens a link: Express matches routes in any letter case, so
    // `/S/{secret}` would reach here too (and `//s/…` through some front ends). Other forms
    // are refused like a wrong secret, and logged redacted (shared/src/http-log.ts).
    if (!req.originalUrl.startsWith("/s/")) return linkNotFound(res);
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(secret) || (pageSlug !== undefined && !SlugSchema.safeParse(pageSlug).success)) return linkNotFound(res);
    const found = await resolveShareLink(deps, secret, pageSlug);
    if (!found) return linkNotFound(res);
    sendArtifactHeaders(res);
    res.set({ "Cache-Control": PRIVATE_ARTIFACT_CACHE, "X-Robots-Tag": "noindex, nofollow" });
    if (found.kind === "page") {
      countRead(deps, req, { workspaceId: found.workspaceId, pageId: found.pageId, shareLinkId: found.linkId });
      res.status(200).send(withFileGrants(deps.config, found.html, found.workspaceId));
      return;
    }
    const items = found.pages
      .map((p) => `<li><a href="/s/${secret}/${p.slug}">${escapeHtml(p.title)}</a>${p.summary ? ` <span>— ${escapeHtml(p.summary)}</span>` : ""}</li>`)
      .join("\n");
    res.status(200)
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(found.workspace.name)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:44rem;margin:0 auto;padding:2rem 1.25rem}span{color:#60646c}</style></head>
<body><h1>${escapeHtml(found.workspace.name)}</h1><p>Shared with you: ${found.pages.length} page${found.pages.length === 1 ? "" : "s"}.</p><ul>${items}</ul></body></html>`);
  };
  // llms.txt: the public pages, for language models (public content only, cached like /a/).
  r.get("/llms.txt", async (_req, res) => {
    res
      .set({ ...MACHINE_HEADERS, "Cache-Control": PUBLIC_ARTIFACT_CACHE })
      .type("text/plain; charset=utf-8")
      .send(await instanceLlmsTxt(deps));
  });
  r.get("/w/:workspace/llms.txt", async (req, res) => {
    const slug = String(req.params.workspace);
    const text = SlugSchema.safeParse(slug).success ? await workspaceLlmsTxt(deps, slug) : null;
    if (text === null) return notFound(res);
    res
      .set({ ...MACHINE_HEADERS, "Cache-Control": PUBLIC_ARTIFACT_CACHE })
      .type("text/plain; charset=utf-8")
      .send(text);
  });
  // A public table as data: CSV (RFC 4180, a header of the column names) or JSON (list_rows' shape).
  r.get("/w/:workspace/tables/:file", async (req, res) => {
    const workspace = String(req.params.workspace);
    const m = /^([^.]+)\.(csv|json)$/.exec(String(req.params.file));
    const [, table = "", view] = m ?? [];
    const valid = m && SlugSchema.safeParse(workspace).success && SlugSchema.safeParse(table).success;
    const body = valid ? await (view === "csv" ? publicTableCsv : publicTableJson)(deps, workspace, table) : null;
    if (body === null) return notFound(res);
    res
      .set({ ...MACHINE_HEADERS, "Cache-Control": PUBLIC_ARTIFACT_CACHE })
      .type(view === "csv" ? "text/csv; charset=utf-8; header=present" : "application/json; charset=utf-8")
      .send(body);
  });
  r.get("/s/:secret", shared);
  r.get("/s/:secret/:pageSlug", shared);
  r.get("/b/:slug", (req, res) => res.redirect(308, `/app/buckets/${encodeURIComponent(String(req.params.slug))}`));
  r.get("/b/:slug/:pageSlug", (req, res) =>
    res.redirect(308, `/app/buckets/${encodeURIComponent(String(req.params.slug))}/${encodeURIComponent(String(req.params.pageSlug))}`),
  );
  r.post("/api/artifacts/pages", requireSession(deps), jsonBody, async (req, res) => {
    if (!req.is("application/json")) throw new AppError("invalid_request", "Send a JSON body with Content-Type: application/json.");
    const input = parseInput(HttpCreatePageSchema, req.body);
    const { part, collection, page } = await createPage(deps, res.locals.principal, input);
    res.status(201).json({ part, collection, artifact_url: page.artifact_url });
  });
  return r;
}
