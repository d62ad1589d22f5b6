// What an agent that knows only the base URL reads to find its way (docs/contract.md#routes).
// Longer than 300 lines on purpose: most of it is the text of /auth.md and the connect guide,
// which read best whole.
import type { Config } from "../config";
import {
  clientConfigs,
  errorRows,
  MCP_ACCEPT,
  PUBLIC_HTTPS_HOWTO,
  unreachableFromVendors,
  PROMPT_CATALOG,
  PROMPT_NAMES,
  signInGuides,
  TOOL_CATALOG,
  toolsWithAccess,
} from "./agent-catalog";

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

/** Where the authorization server's endpoints live on this origin (the provider is configured with these). */
export const OAUTH_PATHS = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
} as const;

type DiscoveryConfig = Pick<
  Config,
  | "BASE_URL"
  | "ANONYMOUS_REGISTRATION_ENABLED"
  | "VERIFIED_EMAIL_REGISTRATION_ENABLED"
  | "ANON_CLAIM_WINDOW_SECONDS"
  | "ANON_RETENTION_SECONDS"
  | "CLAIM_OTP_TTL_SECONDS"
  | "ANON_MAX_PAGES"
  | "ANON_MAX_BYTES"
  | "ANON_WRITES_PER_MINUTE"
  | "ANON_REG_PER_IP_PER_DAY"
  | "TOKEN_PREFIX"
>;

/**
 * RFC 8414 authorization server metadata, with the `agent_auth` block agents look for. The
 * endpoints are the oidc-provider routes configured from OAUTH_PATHS; a test compares this
 * document with the provider's own discovery answer.
 */
export function authorizationServerMetadata(config: DiscoveryConfig) {
  const b = config.BASE_URL;
  return {
    issuer: b,
    authorization_endpoint: `${b}${OAUTH_PATHS.authorization}`,
    token_endpoint: `${b}${OAUTH_PATHS.token}`,
    registration_endpoint: `${b}${OAUTH_PATHS.registration}`,
    revocation_endpoint: `${b}${OAUTH_PATHS.revocation}`,
    scopes_supported: ["mcp:read", "mcp:write"],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    resource_indicators_supported: true,
    service_documentation: `${b}/docs/connect/agents`,
    agent_auth: {
      skill: `${b}/auth.md`,
      register_uri: `${b}/agent/auth`,
      claim_uri: `${b}/agent/auth/claim`,
      identity_types_supported: [
        { type: "anonymous", enabled: config.ANONYMOUS_REGISTRATION_ENABLED },
        { type: "verified_email", enabled: config.VERIFIED_EMAIL_REGISTRATION_ENABLED, preview: true },
      ],
      credential_types_supported: [{ type: "mcp_write_token", format: `${config.TOKEN_PREFIX}<secret>`, bearer: true }],
      resource: `${b}/mcp`,
    },
  };
}

const ACCESS_WORDS = {
  read: "Read (with `mcp:read`, or no token for public workspaces)",
  write: "Write (with `mcp:write`)",
  admin: "For tokens that act for a person (never an unclaimed sandbox), with `mcp:write`",
} as const;

/** The tool list of /auth.md, from the catalog: one line per tool, grouped by the access it needs. */
function toolLines(): string {
  return (["read", "write", "admin"] as const)
    .map(
      (access) =>
        `${ACCESS_WORDS[access]}:\n\n${toolsWithAccess(access)
          .map((n) => `- \`${n}\`: ${TOOL_CATALOG[n].description}`)
          .join("\n")}`,
    )
    .join("\n\n");
}

const dayText = (s: number) => (s % 86_400 === 0 ? `${s / 86_400} days` : `${Math.round(s / 3600)} hours`);

/** /auth.md: what an agent reads, top to bottom, to get from a 401 to a working token. */
export function authMarkdown(config: DiscoveryConfig): string {
  const b = config.BASE_URL;
  const anon = config.ANONYMOUS_REGISTRATION_ENABLED;
  return `# Connecting an agent to Atelier

