// /app/oauth/consent/:uid — an MCP client (Claude, ChatGPT, Cursor, VS Code…) asks to connect.
// The person sees who asks (whether its identity is verified, and when it registered itself),
// what it may do, where and for how long, where the browser goes afterwards, and allows or
// denies. Allow sends the browser back through the authorization server to the app with a
// code; Deny says so here and, unless the app runs on this computer, offers the way back
// rather than taking it (docs/security.md, "OAuth"). A person not signed in signs in first,
// on a sign-in step that names the app (OAuthSignInStep).
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { AgentIcon } from "../components/actor-name";
import { Badge } from "../components/badges";
import { PageLoading } from "../components/page-state";
import { SignInScreen } from "../components/sign-in/sign-in-screen";
import { TimeAgo } from "../components/time-ago";
import { appCodeOf, describeError } from "../lib/errors";
import { formatDate } from "../lib/format";
import { useTRPC } from "../trpc";
import type { SignedInScreenProps, SignInStepProps } from "./app-routes";
import "../components/field.css";
import "./oauth-consent.css";

const DURATION_NAMES: Record<number, string> = { 1: "1 day", 7: "7 days", 30: "30 days", 90: "90 days", 365: "1 year" };

interface ClientSummary {
  name: string;
  identity: "verified" | "self_declared";
  document_host: string | null;
  logo_uri: string | null;
}

function ClientLogo({ src, size = 48 }: { src: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span className="consent__logo consent__logo--placeholder" style={{ width: size, height: size }} aria-hidden="true">
        <AgentIcon size={Math.round(size * 0.58)} />
      </span>
    );
  }
  // A client's logo comes from the client: no referrer, and a broken one falls back quietly.
  return <img className="consent__logo" src={src} alt="" width={size} height={size} referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}

/** "Verified: claude.ai" or "Unverified", with what that means in a tooltip. */
function IdentityBadge({ client }: { client: ClientSummary }) {
  return client.identity === "verified" ? (
    <Badge tone="ok" title={`Its description is published by ${client.document_host ?? "its own site"} over HTTPS`}>
      Verified: {client.document_host}
    </Badge>
  ) : (
    <Badge tone="warn" title="Atelier cannot check who made this app or what it says about itself">
      Unverified
    </Badge>
  );
}

/** The sign-in step in front of the consent screen: which app asks, then the usual e-mail code. */
export function OAuthSignInStep({ params, next, notice }: SignInStepProps) {
  const trpc = useTRPC();
  const uid = params.uid ?? "";
  const context = useQuery({ ...trpc.oauth.signInContext.queryOptions({ uid }), retry: false, refetchOnWindowFocus: false });
  if (context.isPending) return <PageLoading fullPage label="Loading the request…" />;
  const client = context.data?.client;
  if (!client) {
    // The request is gone or was started in another browser: sign in as usual; the screen then says so.
    return (
      <>
        <title>Sign in · Atelier</title>
        <SignInScreen next={next} notice={notice} />
      </>
    );
  }
  return (
    <>
      <title>{`${client.name} wants to connect · Atelier`}</title>
      <SignInScreen
        next={next}
        notice={notice}
        context={{
          title: `${client.name} wants to connect to Atelier`,
          lead: "Sign in to see what it asks for and decide. We’ll e-mail you a six-digit code — no password needed.",
          above: (
            <div className="consent-request">
              <ClientLogo src={client.logo_uri} size={40} />
              <IdentityBadge client={client} />
            </div>
          ),
        }}
      />
    </>
  );
}

function Identity({ client }: { client: ClientSummary & { via: string; registered_at: string | null; home_page: string | null } }) {
  return (
    <>
      <p className="consent__badges">
        <IdentityBadge client={client} />
      </p>
      {client.identity === "verified" ? (
        <p>
          Its description is published by <strong className="mono">{client.document_host}</strong> over HTTPS, so that site stands behind it. The name “
          {client.name}” is still the one it gives itself.
        </p>
      ) : client.document_host ? (
        <p>
          “{client.name}” is the name this app gives itself. It identified itself with a document at <strong className="mono">{client.document_host}</strong>,
          fetched without HTTPS, so its identity is not verified.
        </p>
      ) : (
        <p>
          “{client.name}” is the name this app gives itself: anyone can register an app under any name.{" "}
          {client.registered_at ? (
            <>
              It registered itself with this server <TimeAgo iso={client.registered_at} /> ({formatDate(client.registered_at)}).
            </>
          ) : null}
        </p>
      )}
      {client.home_page ? (
        <p>
          Its home page says:{" "}
          <a href={client.home_page} target="_blank" rel="noopener noreferrer">
            {client.home_page}
          </a>
        </p>
      ) : null}
    </>
  );
}

