// Ready-to-paste configuration for common MCP clients, built from the app's own origin
// (the MCP server is at {origin}/mcp) and a freshly issued credential.

export interface ClientConfig {
  id: "claude-code" | "mcp-json" | "inspector";
  name: string;
  /** Where this goes, in one sentence. */
  hint: string;
  language: "shell" | "json";
  text: string;
}

/** A single-quoted shell word: safe for any credential or URL. */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function mcpEndpoint(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/mcp`;
}

export function clientConfigs(origin: string, credential: string): ClientConfig[] {
  const url = mcpEndpoint(origin);
  const header = `Authorization: Bearer ${credential}`;
  return [
    {
      id: "claude-code",
      name: "Claude Code",
      hint: "Run this once in a terminal; Claude Code remembers the server.",
      language: "shell",
      text: `claude mcp add --transport http atelier ${shellQuote(url)} --header ${JSON.stringify(header)}`,
    },
    {
      id: "mcp-json",
      name: "mcp.json",
      hint: "For clients set up with an mcp.json file, such as Cursor, or a project’s .mcp.json for Claude Code.",
      language: "json",
      text: JSON.stringify(
        { mcpServers: { atelier: { type: "http", url, headers: { Authorization: `Bearer ${credential}` } } } },
        null,
        2,
      ),
    },
    {
      id: "inspector",
      name: "Inspector",
      hint: "Check the connection with the MCP Inspector: this lists the tools the token may use.",
      language: "shell",
      text: `npx @modelcontextprotocol/inspector --cli ${shellQuote(url)} --transport http --header ${JSON.stringify(header)} --method tools/list`,
    },
  ];
}
