// GET /api/workspaces/:slug/export and POST /api/workspaces/:slug/import (issue 31): a
// workspace's pages, tables, files and comments (with ?history=1, every kept version of its
// pages too) out as one zip, and a zip (an export, or Markdown files) in.
// Owners only, by their session; the rules are the domain's (shared/src/domain/workspace-archive).
import { pipeline } from "node:stream/promises";
import { exportWorkspace } from "@atelier/shared/domain/workspace-archive/export-workspace";
import { importWorkspace } from "@atelier/shared/domain/workspace-archive/import-workspace";
import { AppError } from "@atelier/shared/errors";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { ExportWorkspaceQuerySchema } from "@atelier/shared/schemas/workspace-archive";
import express, { Router, type Request } from "express";
import { sessionFromRequest, type Deps } from "../../context";

/** The largest upload read (compressed); what it unpacks to is capped by the domain. */
export const IMPORT_UPLOAD_BYTES = 32 * 1024 * 1024;

const slugOf = (req: Request) => {
  const r = SlugSchema.safeParse(req.params.slug);
  if (!r.success) throw new AppError("not_found", "No such workspace.");
  return r.data;
};

export function workspaceArchiveRoutes(deps: Deps): Router {
  const r = Router();
  r.get("/api/workspaces/:slug/export", async (req, res) => {
    const { principal } = await sessionFromRequest(deps, req);
    const query = ExportWorkspaceQuerySchema.safeParse(req.query);
    if (!query.success) throw new AppError("invalid_request", "history is 1 or 0.");
    const out = await exportWorkspace(deps, principal, { workspace: slugOf(req), history: query.data.history });
    res.set({
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${out.filename}"`,
      "Cache-Control": "no-store",
    });
    await pipeline(out.stream, res);
  });
  r.post("/api/workspaces/:slug/import", express.raw({ type: () => true, limit: IMPORT_UPLOAD_BYTES }), async (req, res) => {
    const { principal } = await sessionFromRequest(deps, req);
    const workspace = slugOf(req);
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw new AppError("invalid_request", "Send the zip archive as the request body.");
    const result = await importWorkspace(deps, principal, { workspace, archive: req.body });
    res.set("Cache-Control", "no-store").status(201).json(result);
  });
  return r;
}
