// Webhooks of a workspace, for its owners (docs/events.md#webhooks): add an endpoint (its
// signing secret shown once), see each one's status, its delivery log with the answers it
// gave, send a delivery again, rotate the secret, turn a disabled one back on, remove it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@atelier/shared/schemas/webhooks";
import { type FormEvent, useState } from "react";
import { describeError, fieldIssue } from "../../lib/errors";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { Badge } from "../badges";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { CopyButton } from "../copy-button";
import { TextField } from "../field";
import { QueryFallback } from "../load-error";
import { TimeAgo } from "../time-ago";

type Workspace = RouterOutputs["workspaces"]["get"];
type Hook = RouterOutputs["webhooks"]["list"][number];

export function WebhooksSection({ workspace }: { workspace: Workspace }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const slug = workspace.slug;
  const hooks = useQuery(trpc.webhooks.list.queryOptions({ slug }));
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [secret, setSecret] = useState<{ secret: string; what: string } | null>(null);
  const [removing, setRemoving] = useState<Hook | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.list.queryFilter({ slug }));
  const add = useMutation(
    trpc.webhooks.add.mutationOptions({
      onSuccess: async (r) => {
        setSecret({ secret: r.secret, what: `the endpoint ${r.webhook.url}` });
        setUrl("");
        setEvents([]);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.webhooks.remove.mutationOptions({
      onSuccess: async () => {
        setRemoving(null);
        await refresh();
      },
    }),
  );
  const unclaimed = workspace.sandbox?.state === "unclaimed";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSecret(null);
    add.mutate({ workspace: slug, url: url.trim(), events });
  };
  const toggle = (type: WebhookEventType, on: boolean) => setEvents((prev) => (on ? [...prev, type] : prev.filter((t) => t !== type)));

  return (
    <section className="panel-section settings__section" aria-labelledby="settings-webhooks-title">
      <h2 id="settings-webhooks-title" className="section-title">
        Webhooks
      </h2>
      <p className="muted">
        Atelier POSTs each change of this workspace to your endpoint, signed (Standard Webhooks): its type, ids and version, never content. Failed deliveries
        are retried for about a day; an endpoint that fails all that time is turned off and you get an e-mail.
      </p>
      {unclaimed ? (
        <p className="muted">An unclaimed sandbox can’t have webhooks. Claim it first.</p>
      ) : (
        <form className="settings__row-form webhooks__form" onSubmit={submit} noValidate aria-label="New webhook">
          <TextField
            label="Endpoint URL"
            hint="https, on a public address"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/atelier-webhook"
            value={url}
            error={add.error ? (fieldIssue(add.error, "url") ?? null) : null}
            onChange={(v) => {
              setUrl(v);
              if (add.isError) add.reset();
            }}
          />
          <button type="submit" className="button button--primary" disabled={add.isPending || !url.trim()}>
            {add.isPending ? "Adding…" : "Add webhook"}
          </button>
          <details className="webhooks__events">
            <summary>Events: {events.length === 0 ? "every type" : `${events.length} chosen`}</summary>
            <fieldset className="webhooks__event-grid">
              <legend className="sr-only">Event types to send (none chosen: every type)</legend>
              {WEBHOOK_EVENT_TYPES.map((t) => (
                <label key={t} className="webhooks__event">
                  <input type="checkbox" checked={events.includes(t)} onChange={(e) => toggle(t, e.target.checked)} />
                  <span className="mono">{t}</span>
                </label>
              ))}
            </fieldset>
          </details>
        </form>
      )}
      {add.isError && !fieldIssue(add.error, "url") ? (
        <p className="field__error" role="alert">
          Couldn’t add the webhook. {describeError(add.error)}
        </p>
      ) : null}
      {secret ? (
        <div className="callout settings__created" role="status">
          <p>The signing secret of {secret.what}. Copy it now: it is shown only this once. Your receiver verifies each delivery with it.</p>
          <div className="link-box">
            <span className="link-box__url mono" data-testid="webhook-secret">
              {secret.secret}
            </span>
            <CopyButton text={secret.secret} label="Copy the signing secret" />
          </div>
        </div>
      ) : null}
      {!hooks.isSuccess ? (
        <QueryFallback query={hooks} loading="Loading webhooks…" what="The webhooks" />
      ) : hooks.data.length === 0 ? (
        <p className="muted">No webhooks yet.</p>
      ) : (
        <ul className="webhooks__list" aria-label="Webhooks">
          {hooks.data.map((h) => (
            <WebhookRow
              key={h.webhook_id}
              slug={slug}
              hook={h}
              onSecret={(s) => setSecret({ secret: s, what: `the endpoint ${h.url}` })}
              onRemove={() => setRemoving(h)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this webhook?"
        confirmLabel="Remove"
        pendingLabel="Removing…"
        {...confirmsMutation(remove, () => setRemoving(null))}
        onConfirm={() => {
          if (removing) remove.mutate({ workspace: slug, webhook_id: removing.webhook_id });
        }}
      >
        <p>Nothing more is sent to {removing?.url}, and its delivery log is deleted.</p>
      </ConfirmDialog>
    </section>
  );
}

function WebhookRow({ slug, hook, onSecret, onRemove }: { slug: string; hook: Hook; onSecret: (secret: string) => void; onRemove: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const ref = { workspace: slug, webhook_id: hook.webhook_id };
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const rotate = useMutation(
    trpc.webhooks.rotate.mutationOptions({
      onSuccess: async (r) => {
        onSecret(r.secret);
        await refresh();
      },
    }),
  );
  const enable = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const problem = rotate.error ?? enable.error;
  return (
    <li className="webhooks__item">
      <div className="webhooks__head">
        <span className="webhooks__url mono">{hook.url}</span>
        {hook.status === "active" ? (
          hook.failing_since ? (
            <Badge tone="warn" title="Its last attempts failed; they are being retried">
              Failing
            </Badge>
          ) : (
            <Badge tone="ok">Active</Badge>
          )
        ) : (
          <Badge tone="warn">{hook.disabled_reason === "failing" ? "Disabled: kept failing" : "Off"}</Badge>
        )}
      </div>
      <p className="member-row__meta">
        {hook.events.length === 0 ? "Every event type" : hook.events.join(", ")} · added <TimeAgo iso={hook.created_at} />
        {hook.failing_since ? (
          <>
            {" "}
            · failing since <TimeAgo iso={hook.failing_since} />
          </>
        ) : null}
        {hook.previous_secret_until ? ` · the previous secret also signs until ${new Date(hook.previous_secret_until).toLocaleString()}` : null}
      </p>
      <div className="webhooks__actions">
        <button type="button" className="button button--small" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Hide deliveries" : "Deliveries"}
        </button>
        {hook.status === "disabled" ? (
          <button type="button" className="button button--small" disabled={enable.isPending} onClick={() => enable.mutate({ ...ref, enabled: true })}>
            Turn on
          </button>
        ) : null}
        <button type="button" className="button button--small" disabled={rotate.isPending} onClick={() => rotate.mutate(ref)}>
          {rotate.isPending ? "Rotating…" : "Rotate secret"}
        </button>
        <button type="button" className="button button--small" onClick={onRemove} aria-label={`Remove the webhook to ${hook.url}`}>
          Remove
        </button>
      </div>
      {problem ? (
        <p className="field__error" role="alert">
          {describeError(problem)}
        </p>
      ) : null}
      {open ? <DeliveryLog slug={slug} hook={hook} /> : null}
    </li>
  );
}

function DeliveryLog({ slug, hook }: { slug: string; hook: Hook }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const log = useQuery(trpc.webhooks.deliveries.queryOptions({ workspace: slug, webhook_id: hook.webhook_id }));
  const resend = useMutation(trpc.webhooks.resend.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.webhooks.deliveries.queryFilter()) }));
  if (!log.isSuccess) return <QueryFallback query={log} loading="Loading deliveries…" what="The delivery log" />;
  if (log.data.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <>
      {resend.isError ? (
        <p className="field__error" role="alert">
          {describeError(resend.error)}
        </p>
      ) : null}
      <ul className="webhooks__log" aria-label={`Deliveries to ${hook.url}`}>
        {log.data.map((d) => (
          <li key={d.delivery_id} className="webhooks__delivery">
            <span className="mono">{d.type}</span>
            <span className={`webhooks__status webhooks__status--${d.status}`}>
              {d.status === "delivered" ? "Delivered" : d.status === "pending" ? "Waiting" : "Failed"}
              {d.status !== "pending" && d.last_status !== null ? ` · ${d.last_status}` : ""}
            </span>
            <span className="member-row__meta">
              #{d.seq} · {d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`} · <TimeAgo iso={d.created_at} />
              {d.last_error ? ` · ${d.last_error}` : ""}
            </span>
            <button
              type="button"
              className="button button--small"
              disabled={resend.isPending || hook.status !== "active"}
              onClick={() => resend.mutate({ workspace: slug, delivery_id: d.delivery_id })}
            >
              Send again
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
