// "Add the URL, then sign in": how Claude, ChatGPT, Cursor, VS Code and Claude Code connect
// through OAuth. Each app gets a disclosure, so the list stays short at phone width.
import { signInGuides } from "@atelier/shared/domain/agent-catalog";
import { CopyButton } from "../copy-button";
import "./sign-in-guide.css";

export function SignInGuide({ origin }: { origin: string }) {
  const guides = signInGuides(origin);
  return (
    <section className="card sign-in-guide" aria-labelledby="sign-in-guide-title">
      <h2 id="sign-in-guide-title" className="section-title">
        Connect an app by signing in
      </h2>
      <p className="card__text">
        Most AI apps need only the MCP server address: add it, and the app sends you here to sign in and allow it. It then appears below as connected through
        sign-in, and you can revoke it at any time. Tokens (further down) are for scripts and apps that cannot sign in.
      </p>
      {guides.map((g) => (
        <details key={g.id} className="sign-in-guide__app">
          <summary>{g.name}</summary>
          {g.notice ? (
            <p className="sign-in-guide__notice" role="note">
              <strong>Not from this address:</strong> {g.notice}
            </p>
          ) : null}
          <ol>
            {g.steps.map((step, i) => (
              <li key={step}>
                {step}
                {i === 0 && g.snippet ? (
                  <div className="sign-in-guide__snippet">
                    <pre className="mono" aria-label={g.snippet.label}>
                      {g.snippet.text}
                    </pre>
                    <CopyButton text={g.snippet.text} label={`Copy the ${g.snippet.label} for ${g.name}`} />
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
        </details>
      ))}
    </section>
  );
}
