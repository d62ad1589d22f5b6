import { authMarkdown, authorizationServerMetadata, connectGuideHtml, protectedResourceMetadata } from "@atelier/shared/domain/discovery";
import { mcpCatalog, serverCard, SERVER_CARD_TYPE } from "@atelier/shared/domain/server-card";
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
  // The MCP server card (SEP-2127) where the extension reserves it and where earlier drafts
  // looked, and the domain's MCP catalog naming it. CORS-open and cached for an hour, as the
  // discovery draft asks.
  const discoveryHeaders = { "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" };
  const card = JSON.stringify(serverCard(config));
  for (const path of ["/mcp/server-card", "/.well-known/mcp/server-card.json"]) {
    r.get(path, (req, res) => {
      // The card's own type to those who ask for it (as the draft says to), JSON to everyone else.
      const type = req.accepts(["application/json", SERVER_CARD_TYPE]) === SERVER_CARD_TYPE ? SERVER_CARD_TYPE : "application/json";
      res.set({ ...discoveryHeaders, "Content-Type": `${type}; charset=utf-8`, Vary: "Accept" }).send(card);
    });
  }
  const catalog = mcpCatalog(config);
  r.get("/.well-known/mcp/catalog.json", (_req, res) => {
    res.set(discoveryHeaders).json(catalog);
  });
  const guide = connectGuideHtml(config);
  r.get("/docs/connect/agents", (_req, res) => {
    res.set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" }).send(guide);
  });
  return r;
}
