// /app/settings/agents — connected-agent settings: tokens for MCP clients (docs/contract.md#resources-and-identifiers).
import { useState } from "react";
import { useSearchParams } from "wouter";
import { CreateTokenForm } from "../components/agents/create-token-form";
import { CredentialReveal, type Revealed } from "../components/agents/credential-reveal";
import { SignInGuide } from "../components/agents/sign-in-guide";
import { TokenList } from "../components/agents/token-list";
import { mcpEndpoint } from "@atelier/shared/domain/agent-catalog";
import { CopyButton } from "../components/copy-button";
import type { SignedInScreenProps } from "./app-routes";
import "./agent-settings.css";

export function AgentSettingsScreen(_props: SignedInScreenProps) {
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [search] = useSearchParams();
  const endpoint = mcpEndpoint(window.location.origin);

  const show = (rotated: boolean) => (issued: { credential: string; expires_at: string; scopes: string[] }, label: string) =>
    setRevealed({ credential: issued.credential, expires_at: issued.expires_at, scopes: issued.scopes, label, rotated });

  return (
    <div className="agents-page">
      <title>Connected agents · Atelier</title>
      <header className="page-header">
        <h1 className="page-header__title">Connected agents</h1>
        <p className="page-header__lead">
          AI apps such as Claude, ChatGPT, Cursor, VS Code or Claude Code read and write in your workspaces as you: add the MCP server address in the app, then
          sign in here and allow it. Scripts use a token instead. Every change an agent makes is signed with its name, and you can revoke it at any time.
        </p>
        <p className="endpoint">
          <span className="muted">MCP server</span> <code className="mono">{endpoint}</code>
          <CopyButton text={endpoint} label="Copy the MCP server address" />
          <a href="/docs/connect/agents" className="endpoint__guide">
            Connection guide
          </a>
        </p>
      </header>

      <SignInGuide origin={window.location.origin} />

      {revealed ? <CredentialReveal revealed={revealed} onDone={() => setRevealed(null)} /> : null}

      {/* The list first (what is connected now), then the form to add one: on a phone the
          list is not pushed below a long form; on a wide screen the form sits on the left. */}
      <div className="agents-layout">
        <section aria-labelledby="tokens-title" className="agents-layout__list">
          <h2 id="tokens-title" className="section-title">
            Your agents and tokens
          </h2>
          <TokenList onIssued={show(true)} />
        </section>
        <section className="card card--form agents-layout__form">
          <CreateTokenForm onIssued={show(false)} initialWorkspace={search.get("workspace") ?? undefined} />
        </section>
      </div>
    </div>
  );
}
