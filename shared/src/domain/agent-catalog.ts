// What agents are told, from one source (issue 16 item 3): the MCP tools and prompts this
// server offers, what each error code asks the caller to do, and the ready-to-paste client
// configurations. The sidecar registers its tools and prompts from here, /auth.md and the
// connect guide (discovery.ts) and the app's connect screens print from here, and tests
// exercise what is printed. Browser-safe: the SPA imports it.
// Longer than 300 lines on purpose: it is one table (tools, prompts, advice, snippets), and
// one source is the point.
import { ERROR_TABLE, type ErrorCode } from "../errors";

/** read: mcp:read (or no token, for public workspaces); write: mcp:write; admin: mcp:write, never an unclaimed sandbox token. */
export type ToolAccess = "read" | "write" | "admin";

export interface ToolEntry {
  title: string;
  description: string;
  access: ToolAccess;
}

/** Every tool, in the order tools/list gives them. */
export const TOOL_CATALOG = {
  whoami: {
    title: "Who am I",
    description:
      "Tells who this connection acts as: the token (its label, scopes, expiry, workspace restriction) and the person it acts for, or that no token was sent (public reads only).",
    access: "read",
  },
  list_workspaces: {
    title: "List workspaces",
    description: "Lists the workspaces this token can reach, with your role and whether you can write there.",
    access: "read",
  },
  get_workspace: {
    title: "Get a workspace",
    description: "Describes one workspace by its slug. Public workspaces can be read without a token.",
    access: "read",
  },
  list_pages: {
    title: "List pages",
    description: "Lists the pages of a workspace in slug order, a page of results at a time (follow next_cursor).",
    access: "read",
  },
  get_page: {
    title: "Get a page",
    description:
      "Reads one page, with its parts (Markdown or HTML), version and who last changed it. Give slug or page_id; give `version` to read a kept earlier version as it was.",
    access: "read",
  },
  search_pages: {
    title: "Search pages",
    description:
      "Finds pages by the words of their title, address, summary or text (whole words, any case or accents), in one workspace or in all you can read; best matches first, each with a score and the passage that matched (highlights: [start, end) offsets of your words in it). At most 20 results.",
    access: "read",
  },
  get_page_history: {
    title: "Page history",
    description: "Lists every version of a page, newest first, with who made it (a person, or an agent and the person it acts for).",
    access: "read",
  },
  get_page_stats: {
    title: "Who read a page",
    description:
      "How often a page was read over the last 30 days: views and distinct visitors per day, totals, bots counted apart, top referring sites, reads by agents (by token or OAuth client) and views through each share link. Counted without cookies; no reader is ever identified. Owners and editors of the page's workspace only.",
    access: "read",
  },
  create_page: {
    title: "Create a page",
    description:
      "Creates a page from Markdown (body_markdown) or a whole HTML document (body_html). Without `workspace` it goes to your default workspace (a sandbox token's sandbox). The slug is global: it is the page's public address /a/{slug}.",
    access: "write",
  },
  update_page: {
    title: "Update a page",
    description:
      "Changes a page's title, summary or body. Pass expected_version (the version you read) so that a change made by someone else meanwhile is reported as a conflict instead of being overwritten.",
    access: "write",
  },
  delete_page: {
    title: "Delete a page",
    description: "Deletes a page and its history. This cannot be undone.",
    access: "write",
  },
  list_collections: {
    title: "List collections and tables",
    description: "Lists the collections of a workspace (pages collections and data tables with their columns and row counts).",
    access: "read",
  },
  list_rows: {
    title: "List table rows",
    description:
      "Reads rows of a table, filtered by equality (column: value), ranges (column: {gt, gte, lt, lte}) or part of a text, link or choice in any case (column: {contains: text}), sorted by a column, a page at a time (follow next_cursor; paging is stable while rows are added).",
    access: "read",
  },
  create_collection: {
    title: "Create a collection or table",
    description:
      "Creates a collection in a workspace: kind `pages` groups pages; kind `table` is a small data table with typed columns (text, number, boolean, date, url, select with options; required or not). Rows are then added with insert_rows.",
    access: "write",
  },
  insert_rows: {
    title: "Insert table rows",
    description:
      "Adds up to 500 rows to a table, all or nothing: if one row is invalid, none is written and the error names the row and column. Returns the new row ids.",
    access: "write",
  },
  update_row: {
    title: "Update a table row",
    description:
      "Changes some values of a row: a patch, so columns you leave out keep their values (send null to clear one). Pass expected_version (the version you read) so that a change made by someone else meanwhile is a conflict, not an overwrite.",
    access: "write",
  },
  delete_row: {
    title: "Delete a table row",
    description: "Deletes one row of a table.",
    access: "write",
  },
  create_workspace: {
    title: "Create a workspace",
    description: "Creates a private workspace owned by the person this token acts for.",
    access: "admin",
  },
  set_workspace_visibility: {
    title: "Publish or unpublish a workspace",
    description: "Makes a workspace public (anyone can read its pages at /a/{slug}) or private. Owners only.",
    access: "admin",
  },
  add_collaborator: {
    title: "Add a collaborator",
    description:
      "Gives a person (by e-mail) the editor or viewer role in a workspace and e-mails them an invitation with its link; someone without an account is pending until they sign in with that address. Owners only.",
    access: "admin",
  },
  create_share_link: {
    title: "Create a share link",
    description:
      "Makes a secret link that lets anyone who has it read one page (give `page`) or every page of a private workspace, without an account. Owners only. It stops working after `expires_in_days` (default 30; null for no end date), when an owner revokes it in the app, or when whoever made it can no longer share there (this token revoked, expired or cut off, or its person no longer an owner).",
    access: "admin",
  },
  edit_page: {
    title: "Edit part of a page",
    description:
      "Changes a page's body without sending it whole: a list of edits applied in order — replace exact text (`find` must occur exactly once), insert a block before or after a Markdown heading, or append a block to a heading's section. Give expected_version (the version you read): all edits apply to it as one new version, or none does. A find or heading that matches nothing or several places refuses the call, naming the edit. Returns the new version and the diff.",
    access: "write",
  },
  diff_page_versions: {
    title: "Compare two versions of a page",
    description:
      "The unified diff of a page's text from one version (`from`) to another (`to`, default the current one), with lines added and removed; applying it to the older text gives the newer exactly. Versions are kept as get_page_history lists them.",
    access: "read",
  },
  move_page: {
    title: "Move a page to a new address",
    description:
      "Gives a page a new slug, so its public address becomes /a/{new_slug}; the old address redirects there (301) for a while, and history, versions and links by page_id are kept.",
    access: "write",
  },
  change_table: {
    title: "Change a table's settings",
    description:
      "One change of a table: `rename` it, `add_column`, `rename_column`, `remove_column` (give expected_values, the number of rows whose value you confirm dropping; if more rows have one, nothing is removed and the conflict's details give the count), or `change_column_type` (refused while any row has a value in the column: values are never converted).",
    access: "write",
  },
  list_changes: {
    title: "List changes",
    description:
      "Lists a workspace's changes in order, after `cursor` (the next_cursor of your last call; omit it to start from the oldest kept): their type, target id, version and who made them, never content. Call it again with next_cursor to follow along; read a target with get_page or list_rows to see what changed. A cursor older than what is kept answers cursor_expired: read the current state, then continue from the newest position. Outsiders of a public workspace see changes to its content only.",
    access: "read",
  },
  export_workspace: {
    title: "Export a workspace",
    description:
      "The whole workspace as one zip, base64-encoded: a Markdown file for each page (front matter: title, slug, summary, visibility, version), HTML pages as .html, each table as CSV with a .schema.json, the workspace's files, its comment threads (comments.json), with history: true every kept version of each page, and manifest.json. Owners only. Up to 2 MB; a larger workspace is downloaded from the app's Settings.",
    access: "admin",
  },
  import_workspace: {
    title: "Import into a workspace",
    description:
      "Adds the pages, tables, files, comments and page history of a zip (an export, or Markdown files with optional front matter), base64-encoded, up to 2 MB, to a workspace. Owners only. All or nothing: a bad archive (unsafe names, too large, not UTF-8, a bad page, table or file, a file whose bytes do not match its SHA-256) is refused with the reason and writes nothing. Slugs already taken get a -2, -3 suffix; the answer lists what came in under which slug.",
    access: "admin",
  },
  push_image: {
    title: "Add an image",
    description:
      "Stores an image (base64 in `data`, PNG, JPEG, GIF, WebP or AVIF, up to 5 MB) in a workspace and answers the Markdown to put in a page (`![alt](url)`) and its URL. `alt` is required: say what the image shows for those who cannot see it. The type is read from the bytes; metadata (EXIF, GPS) is removed and images larger than the configured maximum are scaled down. The same image twice is stored once. The result also carries the stored image itself (a smaller copy when it is large) so you can check what was kept. Larger files: create_upload_url.",
    access: "write",
  },
  create_upload_url: {
    title: "Get an upload URL",
    description:
      "Answers a one-time URL to PUT a file of up to the configured maximum (25 MB by default) into a workspace, valid for an hour. PUT the raw bytes to it, then call finish_upload with its upload_id (and alt text for an image) to get the Markdown to put in a page.",
    access: "write",
  },
  finish_upload: {
    title: "Finish an upload",
    description:
      "After the PUT to an upload URL: answers the stored file, its URL and the Markdown to put in a page (an image needs `alt`, what it shows). Fails with not_found when nothing was uploaded to that URL yet.",
    access: "write",
  },
  list_files: {
    title: "List files",
    description:
      "Lists a workspace's files, newest first, a page of results at a time (follow next_cursor): URL, type, size in bytes, width and height of images, who added it and the pages that use it.",
    access: "read",
  },
  delete_file: {
    title: "Delete a file",
    description:
      "Deletes a file from a workspace by its sha256 (from list_files or its URL) and gives its bytes back. Pages that show it show a broken image until edited.",
    access: "write",
  },
  list_comments: {
    title: "List comments",
    description:
      'Lists the comment threads on a page (`page`) or a table (`workspace` + `table`, optionally one `row_id`), open ones unless include_resolved, in reading order: each with its replies and, for a comment on a passage, the quote, the version it was made on, and whether it is still attached to the current text (where, and how it reads now) or only on an earlier version. Each comment lists who it `@mentions` (`me: true` when it is you); `mentioning: "me"` keeps only threads that mention you. Members and their agents only.',
    access: "read",
  },
  add_comment: {
    title: "Add a comment",
    description:
      "Comments on a passage of a page (`page` + `quote`, the exact text as get_page shows it; add `prefix` or `suffix` when it occurs more than once), on a whole page (`page`), on a table row (`workspace` + `table` + `row_id`), or replies in a thread (`reply_to`). The body is Markdown; `@handle` mentions a member (the local part of their address) or an agent of the workspace, and a mentioned member is e-mailed. Returns the thread.",
    access: "write",
  },
  resolve_comment: {
    title: "Resolve a comment thread",
    description: "Marks the thread of a comment resolved (say `reopen: true` to reopen it). Reply first with add_comment to say what you changed.",
    access: "write",
  },
  add_webhook: {
    title: "Add a webhook",
    description:
      "Adds an endpoint that receives a signed POST (Standard Webhooks) for each change of a workspace: its type, ids and version, never content. Give the https URL and, optionally, the event types to receive (default: every type). Answers the signing secret, shown this once: keep it to verify deliveries. Owners only.",
    access: "admin",
  },
  list_webhooks: {
    title: "List webhooks",
    description:
      "Lists a workspace's webhook endpoints: their URL, event types and status (active, or disabled after failing). Never their secrets. Owners only.",
    access: "admin",
  },
  remove_webhook: {
    title: "Remove a webhook",
    description: "Removes a webhook endpoint of a workspace and its delivery log; nothing more is sent to it. Owners only.",
    access: "admin",
  },
} as const satisfies Record<string, ToolEntry>;

