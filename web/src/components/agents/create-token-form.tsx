import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { describeError, fieldIssue } from "../../lib/errors";
import { formatDate } from "../../lib/format";
import { type RouterOutputs, useTRPC } from "../../trpc";
import { FieldError, TextField } from "../field";
import "./create-token-form.css";

type Issued = RouterOutputs["tokens"]["create"];
type Scope = "mcp:read" | "mcp:write";

const EXPIRY_PRESETS = [7, 30, 90, 365] as const;

function expiryName(days: number): string {
  return days === 365 ? "1 year" : `${days} days`;
}

/** A new token: a name, what it may do, for how long, and optionally which workspaces. */
export function CreateTokenForm({ onIssued, initialWorkspace }: { onIssued: (issued: Issued, label: string) => void; initialWorkspace?: string }) {
  const id = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const workspaces = useQuery(trpc.workspaces.list.queryOptions());
  const [label, setLabel] = useState("");
  const [scopes, setScopes] = useState<Set<Scope>>(new Set(["mcp:read", "mcp:write"]));
  const [expiry, setExpiry] = useState<string>("90");
  const [customDays, setCustomDays] = useState("180");
  const [limitTo, setLimitTo] = useState<"all" | "some">(initialWorkspace ? "some" : "all");
  const [chosen, setChosen] = useState<Set<string>>(new Set(initialWorkspace ? [initialWorkspace] : []));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const labelRef = useRef<HTMLInputElement>(null);

  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: async (issued, input) => {
        onIssued(issued, input.label);
        setLabel("");
        await queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
      },
    }),
  );

  const days = expiry === "custom" ? Number(customDays) : Number(expiry);
  const daysValid = Number.isInteger(days) && days >= 1 && days <= 365;
  const expiresOn = daysValid ? formatDate(new Date(Date.now() + days * 86_400_000).toISOString()) : null;

  const toggleScope = (scope: Scope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!label.trim()) found.label = "Name the token after the agent or the machine it’s for.";
    if (scopes.size === 0) found.scopes = "Choose at least one permission.";
    if (!daysValid) found.expiry = "Choose between 1 and 365 days.";
    if (limitTo === "some" && chosen.size === 0) found.workspaces = "Choose at least one workspace, or allow all.";
    setProblems(found);
    if (Object.keys(found).length > 0) {
      if (found.label) labelRef.current?.focus();
      return;
    }
    create.mutate({
      label: label.trim(),
      scopes: [...scopes],
      expiresInDays: days,
      ...(limitTo === "some" ? { workspaces: [...chosen] } : {}),
    });
  };

  const labelError = problems.label ?? (create.error ? fieldIssue(create.error, "label") : null);
  const otherError = create.error && !fieldIssue(create.error, "label") ? describeError(create.error) : null;
  const writable = workspaces.data ?? [];

  return (
    <form className="token-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        New token
      </h2>
      <TextField
        label="Name"
        hint="Shown next to every change the agent makes."
        error={labelError}
        inputRef={labelRef}
        value={label}
        maxLength={100}
        placeholder="Claude Code on my laptop"
        onChange={(value) => {
          setLabel(value);
          if (problems.label) setProblems({ ...problems, label: "" });
          if (create.isError) create.reset();
        }}
      />

      <fieldset className="choice-group" aria-describedby={problems.scopes ? `${id}-scopes-error` : undefined}>
        <legend className="field__label">What it may do</legend>
        <label className="choice">
          <input type="checkbox" checked={scopes.has("mcp:read")} onChange={(e) => toggleScope("mcp:read", e.target.checked)} />
          <span>
            <strong>Read</strong> <code className="code-chip">mcp:read</code>
            <span className="choice__hint">See workspaces and read pages</span>
          </span>
        </label>
        <label className="choice">
          <input type="checkbox" checked={scopes.has("mcp:write")} onChange={(e) => toggleScope("mcp:write", e.target.checked)} />
          <span>
            <strong>Write</strong> <code className="code-chip">mcp:write</code>
            <span className="choice__hint">Create, edit and delete pages where you can edit</span>
          </span>
        </label>
        <FieldError id={`${id}-scopes-error`}>{problems.scopes}</FieldError>
      </fieldset>

      <div className="field">
        <label className="field__label" htmlFor={`${id}-expiry`}>
          Expires after
        </label>
        <div className="inline-fields">
          <select id={`${id}-expiry`} className="select select--field" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRY_PRESETS.map((d) => (
              <option key={d} value={String(d)}>
                {expiryName(d)}
                {d === 90 ? " (suggested)" : ""}
              </option>
            ))}
            <option value="custom">Another number of days…</option>
          </select>
          {expiry === "custom" ? (
            <>
              <label className="sr-only" htmlFor={`${id}-days`}>
                Days until it expires (1 to 365)
              </label>
              <input
                id={`${id}-days`}
                className="field__input field__input--days"
                type="number"
                inputMode="numeric"
                min={1}
                max={365}
                value={customDays}
                onChange={(e) => setCustomDays(e.target.value)}
                aria-invalid={!daysValid ? true : undefined}
              />
              <span className="muted">days</span>
            </>
          ) : null}
        </div>
        <p className="field__hint" aria-live="polite">
          {expiresOn ? `It stops working on ${expiresOn}. You can rotate or revoke it sooner.` : "Choose between 1 and 365 days."}
        </p>
      </div>

      <fieldset className="choice-group">
        <legend className="field__label">Where</legend>
        <label className="choice">
          <input type="radio" name={`${id}-where`} checked={limitTo === "all"} onChange={() => setLimitTo("all")} />
          <span>
            <strong>All my workspaces</strong>
            <span className="choice__hint">Including ones you create or join later</span>
          </span>
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-where`} checked={limitTo === "some"} onChange={() => setLimitTo("some")} />
          <span>
            <strong>Only the workspaces I choose</strong>
          </span>
        </label>
        {limitTo === "some" ? (
          <div className="workspace-picks" role="group" aria-label="Workspaces this token may use">
            {workspaces.isPending ? (
              <p className="muted">Loading your workspaces…</p>
            ) : writable.length === 0 ? (
              <p className="muted">You have no workspaces yet.</p>
            ) : (
              writable.map((ws) => (
                <label key={ws.id} className="choice choice--compact">
                  <input
                    type="checkbox"
                    checked={chosen.has(ws.slug)}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(ws.slug);
                      else next.delete(ws.slug);
                      setChosen(next);
                    }}
                  />
                  <span>
                    {ws.name} <span className="mono muted">{ws.slug}</span>
                    {!ws.can_write ? <span className="choice__hint">You can only read here, so the agent can too</span> : null}
                  </span>
                </label>
              ))
            )}
            <FieldError>{problems.workspaces}</FieldError>
          </div>
        ) : null}
      </fieldset>

      <p className="field__error" role="alert">
        {otherError}
      </p>
      <div className="form-actions form-actions--start">
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
    </form>
  );
}
