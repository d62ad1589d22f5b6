import { protectedResourceMetadata } from "@atelier/shared/domain/discovery";
import { Router } from "express";
import type { Deps } from "../../context";

export function discoveryRoutes({ config }: Deps): Router {
  const r = Router();
  const prm = protectedResourceMetadata(config);
  // RFC 9728 at the root, and path-suffixed for the /mcp resource (clients try both).
  for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
    r.get(path, (_req, res) => {
      res.set({ "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" }).json(prm);
    });
  }
  return r;
}