export type ToolName = keyof typeof TOOL_CATALOG;

export const TOOL_NAMES = Object.keys(TOOL_CATALOG) as ToolName[];

export function toolsWithAccess(access: ToolAccess): ToolName[] {
  return TOOL_NAMES.filter((n) => TOOL_CATALOG[n].access === access);
}

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptEntry {
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
}

/**
 * Prompts: what clients show as commands (Claude Code's /mcp__atelier__publish_page, a prompt
 * picker elsewhere). Each expands to one user message that names the tools to use.
 */
export const PROMPT_CATALOG = {
  publish_page: {
    title: "Publish as a page",
    description: "Save what we just wrote as an Atelier page and give its public address.",
    arguments: [
      { name: "workspace", description: "The workspace slug to save it in (list_workspaces names yours).", required: false },
      { name: "title", description: "The page's title.", required: false },
    ],
  },
  summarise_workspace: {
    title: "Summarise a workspace",
    description: "Read every page of a workspace and summarise what it holds.",
    arguments: [{ name: "workspace", description: "The workspace slug.", required: true }],
  },
  update_page: {
    title: "Update a page",
    description: "Change an existing page without overwriting anyone else's edit.",
    arguments: [
      { name: "slug", description: "The page's slug.", required: true },
      { name: "change", description: "What to change.", required: true },
    ],
  },
  address_comments: {
    title: "Address open comments",
    description: "Turn a page's open comments into an edit: change the page as they ask, reply to each, and resolve the ones done.",
    arguments: [{ name: "slug", description: "The page's slug.", required: true }],
  },
} as const satisfies Record<string, PromptEntry>;