function Destination({ redirect }: { redirect: { kind: "web" | "this_computer" | "app"; text: string } }) {
  switch (redirect.kind) {
    case "web":
      return (
        <p>
          After you answer you go back to the web site <strong className="mono">{redirect.text}</strong>.
        </p>
      );
    case "this_computer":
      return (
        <p>
          After you answer you go back to a program on this computer, at <strong className="mono">{redirect.text}</strong>.
        </p>
      );
    case "app":
      return (
        <p>
          After you answer your browser opens <strong className="mono">{redirect.text}</strong>: whichever app on this device handles that kind of link, not
          necessarily the site its address mentions.
        </p>
      );
  }
}

export function OAuthConsentScreen({ user, params }: SignedInScreenProps) {
  const trpc = useTRPC();
  const id = useId();
  const uid = params.uid ?? "";
  const view = useQuery({ ...trpc.oauth.interaction.queryOptions({ uid }), retry: false, refetchOnWindowFocus: false });
  const [where, setWhere] = useState<"all" | "some">("all");
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [duration, setDuration] = useState<number | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const [allowing, setAllowing] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const decide = useMutation(
    trpc.oauth.decide.mutationOptions({
      onSuccess: ({ redirect_to, automatic }) => {
        // Back into the authorization server, which sends the browser on to the app.
        if (automatic) window.location.assign(redirect_to);
        else setDeclined(redirect_to);
      },
    }),
  );

  useEffect(() => {
    if (view.isSuccess) heading.current?.focus();
  }, [view.isSuccess, declined]);

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

  if (declined !== null) {
    return (
      <div className="consent">
        <title>{`Declined · Atelier`}</title>
        <div className="card consent__card">
          <h1 className="consent__title" tabIndex={-1} ref={heading}>
            You declined
          </h1>
          <p>Nothing was shared with {name}. You can close this window.</p>
          <p className="muted">
            If you want {name} to know you declined, go back to it: your browser then opens <span className="mono">{v.client.redirect.text}</span>.
          </p>
          <div className="form-actions form-actions--start">
            <a className="button" href={declined}>
              Go back to {name}
            </a>
          </div>
        </div>
      </div>
    );
  }

  const submit = (allow: boolean) => {
    if (allow && where === "some" && chosen.size === 0) {
      setPickError("Choose at least one workspace, or allow all of them.");
      return;
    }
    setPickError(null);
    setAllowing(allow);
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
              Connect {name} to your Atelier?
            </h1>
            <p className="consent__signed-in muted">Signed in as {user.email}</p>
          </div>
        </div>

        <div className="consent__identity">
          <Identity client={v.client} />
          <Destination redirect={v.client.redirect} />
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
            <span className="choice__text">
              <strong>All my workspaces</strong>
              <span className="choice__hint">Including ones you create or join later</span>
            </span>
          </label>
          <label className="choice">
            <input type="radio" name={`${id}-where`} checked={where === "some"} onChange={() => setWhere("some")} disabled={busy} />
            <span className="choice__text">
              <strong>Only the workspaces I choose</strong>
              <span className="choice__hint">It cannot see or change the others</span>
            </span>
          </label>
          {where === "some" ? (
            <div className="consent__picks" role="group" aria-label="Workspaces it may use">
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
                  <span className="choice__text">
                    <span>
                      {ws.name} <span className="mono muted">{ws.slug}</span>
                    </span>
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

        <div className="field consent__duration">
          <label className="field__label" htmlFor={`${id}-duration`}>
            For how long
          </label>
          <select
            id={`${id}-duration`}
            className="select select--field"
            value={String(days)}
            onChange={(e) => setDuration(Number(e.target.value))}
            disabled={busy}
            aria-describedby={`${id}-duration-hint`}
          >
            {v.durations_days.map((d) => (
              <option key={d} value={String(d)}>
                {DURATION_NAMES[d] ?? `${d} days`}
                {d === v.default_duration_days ? " (suggested)" : ""}
              </option>
            ))}
          </select>
          <p id={`${id}-duration-hint`} className="field__hint">
            You can revoke it sooner under Settings → Connected agents.
          </p>
        </div>

        {decide.isError ? (
          <p className="field__error" role="alert">
            {appCodeOf(decide.error) === "not_found"
              ? "This sign-in request has expired or was already answered. Go back to the app and connect again."
              : describeError(decide.error)}
          </p>
        ) : null}
        <div className="consent__actions">
          <button type="button" className="button" onClick={() => submit(false)} disabled={busy}>
            Deny
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy && allowing ? "Connecting…" : "Allow"}
          </button>
        </div>
        <p className="sr-only" aria-live="polite">
          {busy && allowing ? "Going back to the app…" : ""}
        </p>
      </form>
    </div>
  );
}
