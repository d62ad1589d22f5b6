// Ready-to-paste configuration for common MCP clients, built from the app's own origin
// (the MCP server is at {origin}/mcp) and a freshly issued credential.

export interface ClientConfig {
  id: "claude-code" | "mcp-json" | "vscode" | "inspector";
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
      id: "vscode",
      name: "VS Code",
      hint: "In .vscode/mcp.json (VS Code uses a top-level “servers” key and “type”: “http”).",
      language: "json",
      text: JSON.stringify({ servers: { atelier: { type: "http", url, headers: { Authorization: `Bearer ${credential}` } } } }, null, 2),
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

export interface SignInStep {
  id: "claude" | "chatgpt" | "cursor" | "vscode" | "claude-code";
  name: string;
  /** What to do in that app, in order; the last step is always signing in here and allowing. */
  steps: string[];
  /** A file or command to use as printed, when the app takes one. */
  snippet?: { language: "shell" | "json"; label: string; text: string };
}

/** "Add the URL, then sign in": how each common MCP client connects through OAuth. */
export function signInGuides(origin: string): SignInStep[] {
  const url = mcpEndpoint(origin);
  const allow = "Your browser opens Atelier: sign in with your e-mail code, check what the app asks for, and choose Allow.";
  return [
    {
      id: "claude",
      name: "Claude.ai and Claude Desktop",
      steps: ["Open Settings → Connectors and choose “Add custom connector”.", `Name it Atelier and paste ${url} as the URL; leave the OAuth fields empty.`, "Choose Connect.", allow],
    },
    {
      id: "chatgpt",
      name: "ChatGPT",
      steps: ["Open Settings → Apps & Connectors (with developer mode on) and create a connector.", `Paste ${url} as the MCP server URL and choose OAuth as the authentication.`, allow],
    },
    {
      id: "cursor",
      name: "Cursor",
      steps: ["Add the server to ~/.cursor/mcp.json (or a project’s .cursor/mcp.json):", "In Cursor’s MCP settings, choose “Needs login” next to atelier.", allow],
      snippet: { language: "json", label: "mcp.json", text: JSON.stringify({ mcpServers: { atelier: { url } } }, null, 2) },
    },
    {
      id: "vscode",
      name: "VS Code",
      steps: ["Add the server to .vscode/mcp.json (a top-level “servers” key, “type”: “http”):", "Choose Start above the server in that file, then Allow when VS Code asks to sign in.", allow],
      snippet: { language: "json", label: ".vscode/mcp.json", text: JSON.stringify({ servers: { atelier: { type: "http", url } } }, null, 2) },
    },
    {
      id: "claude-code",
      name: "Claude Code",
      steps: ["Add the server once:", "In Claude Code, type /mcp, pick atelier and choose Authenticate.", allow],
      snippet: { language: "shell", label: "Terminal", text: `claude mcp add --transport http atelier ${shellQuote(url)}` },
    },
  ];
}
