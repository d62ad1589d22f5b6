// /app/oauth/consent/:uid — an MCP client (Claude, ChatGPT, Cursor, VS Code…) asks to connect.
// The person sees who asks (what the app says of itself, marked unverified), what it may do,
// where and for how long, and allows or denies. The answer sends the browser back through
// the authorization server to the app, with a code or with access_denied.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { AgentIcon } from "../components/actor-name";
import { Badge } from "../components/badges";
import { PageLoading } from "../components/page-state";
import { appCodeOf, describeError } from "../lib/errors";
import { useTRPC } from "../trpc";
import type { SignedInPageProps } from "./app-routes";
import "./oauth-consent.css";

const DURATION_NAMES: Record<number, string> = { 1: "1 day", 7: "7 days", 30: "30 days", 90: "90 days", 365: "1 year" };

function ClientLogo({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span className="consent__logo consent__logo--placeholder" aria-hidden="true">
        <AgentIcon size={28} />
      </span>
    );
  }
  // A client's logo comes from the client: no referrer, and a broken one falls back quietly.
  return <img className="consent__logo" src={src} alt="" width={48} height={48} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}

export function OAuthConsentPage({ user, params }: SignedInPageProps) {
  const trpc = useTRPC();
  const id = useId();
  const uid = params.uid ?? "";
  const view = useQuery({ ...trpc.oauth.interaction.queryOptions({ uid }), retry: false, refetchOnWindowFocus: false });
  const [where, setWhere] = useState<"all" | "some">("all");
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [duration, setDuration] = useState<number | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const decide = useMutation(
    trpc.oauth.decide.mutationOptions({
      onSuccess: ({ redirect_to }) => {
        // Back into the authorization server, which sends the browser on to the app.
        window.location.assign(redirect_to);
      },
    }),
  );

  useEffect(() => {
    if (view.isSuccess) heading.current?.focus();
  }, [view.isSuccess]);

  if (view.isPending) return <PageLoading label="Loading the request…" />;
  if (view.isError) {
    const gone = appCodeOf(view.error) === "not_found";
    return (
      <div className="consent">
        <div className="card consent__card" role="alert">
          <h1 className="consent__title">{gone ? "This sign-in request can’t continue" : "The request didn’t load"}</h1>
          <p>
            {gone
              ? "It has expired, was already answered, or was started in another browser. Go back to the app that sent you here and connect again."
              : describeError(view.error)}
          </p>
        </div>
      </div>
    );
  }

  const v = view.data;
  const days = duration ?? v.default_duration_days;
  const name = v.client.name;
  const busy = decide.isPending || decide.isSuccess;

  const submit = (allow: boolean) => {
    if (allow && where === "some" && chosen.size === 0) {
      setPickError("Choose at least one workspace, or allow all of them.");
      return;
    }
    setPickError(null);
    decide.mutate({ uid, allow, workspaces: where === "all" ? "all" : [...chosen], duration_days: days });
  };

  return (
    <div className="consent">
      <title>{`Connect ${name} · Atelier`}</title>
      <form
        className="card consent__card"
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          submit(true);
        }}
      >
        <div className="consent__who">
          <ClientLogo src={v.client.logo_uri} />
          <div>
            <h1 id={`${id}-title`} className="consent__title" tabIndex={-1} ref={heading}>
              Connect <span className="consent__name">{name}</span> to your Atelier?
            </h1>
            <p className="consent__signed-in muted">Signed in as {user.email}</p>
          </div>
        </div>

        <div className="consent__identity">
          <p>
            <Badge tone="warn" title="Atelier cannot check what an app says about itself">
              Unverified
            </Badge>{" "}
            “{name}” is the name this app gives itself.{" "}
            {v.client.document_host ? (
              <>
                It identified itself with a document at <strong className="mono">{v.client.document_host}</strong>.
              </>
            ) : (
              <>It registered itself with this server a moment ago.</>
            )}
          </p>
          {v.client.home_page ? (
            <p>
              Its home page says:{" "}
              <a href={v.client.home_page} target="_blank" rel="noopener noreferrer">
                {v.client.home_page}
              </a>
            </p>
          ) : null}
          <p>
            After you answer you go back to <strong className="mono">{v.client.redirect_host}</strong>.
          </p>
        </div>

        <section aria-labelledby={`${id}-may`}>
          <h2 id={`${id}-may`} className="consent__subtitle">
            It will be able to
          </h2>
          <ul className="consent__scopes">
            {v.scopes.map((s) => (
              <li key={s.scope}>
                {s.description} <code className="code-chip">{s.scope}</code>
              </li>
            ))}
          </ul>
          <p className="field__hint">Everything it changes is recorded in the history as “{name}” acting for you.</p>
        </section>

        <fieldset className="choice-group">
          <legend className="field__label">Where</legend>
          <label className="choice">
            <input type="radio" name={`${id}-where`} checked={where === "all"} onChange={() => setWhere("all")} disabled={busy} />
            <span>
              <strong>All my workspaces</strong>
              <span className="choice__hint">Including ones you create or join later</span>
            </span>
          </label>
          <label className="choice">
            <input type="radio" name={`${id}-where`} checked={where === "some"} onChange={() => setWhere("some")} disabled={busy} />
            <span>
              <strong>Only the workspaces I choose</strong>
            </span>
          </label>
          {where === "some" ? (
            <div className="workspace-picks" role="group" aria-label="Workspaces it may use">
              {v.workspaces.length === 0 ? <p className="muted">You have no workspaces yet.</p> : null}
              {v.workspaces.map((ws) => (
                <label key={ws.slug} className="choice choice--compact">
                  <input
                    type="checkbox"
                    checked={chosen.has(ws.slug)}
                    disabled={busy}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(ws.slug);
                      else next.delete(ws.slug);
                      setChosen(next);
                      setPickError(null);
                    }}
                  />
                  <span>
                    {ws.name} <span className="mono muted">{ws.slug}</span>
                    {!ws.can_write ? <span className="choice__hint">You can only read here, so the app can too</span> : null}
                  </span>
                </label>
              ))}
              {pickError ? (
                <p className="field__message field__message--error" role="alert">
                  {pickError}
                </p>
              ) : null}
            </div>
          ) : null}
        </fieldset>

        <div className="field">
          <label className="field__label" htmlFor={`${id}-duration`}>
            For how long
          </label>
          <select
            id={`${id}-duration`}
            className="select select--field"
            value={String(days)}
            onChange={(e) => setDuration(Number(e.target.value))}
            disabled={busy}
          >
            {v.durations_days.map((d) => (
              <option key={d} value={String(d)}>
                {DURATION_NAMES[d] ?? `${d} days`}
                {d === v.default_duration_days ? " (suggested)" : ""}
              </option>
            ))}
          </select>
          <p className="field__hint">You can revoke it sooner under Settings → Connected agents.</p>
        </div>

        {decide.isError ? (
          <p className="field__error" role="alert">
            {appCodeOf(decide.error) === "not_found"
              ? "This sign-in request has expired or was already answered. Go back to the app and connect again."
              : describeError(decide.error)}
          </p>
        ) : null}
        <div className="form-actions consent__actions">
          <button type="button" className="button" onClick={() => submit(false)} disabled={busy}>
            Deny
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Connecting…" : "Allow"}
          </button>
        </div>
        <p className="sr-only" aria-live="polite">
          {busy ? "Going back to the app…" : ""}
        </p>
      </form>
    </div>
  );
}