export type PromptName = keyof typeof PROMPT_CATALOG;

export const PROMPT_NAMES = Object.keys(PROMPT_CATALOG) as PromptName[];

/** The text a prompt expands to, given its arguments (already checked against its entry). */
export function promptText(name: PromptName, args: Record<string, string | undefined>): string {
  switch (name) {
    case "publish_page": {
      const where = args.workspace
        ? `in the workspace "${args.workspace}"`
        : "in a workspace of mine (call list_workspaces and pick the one that fits; ask me if unsure)";
      const title = args.title ? ` titled "${args.title}"` : "";
      return (
        `Save the document we just worked on as an Atelier page${title} ${where}, with create_page (Markdown in body_markdown, a short lowercase slug). ` +
        "If a page with that slug exists, read it with get_page and change it with update_page, passing its version as expected_version. " +
        "Then tell me the page's address (it is at /a/{slug}) and whether the workspace is public."
      );
    }
    case "summarise_workspace":
      return (
        `Summarise the Atelier workspace "${args.workspace ?? ""}": call get_workspace, then list_pages (follow next_cursor until it is absent) and get_page for each page, ` +
        "and list_collections for its tables. Answer with one paragraph on what the workspace is for, then one line per page (title, address, what it says) and per table (name, columns, row count)."
      );
    case "update_page":
      return (
        `Change the Atelier page "${args.slug ?? ""}": ${args.change ?? ""}. Read it first with get_page, make the change, and save it with update_page passing the version you read as expected_version. ` +
        "If the answer is version_conflict, someone changed it meanwhile: read it again, reapply the change, and save again."
      );
    case "address_comments":
      return (
        `Address the open comments on the Atelier page "${args.slug ?? ""}". Call list_comments with page "${args.slug ?? ""}" and get_page to read the current text. ` +
        "For each open thread, decide what the comment asks for: change the passage it quotes (current_quote when still attached; a comment only on an earlier version quotes text that has since changed: check whether it still applies) with edit_page, passing the version you read as expected_version; all edits of one pass in one edit_page call. " +
        "Then reply to each thread with add_comment (reply_to) saying what you changed, or why you did not, and resolve_comment the ones you fully addressed; leave questions for a person open. " +
        "If edit_page answers version_conflict, read the page again and redo the edits."
      );
  }
}