Atelier keeps living artifacts (Markdown and HTML pages) in workspaces. Agents work through
the MCP server at \`${b}/mcp\` (Streamable HTTP, JSON-RPC over POST) with a bearer token.
Every POST to it carries these headers (without that \`Accept\` the answer is \`406\`):

    Content-Type: application/json
    Accept: ${MCP_ACCEPT}
    Authorization: Bearer ${config.TOKEN_PREFIX}<secret>

Public workspaces can be read without a token. Everything else needs one. There are two ways
to get one: **sign in with OAuth** (the usual way for AI apps: a person signs in and allows
you), or the header token routes below (a person pastes a token, or you register yourself).

## 0. Sign in with OAuth (MCP authorization)

Atelier is its own OAuth 2.1 authorization server (issuer \`${b}\`):

- metadata: \`${b}/.well-known/oauth-authorization-server\` (RFC 8414); the protected
  resource metadata names it (\`authorization_servers\`);
- authorization code with PKCE (\`S256\` only) at \`${b}${OAUTH_PATHS.authorization}\`,
  tokens at \`${b}${OAUTH_PATHS.token}\` (refresh tokens rotate), revocation (RFC 7009) at
  \`${b}${OAUTH_PATHS.revocation}\`;
- public clients only (\`token_endpoint_auth_method: "none"\`): identify yourself with a client
  ID metadata document (your \`client_id\` is an https URL serving your metadata as JSON, at
  most 5 KB) or register at \`${b}${OAUTH_PATHS.registration}\` (RFC 7591);
- \`resource=${b}/mcp\` (RFC 8707; it is the default and the only resource), scopes
  \`mcp:read\` and \`mcp:write\`; the authorization response carries \`iss\` (RFC 9207);
- redirect URIs: https, http only on loopback (\`http://127.0.0.1:PORT/…\`,
  \`http://localhost:PORT/…\`), or an app's own scheme for native apps.

The person signs in with an e-mail code, sees your name (marked unverified), what you ask
for, chooses the workspaces and how long, and allows or denies (\`error=access_denied\`).
Your access token then works at \`${b}/mcp\` exactly like a pasted token: same scopes,
workspace restriction and limits, and every change is attributed to your client's name acting
for that person. If the person revokes you in the app, the next call answers \`401\`.

MCP clients do all of this by themselves: add \`${b}/mcp\` as a server and sign in when asked.

## 1. Discover

- \`POST ${b}/mcp\` without a token, for a call that needs one, answers \`401\` with
  \`WWW-Authenticate: Bearer resource_metadata="${b}/.well-known/oauth-protected-resource", scope="mcp:write"\`.
- \`${b}/.well-known/oauth-protected-resource\` names this server as the authorization server.
- \`${b}/.well-known/oauth-authorization-server\` has the OAuth endpoints (section 0) and an
  \`agent_auth\` block: this file, the register and claim URLs, and which registration types
  are switched on.

## 2. Get a header token (scripts, and clients without OAuth)

Either a person gives you one (they make it in the app: ${b}/app/settings/agents), or you
register yourself.

### Anonymous sandbox ${anon ? "(enabled here)" : "(switched off on this server)"}

    POST ${b}/agent/auth
    Content-Type: application/json
    Accept: ${MCP_ACCEPT}

    {"type": "anonymous", "requested_credential_type": "mcp_write_token", "agent_label": "<your name>"}

\`201\` answers with \`credential\` (your bearer token, shown once: keep it), \`token_id\`,
\`expires_at\`, \`scopes\` (\`mcp:read\`, \`mcp:write\`), \`sandbox_bucket\` \`{id, slug}\`,
\`registration_id\` (also the claim token: keep it), \`claim_url\` and \`claim_instructions\`.

The token works only in its private sandbox: full authoring there, at most
${config.ANON_MAX_PAGES} artifacts, ${Math.round(config.ANON_MAX_BYTES / 1024 / 1024)} MB of content and
${config.ANON_WRITES_PER_MINUTE} writes a minute. It cannot publish, make anything public,
share, add collaborators or reach other workspaces until a person claims it.

### Claiming the sandbox (a person keeps your work)

Within ${dayText(config.ANON_CLAIM_WINDOW_SECONDS)} of registering, ask the person for their e-mail address, then:

    POST ${b}/agent/auth/claim
    Content-Type: application/json
    Accept: ${MCP_ACCEPT}

    {"claim_token": "<registration_id>", "email": "<their address>"}

→ \`{"status": "otp_sent", "registration_id": …, "claim_token_expires": …}\`. They receive a
six-digit code valid ${Math.round(config.CLAIM_OTP_TTL_SECONDS / 60)} minutes. Ask them for it, then:

    POST ${b}/agent/auth/claim
    Content-Type: application/json
    Accept: ${MCP_ACCEPT}

    {"claim_token": "<registration_id>", "otp": "<six digits>"}

→ \`200 {"status": "claimed", "token_id", "expires_at", "scopes", "sandbox_bucket", "account": {"email"}}\`.
Your credential stays the same; it now acts for that person, still only in the sandbox,
and expires 90 days after the claim. The sandbox becomes a permanent workspace of theirs.
Unclaimed sandboxes are hidden after ${dayText(config.ANON_CLAIM_WINDOW_SECONDS)} (the token stops working)
and deleted ${dayText(config.ANON_RETENTION_SECONDS)} later.

### Verified e-mail (preview) ${config.VERIFIED_EMAIL_REGISTRATION_ENABLED ? "(enabled here)" : "(switched off on this server)"}

With an identity assertion (a JWT from a trusted issuer, \`aud\` = \`${b}\`, with \`email\`,
\`email_verified: true\`, a single-use \`jti\` and at most 10 minutes of life):

    POST ${b}/agent/auth
    Content-Type: application/json
    Accept: ${MCP_ACCEPT}

    {"type": "verified_email", "requested_credential_type": "mcp_write_token", "assertion": "<JWT>"}

→ \`201 {"registration_id", "claim_token", "status": "otp_sent", "claim_token_expires", "claim_url"}\`.
The person receives a code; send \`{"claim_token", "otp"}\` to the claim URL to receive
\`201 {"credential", "credential_type", "token_id", "scopes", "expires_at"}\` (shown once).
The address must belong to a confirmed Atelier account.

## 3. Use it

Connect an MCP client to \`${b}/mcp\` with the headers above. Without a client library, one
JSON-RPC message per POST (no session, no \`initialize\` needed):

    POST ${b}/mcp
    Content-Type: application/json
    Accept: ${MCP_ACCEPT}
    MCP-Protocol-Version: 2025-11-25
    Authorization: Bearer <your token>

    {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}}

The tools:

${toolLines()}

Pages are also resources: \`artifact://{slug}\`. A page you create is at \`${b}/a/{slug}\`.
Prompts (your client may show them as commands): ${PROMPT_NAMES.map((n) => `\`${n}\` (${PROMPT_CATALOG[n].description.replace(/\.$/, "")})`).join(", ")}.

