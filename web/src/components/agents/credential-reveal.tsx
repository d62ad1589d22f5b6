// The one moment a credential is visible: copy it, or copy a ready configuration for a
// common MCP client. After "Done", it is gone from the app for good.
import { useEffect, useId, useRef, useState } from "react";
import { formatDate } from "../../lib/format";
import { clientConfigs } from "@atelier/shared/domain/agent-catalog";
import { CopyButton } from "../copy-button";
import { Tabs } from "../tabs";
import "./credential-reveal.css";

export interface Revealed {
  credential: string;
  label: string;
  expires_at: string;
  scopes: string[];
  rotated: boolean;
}

export function CredentialReveal({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  const id = useId();
  const ref = useRef<HTMLElement>(null);
  const configs = clientConfigs(window.location.origin, revealed.credential);
  const [client, setClient] = useState(configs[0]?.id ?? "claude-code");
  const selected = configs.find((c) => c.id === client) ?? configs[0];

  // Bring it into view and to the screen reader's attention as it appears.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "start", behavior: "smooth" });
    ref.current?.focus();
  }, [revealed.credential]);

  return (
    <section ref={ref} className="reveal" aria-labelledby={`${id}-title`} tabIndex={-1}>
      <h2 id={`${id}-title`} className="reveal__title">
        {revealed.rotated ? `New credential for “${revealed.label}”` : `“${revealed.label}” is ready`}
      </h2>
      <p className="reveal__warning">
        <strong>Copy it now: it’s shown only this once.</strong> Atelier keeps only a fingerprint of it, so nobody can show it again.{" "}
        {revealed.rotated ? "The old credential has stopped working. " : ""}It works until {formatDate(revealed.expires_at)}.
      </p>
      <div className="secret">
        <code className="secret__value" aria-label="Token credential">
          {revealed.credential}
        </code>
        <CopyButton text={revealed.credential} label="Copy the credential" className="button button--primary button--small" />
      </div>

      <h3 className="reveal__subtitle">Set up your agent</h3>
      <Tabs id={`${id}-clients`} label="MCP client" items={configs.map((c) => ({ key: c.id, label: c.name }))} selected={client} onSelect={setClient} />
      {selected ? (
        <div role="tabpanel" id={`${id}-clients-panel-${selected.id}`} aria-labelledby={`${id}-clients-tab-${selected.id}`} className="config">
          <p className="field__hint">{selected.hint}</p>
          {selected.env ? (
            <div className="code-block code-block--shell">
              <pre tabIndex={0} aria-label={`${selected.name}: set ${selected.env.name}`}>
                <code>{selected.env.text}</code>
              </pre>
              <CopyButton text={selected.env.text} label={`Copy the line that sets ${selected.env.name}`} />
            </div>
          ) : null}
          <div className={`code-block code-block--${selected.language}`}>
            <pre tabIndex={0} aria-label={`${selected.name} configuration`}>
              <code>{selected.text}</code>
            </pre>
            <CopyButton text={selected.text} label={`Copy the ${selected.name} configuration`} />
          </div>
        </div>
      ) : null}
      <p className="muted">
        Other clients and the details: <a href="/docs/connect/agents">the connection guide</a>.
      </p>
      <div className="form-actions form-actions--start">
        <button type="button" className="button" onClick={onDone}>
          I’ve copied it — hide the credential
        </button>
      </div>
    </section>
  );
}