/** What the caller should do about each error code: the error table of /auth.md. */
export const ERROR_ADVICE: Record<ErrorCode, string> = {
  invalid_request: "fix the field named in error_description (details.issues lists each, with a code)",
  invalid_cursor: "the cursor is not one we gave out: start the listing again without it",
  invalid_json: "send a JSON body with `Content-Type: application/json`",
  batch_not_supported: "send one JSON-RPC request per HTTP request",
  unsupported_registration_type: "use a type listed as enabled in the metadata",
  invalid_otp: "the code is wrong, expired or used; ask again (five wrong tries burn it: start the claim again)",
  unauthorized: "sign in (your MCP client does this on a 401) or send a token",
  invalid_token: "the token is wrong, expired or revoked: get a new one",
  invalid_assertion: "the identity assertion was refused",
  forbidden: "this token or person may not do that here",
  insufficient_scope: "the token lacks the scope named in WWW-Authenticate: sign in again asking for it",
  registration_disabled: "anonymous registration is off here",
  account_not_confirmed: "the person must sign in to the app once",
  not_found: "nothing by that name that you can read: check the slug or id",
  registration_not_found: "the claim token is wrong",
  method_not_allowed: "use the method the endpoint documents (POST for /mcp)",
  not_acceptable: "send `Accept: application/json, text/event-stream` with every POST to /mcp (the MCP transport requires both)",
  conflict: "the name is taken: choose another",
  version_conflict: "someone changed it meanwhile: read it again, reapply your change, save with the new version",
  already_claimed: "someone claimed it already",
  claim_window_expired: "too late: register again",
  cursor_expired: "the changes after that position are no longer kept: read the current state, then follow from the newest position",
  payload_too_large: "send less at once",
  unsupported_media_type: "send a raster image (PNG, JPEG, GIF, WebP, AVIF) or another accepted file; SVG and HTML are refused",
  limit_exceeded: "a cap of this workspace or sandbox is reached (the description says which): remove something or ask its owner",
  rate_limited: "wait the number of seconds in `Retry-After`, then retry",
  unavailable: "the service is briefly unavailable: retry in a few seconds",
  internal_error: "our fault: retry later; it is logged",
};