### Following changes

- **Any client:** call \`list_changes\` with a workspace and keep its \`next_cursor\`; each call
  returns the changes since, in order, each once (type, target id, version, who: never
  content), filtered by what your token may read now. Read a target (\`get_page\`,
  \`list_rows\`) to see what changed. A cursor older than what is kept answers
  \`cursor_expired\`: read the current state again, then follow from the newest position.
- **Subscriptions (protocol 2026-07-28):** \`subscriptions/listen\` with
  \`{"notifications": {"resourceSubscriptions": ["artifact://{slug}"]}}\` holds a stream that
  says \`notifications/resources/updated\` (the URI only) each time one of those pages
  changes and you may still read it. A token revoked or expired ends the stream. The 2025
  protocol versions have no subscriptions here (the server is stateless): use \`list_changes\`.
- **Webhooks (workspace owners):** \`add_webhook\` sends each change as a signed POST (Standard
  Webhooks) to your URL; \`list_webhooks\`, \`remove_webhook\`.

## 4. Errors and retries

Errors outside MCP are JSON: \`{"error": "<code>", "error_description": "<sentence>"}\`. Inside
MCP, refusals that concern one call (not found, conflicts, caps) are tool results with
\`isError: true\` and a JSON text \`{"error", "message"}\` ("tool error" below); what concerns
the whole request (sign-in, scope, throttling) is answered at the HTTP level ("HTTP").

| status | error | over MCP | what to do |
|---|---|---|---|
${errorRows()
  .map((r) => `| ${r.status} | \`${r.code}\` | ${r.mcp === "tool" ? "tool error" : "HTTP"} | ${r.advice} |`)
  .join("\n")}

