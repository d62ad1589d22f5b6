// Who the MCP server is, said once: the `serverInfo` every connection gets, the server card
// clients may read before connecting (MCP Server Cards, SEP-2127: `/mcp/server-card`, and
// `/.well-known/mcp/server-card.json` where older drafts look), the MCP catalog that points
// to it (`/.well-known/mcp/catalog.json`), and the icons of the tools
// (docs/decisions.md#agents-send-and-read-little-issue-26).
import type { Config } from "../config";
import { ATELIER_VERSION } from "../version";

/** Every protocol revision /mcp answers: 2026-07-28 (stateless, server/discover) and the 2024–2025 initialize handshake. */
export const MCP_PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

export const SERVER_CARD_TYPE = "application/mcp-server-card+json";
const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";
const DESCRIPTION = "Pages, HTML documents and data tables that people and agents keep, update and publish together.";

interface Icon {
  src: string;
  mimeType: string;
  sizes: string[];
}

const icon = (baseUrl: string, file: string): Icon => ({ src: `${baseUrl}/app/${file}`, mimeType: "image/svg+xml", sizes: ["any"] });

/** The `serverInfo` of every MCP connection (initialize and server/discover). */
export function serverInfo(config: Pick<Config, "BASE_URL">) {
  return {
    name: "atelier",
    title: "Atelier",
    version: ATELIER_VERSION,
    description: DESCRIPTION,
    websiteUrl: config.BASE_URL,
    icons: [icon(config.BASE_URL, "favicon.svg")],
  };
}

/** A reverse-DNS name for this instance's server: `com.example.atelier/atelier` for https://atelier.example.com. */
export function serverCardName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").replace(/[^a-zA-Z0-9.-]/g, "-");
  return `${host.split(".").reverse().join(".")}/atelier`;
}

/** The server card (SEP-2127): identity, the Streamable HTTP endpoint and the protocol revisions it speaks. */
export function serverCard(config: Pick<Config, "BASE_URL">) {
  const info = serverInfo(config);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverCardName(config.BASE_URL),
    version: info.version,
    title: info.title,
    description: info.description,
    websiteUrl: `${config.BASE_URL}/docs/connect/agents`,
    icons: info.icons,
    remotes: [{ type: "streamable-http" as const, url: `${config.BASE_URL}/mcp`, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] }],
    _meta: {
      // How to sign in, for clients that read the card first: OAuth (RFC 9728 metadata) or a token.
      "dev.atelier/auth": {
        protectedResourceMetadata: `${config.BASE_URL}/.well-known/oauth-protected-resource/mcp`,
        guide: `${config.BASE_URL}/auth.md`,
      },
    },
  };
}

/** The MCP catalog of this domain: one entry, this server's card. */
export function mcpCatalog(config: Pick<Config, "BASE_URL">) {
  const host = new URL(config.BASE_URL).hostname;
  return {
    specVersion: "draft",
    entries: [{ identifier: `urn:air:${host}:atelier`, displayName: "Atelier", type: SERVER_CARD_TYPE, url: `${config.BASE_URL}/mcp/server-card` }],
  };
}

export type ToolFamily = "page" | "table" | "workspace" | "changes" | "comment" | "file" | "account";

/** Which picture a tool gets, from its name: the thing it works on. */
export function toolFamily(name: string): ToolFamily {
  if (name === "whoami") return "account";
  if (/comment/.test(name)) return "comment";
  if (/image|file/.test(name)) return "file";
  if (/row|collection|table/.test(name)) return "table";
  if (/page/.test(name)) return "page";
  if (/changes/.test(name)) return "changes";
  return "workspace";
}

/** A tool's icons (MCP 2025-11-25 `icons`), served by the app beside its favicon. */
export function toolIcons(baseUrl: string, name: string): Icon[] {
  return [icon(baseUrl, `icons/${toolFamily(name)}.svg`)];
}