/** The error table as rows, in the order of the codes' HTTP status. */
export function errorRows(): { code: ErrorCode; status: number; mcp: "tool" | "http"; advice: string }[] {
  return (Object.keys(ERROR_TABLE) as ErrorCode[])
    .map((code) => ({ code, status: ERROR_TABLE[code].http, mcp: ERROR_TABLE[code].mcp, advice: ERROR_ADVICE[code] }))
    .sort((a, b) => a.status - b.status);
}

// Ready-to-paste configuration for common MCP clients, built from the service's public origin
// (the MCP server is at {origin}/mcp), with a token or for signing in.

export interface ClientConfig {
  id: "claude-code" | "mcp-json" | "vscode" | "inspector";
  name: string;
  /** Where this goes, in one sentence. */
  hint: string;
  language: "shell" | "json";
  text: string;
  /** A shell line to run first (the token into an environment variable the snippet refers to). */
  env?: { name: string; text: string };
}

/**
 * The environment variable the file snippets refer to instead of carrying the token (issue 23
 * item 14): a project's .mcp.json is usually committed, and a token in it is readable by
 * anyone who can read the repository.
 */
export const TOKEN_ENV = "ATELIER_TOKEN";

/** A single-quoted shell word: safe for any credential or URL. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The headers every POST to /mcp carries (Streamable HTTP: without this Accept the server answers 406). */
export const MCP_ACCEPT = "application/json, text/event-stream";

