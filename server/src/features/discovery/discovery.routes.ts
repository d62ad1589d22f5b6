import { authMarkdown, authorizationServerMetadata, connectGuideHtml, protectedResourceMetadata } from "@atelier/shared/domain/discovery";
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
  const asm = authorizationServerMetadata(config);
  r.get("/.well-known/oauth-authorization-server", (_req, res) => {
    res.set({ "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" }).json(asm);
  });
  const authMd = authMarkdown(config);
  r.get("/auth.md", (_req, res) => {
    res.set({ "Content-Type": "text/markdown; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" }).send(authMd);
  });
  const guide = connectGuideHtml(config);
  r.get("/docs/connect/agents", (_req, res) => {
    res.set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" }).send(guide);
  });
  return r;
}
