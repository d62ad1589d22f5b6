// The browser routes (docs/contract.md#routes).
import { isUtf8 } from "node:buffer";
import { getRenderedArtifact } from "@atelier/shared/domain/artifacts";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { resolveShareLink } from "@atelier/shared/domain/share-links";
import { embeddedDocument, embeddedEtag, escapeHtml, notFoundDocument } from "@atelier/shared/domain/render";
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

/** The headers every artifact answer carries (the lean path in front of the router too). */
export function artifactHeaders(): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ARTIFACT_CSP,
    "Referrer-Policy": "no-referrer",
  };
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
    const found = await getRenderedArtifact(deps, async () => (await sessionFromRequest(deps, req)).principal, key);
    if (!found) return notFound(res, "slug" in key ? `/a/${key.slug}` : `/artifacts/${key.pageId}`);
    if (found.kind === "moved") {
      // A page whose address changed: the old one points to the new one for a while.
      res.set("Cache-Control", found.isPublic ? "public, max-age=300, s-maxage=1" : "private, no-store").redirect(301, `/a/${found.slug}`);
      return;
    }
    sendArtifactHeaders(res);
    // The app's page view asks for the document with its sizing script (?embed=1): another representation.
    const embed = req.query.embed === "1";
    const etag = embed ? embeddedEtag(found.etag) : found.etag;
    if (found.isPublic) {
      res.set({ ETag: etag, "Cache-Control": PUBLIC_ARTIFACT_CACHE });
      if (etagMatches(req.get("if-none-match"), etag)) {
        res.status(304).end();
        return;
      }
    } else {
      res.set("Cache-Control", PRIVATE_ARTIFACT_CACHE);
    }
    res.status(200).send(embed ? embeddedDocument(found.html) : found.html);
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
  r.get(
    "/a/:slug",
    artifactHandler(deps, (req) => (SlugSchema.safeParse(req.params.slug).success ? { slug: String(req.params.slug) } : null)),
  );
  r.get(
    "/artifacts/:pageId",
    artifactHandler(deps, (req) => (UUID.test(String(req.params.pageId)) ? { pageId: String(req.params.pageId) } : null)),
  );
  // Share links: the secret is the whole credential, so the answer is never cached or indexed
  // and the Referer never carries it onwards.
  const shared: RequestHandler = async (req, res) => {
    const secret = String(req.params.secret);
    const pageSlug = req.params.pageSlug === undefined ? undefined : String(req.params.pageSlug);
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(secret) || (pageSlug !== undefined && !SlugSchema.safeParse(pageSlug).success)) return linkNotFound(res);
    const found = await resolveShareLink(deps, secret, pageSlug);
    if (!found) return linkNotFound(res);
    sendArtifactHeaders(res);
    res.set({ "Cache-Control": PRIVATE_ARTIFACT_CACHE, "X-Robots-Tag": "noindex, nofollow" });
    if (found.kind === "page") {
      res.status(200).send(found.html);
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