export function mcpEndpoint(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/mcp`;
}

/**
 * The MCP Inspector, pinned: without a version npx picks whatever it finds, and on Node 20
 * that is an old major that refuses these arguments (issue 23 item 12). The version is the
 * one .ci/setup installs for the conformance run, which runs the printed command on Node 22
 * (a unit test keeps the two equal). It needs Node 22 or later.
 */
export const INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector";
export const INSPECTOR_VERSION = "2.12.0";
export const INSPECTOR_SPEC = `${INSPECTOR_PACKAGE}@${INSPECTOR_VERSION}`;

export function clientConfigs(origin: string, credential: string): ClientConfig[] {
  const url = mcpEndpoint(origin);
  const header = `Authorization: Bearer ${credential}`;
  return [
    {
      id: "claude-code",
      name: "Claude Code",
      hint: "Run this once in a terminal; Claude Code remembers the server.",
      language: "shell",
      text: `claude mcp add --transport http atelier ${shellQuote(url)} --header ${shellQuote(header)}`,
    },
    {
      id: "mcp-json",
      name: ".mcp.json",
      hint:
        `For a project’s .mcp.json (Claude Code). The file names the variable ${TOKEN_ENV}, never the token itself: .mcp.json is usually committed, and a token in it ` +
        `would be readable by anyone who can read the repository. Set the variable in the shell that starts your client (the line below); Cursor’s mcp.json writes ` +
        `it \${env:${TOKEN_ENV}}. Or leave the headers out and sign in instead (the connection guide says how).`,
      language: "json",
      text: JSON.stringify({ mcpServers: { atelier: { type: "http", url, headers: { Authorization: `Bearer \${${TOKEN_ENV}}` } } } }, null, 2),
      env: { name: TOKEN_ENV, text: `export ${TOKEN_ENV}=${shellQuote(credential)}` },
    },
    {
      id: "vscode",
      name: "VS Code",
      hint: "In .vscode/mcp.json (VS Code uses a top-level “servers” key and “type”: “http”). VS Code asks for the token once and keeps it in its secret storage, so the file, often committed, holds no secret.",
      language: "json",
      text: JSON.stringify(
        {
          inputs: [{ type: "promptString", id: "atelier-token", description: "Atelier token", password: true }],
          servers: { atelier: { type: "http", url, headers: { Authorization: "Bearer ${input:atelier-token}" } } },
        },
        null,
        2,
      ),
    },
    {
      id: "inspector",
      name: "Inspector",
      hint: `Check the connection with the MCP Inspector ${INSPECTOR_VERSION}. It needs Node 22 or later (node -v): on Node 20 it does not start. This lists the tools the token may use.`,
      language: "shell",
      text: `npx ${INSPECTOR_SPEC} --cli ${shellQuote(url)} --transport http --header ${shellQuote(header)} --method tools/list`,
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
  /** The app connects from its vendor's servers: it needs a public https BASE_URL (issue 23 item 13). */
  fromVendorServers?: boolean;
  /** Said next to the steps when this server's address cannot work for that app (a localhost BASE_URL, say). */
  notice?: string;
}

const PRIVATE_HOST =
  /^(localhost|.*\.localhost|.*\.local|.*\.internal|.*\.lan|.*\.home\.arpa|0\.0\.0\.0|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.\d+\.\d+|\[::1?\]|\[f[cd][0-9a-f]*:.*\]|\[fe80:.*\]|\[::ffff:.*\]|[^.]+)$/i;

/** How to give Atelier a public https address, in one sentence (the README, the guide and the app say the same). */
export const PUBLIC_HTTPS_HOWTO =
  "Give Atelier a public https address and set it as BASE_URL: a reverse proxy with a TLS certificate on a host you own (deploy/README.md), " +
  "or, to try it from your computer, a tunnel such as `cloudflared tunnel --url http://localhost:3000` or `ngrok http 3000`, with `pnpm start` and BASE_URL set to the https address the tunnel prints.";

/**
 * Why AI apps that connect from their vendor's servers (Claude.ai, Claude Desktop's
 * connectors, ChatGPT) cannot reach `origin`, or null when it is a public https address.
 */
export function unreachableFromVendors(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `${origin} is not an address`;
  }
  if (PRIVATE_HOST.test(url.hostname)) return `${url.origin} is an address only this computer or network can reach`;
  if (url.protocol !== "https:") return `${url.origin} is not https`;
  return null;
}

/** "Add the URL, then sign in": how each common MCP client connects through OAuth. */
export function signInGuides(origin: string): SignInStep[] {
  const url = mcpEndpoint(origin);
  const allow = "Your browser opens Atelier: sign in with your e-mail code, check what the app asks for, and choose Allow.";
  const why = unreachableFromVendors(origin);
  const remote = (app: string) => ({
    fromVendorServers: true,
    ...(why
      ? { notice: `${why}, so ${app} cannot connect to it: ${app} connects from its vendor’s servers, not from your computer. ${PUBLIC_HTTPS_HOWTO}` }
      : {}),
  });
  const publicStep = "This app connects from its vendor’s servers, so Atelier must be at a public https address (its BASE_URL), not localhost.";
  return [
    {
      id: "claude",
      name: "Claude.ai and Claude Desktop",
      ...remote("Claude"),
      steps: [
        publicStep,
        "Open Settings → Connectors and choose “Add custom connector”.",
        `Name it Atelier and paste ${url} as the URL; leave the OAuth fields empty.`,
        "Choose Connect.",
        allow,
      ],
    },
    {
      id: "chatgpt",
      name: "ChatGPT",
      ...remote("ChatGPT"),
      steps: [
        publicStep,
        "Open Settings → Apps & Connectors (with developer mode on) and create a connector.",
        `Paste ${url} as the MCP server URL and choose OAuth as the authentication.`,
        allow,
      ],
    },
    {
      id: "cursor",
      name: "Cursor",
      steps: [
        "Add the server to ~/.cursor/mcp.json (or a project’s .cursor/mcp.json):",
        "In Cursor’s MCP settings, choose “Needs login” next to atelier.",
        allow,
      ],
      snippet: { language: "json", label: "mcp.json", text: JSON.stringify({ mcpServers: { atelier: { url } } }, null, 2) },
    },
    {
      id: "vscode",
      name: "VS Code",
      steps: [
        "Add the server to .vscode/mcp.json (a top-level “servers” key, “type”: “http”):",
        "Choose Start above the server in that file, then Allow when VS Code asks to sign in.",
        allow,
      ],
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