At most ${config.ANON_REG_PER_IP_PER_DAY} anonymous registrations per address per day.
`;
}

const GUIDE_ACCESS_WORDS = {
  read: "Read (scope <code>mcp:read</code>)",
  write: "Write (scope <code>mcp:write</code>; <code>update_page</code> takes <code>expected_version</code>, so nobody's edit is silently overwritten)",
  admin: "Manage workspaces (tokens that act for you, not an unclaimed sandbox)",
} as const;

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escaped text with its `code` spans as <code>. */
function codeSpans(s: string): string {
  return esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** /docs/connect/agents: the guide for people. */
export function connectGuideHtml(config: DiscoveryConfig): string {
  const b = esc(config.BASE_URL);
  const mcp = `${b}/mcp`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect an agent · Atelier</title>
<style>
:root{color-scheme:light dark;--fg:#1c1d21;--bg:#fffefb;--muted:#5f636b;--code:#f3f2ec;--accent:#2f4fc9}
@media screen and (prefers-color-scheme:dark){:root{--fg:#e8e8eb;--bg:#141518;--muted:#a2a5ad;--code:#1f2126;--accent:#94a7ff}}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
main{max-width:46rem;margin:0 auto;padding:2rem 1.25rem 4rem}
h1{font-size:1.9rem;margin-bottom:.25rem}h2{margin-top:2.2rem}code,pre{background:var(--code);border-radius:6px;font:14px/1.45 ui-monospace,Menlo,Consolas,monospace}
code{padding:.1em .3em}pre{padding:1rem;overflow:auto}a{color:var(--accent)}.lead{color:var(--muted);font-size:1.1rem;margin-top:0}
pre:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.notice{border-left:4px solid var(--accent);padding:.5rem .75rem;background:var(--code);border-radius:6px}
</style></head><body><main>
<h1>Connect an agent</h1>
<p class="lead">Agents read and write your workspaces through Atelier's MCP server: AI apps sign in and you allow them; scripts use a token you control.</p>
<h2>1. Add the address, then sign in</h2>
<p>AI apps connect by signing in: add the MCP server address <code>${mcp}</code> in the app, and it sends you here. Sign in with your e-mail code, check what the app
asks for, choose which workspaces and for how long, and choose <strong>Allow</strong>. The app then appears under
<a href="${b}/app/settings/agents">Settings → Connected agents</a> as connected through sign-in, where you can revoke it: it stops working on its next request.</p>
<p id="public-https"><strong>Claude.ai, Claude Desktop’s connectors and ChatGPT connect from their vendors’ servers</strong>, not from your computer, so they need Atelier
at a public https address (its <code>BASE_URL</code>)${unreachableFromVendors(config.BASE_URL) ? `; ${b} is not one` : ""}. ${codeSpans(PUBLIC_HTTPS_HOWTO)} Cursor, VS Code and Claude Code run on your computer and work with a localhost address too.</p>
${signInGuides(config.BASE_URL)
  .map(
    (g) =>
      `<h3>${esc(g.name)}</h3>\n${g.notice ? `<p class="notice" role="note"><strong>Not from this address:</strong> ${codeSpans(g.notice)}</p>\n` : ""}<ol>${g.steps.map((step, i) => `<li>${esc(step)}${i === 0 && g.snippet ? `\n<pre tabindex="0" role="group" aria-label="${esc(g.name)}: what to paste">${esc(g.snippet.text)}</pre>` : ""}</li>`).join("\n")}</ol>`,
  )
  .join("\n")}
<h2>2. Scripts and apps without sign-in: a token</h2>
<p>Open <a href="${b}/app/settings/agents">Settings → Connected agents</a>, choose a label (the name the agent's changes appear under), the scopes
(<code>mcp:read</code> to read, <code>mcp:write</code> to create and edit) and, if you like, the workspaces it may use. The token is shown once; copy it then,
with the configuration for your client ready to paste. Revoke or rotate it there at any time: a revoked token stops working on its next request.
Send it as <code>Authorization: Bearer …</code>:</p>
${clientConfigs(config.BASE_URL, "YOUR_TOKEN")
  .map(
    (c) =>
      `<p><strong>${esc(c.name)}</strong>: ${esc(c.hint)}</p>\n${c.env ? `<pre tabindex="0" role="group" aria-label="${esc(c.name)}: the environment variable">${esc(c.env.text)}</pre>\n` : ""}<pre tabindex="0" role="group" aria-label="${esc(c.name)}: configuration">${esc(c.text)}</pre>`,
  )
  .join("\n")}
<h2>3. What agents can do</h2>
${(["read", "write", "admin"] as const)
  .map(
    (access) =>
      `<p>${GUIDE_ACCESS_WORDS[access]}:</p>\n<ul>${toolsWithAccess(access)
        .map((n) => `<li><code>${n}</code>: ${esc(TOOL_CATALOG[n].description)}</li>`)
        .join("")}</ul>`,
  )
  .join("\n")}
<p>Every change is recorded in the page history under the agent's label and your name. Public workspaces can be read without any token.
Prompts your app may show as commands: ${PROMPT_NAMES.map((n) => `<code>${n}</code> (${esc(PROMPT_CATALOG[n].title)})`).join(", ")}.</p>
<h2>Following changes</h2>
<p>To react to what people and other agents change, call <code>list_changes</code> with a workspace and keep its <code>next_cursor</code>: each call returns the changes since, in order, each exactly once (type, target id, version, who; never content). Read a target with <code>get_page</code> or <code>list_rows</code> to see what changed. Changes are kept for a limited time; a cursor older than that answers <code>cursor_expired</code>: read the current state, then follow from the newest position.</p>
<p>Clients on protocol 2026-07-28 can subscribe instead: <code>subscriptions/listen</code> with <code>resourceSubscriptions: ["artifact://{slug}"]</code> (the SDK's <code>client.listen(…)</code>) holds a stream that says <code>notifications/resources/updated</code>, with the page's URI only, each time one of those pages changes and the agent may still read it; revoking the agent's token ends the stream. On the 2025 protocol versions this server is stateless and offers no subscriptions: use <code>list_changes</code>.
Workspace owners can also have every change sent to a URL of theirs, signed (Standard Webhooks): the workspace's settings, <em>Webhooks</em>, or the tool <code>add_webhook</code>.</p>
<h2>Sandboxes: agents without an account</h2>
<p>${config.ANONYMOUS_REGISTRATION_ENABLED ? "An agent can register itself" : "When the server's owner allows it, an agent can register itself"} and get a private, temporary sandbox
(at most ${config.ANON_MAX_PAGES} artifacts). To keep what it made, claim the sandbox within ${dayText(config.ANON_CLAIM_WINDOW_SECONDS)}: the agent asks for your e-mail address,
you receive a six-digit code, and you give it to the agent. The sandbox then becomes one of your workspaces. Unclaimed sandboxes disappear after
${dayText(config.ANON_CLAIM_WINDOW_SECONDS)} and are deleted ${dayText(config.ANON_RETENTION_SECONDS)} later. The agents' walkthrough is <a href="${b}/auth.md">auth.md</a>.</p>
</main></body></html>
`;
}
