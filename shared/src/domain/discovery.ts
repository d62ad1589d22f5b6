// What an agent that knows only the base URL reads to find its way (SPEC §4.4, DESIGN §5).
import type { Config } from "../config";

export function resourceMetadataUrl(baseUrl: string): string {
  return `${baseUrl}/.well-known/oauth-protected-resource`;
}

/** RFC 9728 protected resource metadata for {base_url}/mcp. */
export function protectedResourceMetadata(config: Pick<Config, "BASE_URL">) {
  return {
    resource: `${config.BASE_URL}/mcp`,
    authorization_servers: [config.BASE_URL],
    scopes_supported: ["mcp:read", "mcp:write"],
    bearer_methods_supported: ["header"],
    resource_name: "Atelier MCP server",
    resource_documentation: `${config.BASE_URL}/docs/connect/agents`,
  };
}

/** The WWW-Authenticate value of a 401 or 403 from /mcp. */
export function bearerChallenge(baseUrl: string, opts: { error?: "invalid_token" | "insufficient_scope"; description?: string; scope?: string }): string {
  const parts: string[] = [];
  if (opts.error) parts.push(`error="${opts.error}"`);
  if (opts.description) parts.push(`error_description="${opts.description.replace(/["\\]/g, "")}"`);
  if (opts.scope) parts.push(`scope="${opts.scope}"`);
  parts.push(`resource_metadata="${resourceMetadataUrl(baseUrl)}"`);
  return `Bearer ${parts.join(", ")}`;
}
