// Files (docs/security.md#files): served from their content address like an artifact —
// `nosniff`, a sandbox CSP, a download unless browsers show the type inertly — to those who
// may read the workspace (a session, or the grant a private page or a share link carries,
// docs/security.md#files), to anyone when it is public.
// Upload URLs take a PUT of the raw bytes.
import { findServedFile, fileHeaders, type ServedFile } from "@atelier/shared/domain/files";
import { receiveUpload } from "@atelier/shared/domain/uploads";
import { AppError } from "@atelier/shared/errors";
import { Router, type Request, type Response } from "express";
import { sessionFromRequest, type Deps } from "../../context";
import { etagMatches } from "../artifacts/artifacts.routes";

/** A content address never changes: browsers keep public files for good, shared caches for a second (visibility may change). */
export const PUBLIC_FILE_CACHE = "public, max-age=31536000, s-maxage=1, immutable";
/** A private file: the browser may keep it a while, no shared cache ever. */
export const PRIVATE_FILE_CACHE = "private, max-age=3600, immutable";

function notFound(res: Response): void {
  res
    .status(404)
    .set({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox" })
    .json({ error: "not_found", error_description: "No such file, or you may not read it." });
}

async function send(req: Request, res: Response, found: ServedFile | null, granted = false): Promise<void> {
  if (!found) return notFound(res);
  res.set(fileHeaders(found.file, found.isPublic || granted));
  res.set("Cache-Control", found.isPublic ? PUBLIC_FILE_CACHE : PRIVATE_FILE_CACHE);
  if (etagMatches(req.get("if-none-match"), `"${found.file.sha256}"`)) {
    res.removeHeader("Content-Length");
    return void res.status(304).end();
  }
  res.status(200);
  if (req.method === "HEAD") return void res.end();
  for await (const chunk of found.chunks()) {
    if (!res.write(chunk)) await new Promise<void>((resolve) => res.once("drain", resolve));
    if (res.destroyed) return;
  }
  res.end();
}

/** The raw body, refused with 413 as soon as it is declared or counted past `limit`. */
function readBody(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new AppError("payload_too_large", `A file holds at most ${limit} bytes (${Math.floor(limit / (1024 * 1024))} MB).`, {
        details: { limit: "file_bytes", max: limit },
      });
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", (err) => {
      if (!done) reject(err);
    });
  });
}

export function fileRoutes(deps: Deps): Router {
  const r = Router();
  r.get("/files/:workspace/:name", async (req, res) => {
    const reader = async () => (await sessionFromRequest(deps, req)).principal;
    await send(req, res, await findServedFile(deps, reader, String(req.params.workspace), String(req.params.name)));
  });
  // With a grant given with a private page (to a member, or through a share link).
  r.get("/files/g/:grant/:workspace/:name", async (req, res) => {
    await send(req, res, await findServedFile(deps, { grant: String(req.params.grant) }, String(req.params.workspace), String(req.params.name)), true);
  });
  r.put("/files/uploads/:secret", async (req, res) => {
    const data = await readBody(req, deps.config.FILE_MAX_BYTES);
    const { file } = await receiveUpload(deps, String(req.params.secret), data);
    res.status(201).set("Cache-Control", "no-store").json({ file });
  });
  return r;
}
