import { type FormEvent, type ReactNode, useId, useState } from "react";
import { describeError, fieldIssue } from "../../lib/errors";
import { type Member, type Role, useAddMember, useMembers, useRemoveMember, useSetMemberRole } from "../../lib/collaboration";
import { looksLikeEmail } from "../sign-in/sign-in-messages";
import { ROLE_NAMES } from "../badges";
import { ConfirmDialog, confirmsMutation } from "../confirm-dialog";
import { EmailAddress } from "../email-address";
import { TimeAgo } from "../time-ago";
import { QueryFallback } from "../load-error";
import { Field } from "../field";
import "./panels.css";
import "./members-panel.css";

const ROLE_HINTS: Record<Role, string> = {
  owner: "Everything, including members, agents and visibility",
  editor: "Reads and edits pages; their agents can too",
  viewer: "Reads pages only",
};

export function MembersPanel({ slug, canManage, meId }: { slug: string; canManage: boolean; meId: string }) {
  const members = useMembers(slug, true);
  const setRole = useSetMemberRole();
  const remove = useRemoveMember();
  const [removing, setRemoving] = useState<Member | null>(null);

  const [withdrawing, setWithdrawing] = useState<Member | null>(null);
  const owners = members.data?.filter((m) => m.role === "owner").length ?? 0;
  // Invited people who have not signed in yet are pending; owners may withdraw them.
  const pending = members.data?.filter((m) => !m.confirmed) ?? [];
  const joined = members.data?.filter((m) => m.confirmed) ?? [];

  return (
    <section className="panel-section" aria-labelledby="members-title">
      <h2 id="members-title" className="sr-only">
        People
      </h2>
      {canManage ? <InviteForm slug={slug} /> : null}
      {!members.isSuccess ? (
        <QueryFallback query={members} loading="Loading people…" what="The member list" />
      ) : (
        <ul className="member-list" aria-label="Members">
          {joined.map((m) => {
            const lastOwner = m.role === "owner" && owners <= 1;
            return (
              <li key={m.user_id} className="member-row">
                <MemberWho email={m.email} chip={m.user_id === meId ? "You" : null}>
                  <TimeAgo iso={m.added_at} prefix="added " />
                </MemberWho>
                {canManage && !lastOwner ? (
                  <span className="member-row__actions">
                    <label className="sr-only" htmlFor={`role-${m.user_id}`}>
                      Role of {m.email}
                    </label>
                    <select
                      id={`role-${m.user_id}`}
                      className="select"
                      value={m.role}
                      disabled={setRole.isPending && setRole.variables.user_id === m.user_id}
                      onChange={(e) => setRole.mutate({ slug, user_id: m.user_id, role: e.target.value as Role })}
                    >
                      {(Object.keys(ROLE_NAMES) as Role[]).map((r) => (
                        <option key={r} value={r}>
                          {ROLE_NAMES[r]}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="button button--small button--quiet"
                      onClick={() => setRemoving(m)}
                      aria-label={m.user_id === meId ? "Leave this workspace" : `Remove ${m.email}`}
                    >
                      {m.user_id === meId ? "Leave" : "Remove"}
                    </button>
                  </span>
                ) : (
                  <span className="member-row__role" title={ROLE_HINTS[m.role]}>
                    {ROLE_NAMES[m.role]}
                    {lastOwner && canManage ? <span className="sr-only"> (the only owner)</span> : null}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {members.isSuccess && pending.length > 0 ? (
        <>
          <h3 className="section-title members-pending__title">Pending invitations</h3>
          <p className="muted">They were e-mailed a link and join when they sign in with that address.</p>
          <ul className="member-list" aria-label="Pending invitations">
            {pending.map((m) => (
              <li key={m.user_id} className="member-row">
                <MemberWho email={m.email} chip="Pending">
                  {ROLE_NAMES[m.role]} · <TimeAgo iso={m.added_at} prefix="invited " />
                </MemberWho>
                {canManage ? (
                  <button
                    type="button"
                    className="button button--small button--quiet"
                    onClick={() => setWithdrawing(m)}
                    aria-label={`Withdraw the invitation to ${m.email}`}
                  >
                    Withdraw
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {setRole.isError ? (
        <p className="field__error" role="alert">
          Couldn’t change the role. {describeError(setRole.error)}
        </p>
      ) : null}
      <dl className="role-legend">
        {(Object.keys(ROLE_HINTS) as Role[]).map((r) => (
          <div key={r}>
            <dt>{ROLE_NAMES[r]}</dt>
            <dd>{ROLE_HINTS[r]}</dd>
          </div>
        ))}
      </dl>

      <ConfirmDialog
        open={withdrawing !== null}
        title={`Withdraw the invitation to ${withdrawing?.email ?? ""}?`}
        confirmLabel="Withdraw"
        pendingLabel="Withdrawing…"
        {...confirmsMutation(remove, () => setWithdrawing(null))}
        onConfirm={() => {
          if (withdrawing) remove.mutate({ slug, user_id: withdrawing.user_id }, { onSuccess: () => setWithdrawing(null) });
        }}
      >
        <p>The link we e-mailed them will no longer let them in, and we forget their address unless another workspace invited them too.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== null}
        title={removing?.user_id === meId ? "Leave this workspace?" : `Remove ${removing?.email ?? ""}?`}
        confirmLabel={removing?.user_id === meId ? "Leave" : "Remove"}
        pendingLabel="Removing…"
        {...confirmsMutation(remove, () => setRemoving(null))}
        onConfirm={() => {
          if (removing) remove.mutate({ slug, user_id: removing.user_id }, { onSuccess: () => setRemoving(null) });
        }}
      >
        <p>
          {removing?.user_id === meId
            ? "You’ll lose access to its pages, and so will your agents here."
            : "They’ll lose access to its pages, and so will their agents here. Pages they wrote stay."}
        </p>
      </ConfirmDialog>
    </section>
  );
}

function InviteForm({ slug }: { slug: string }) {
  const id = useId();
  const add = useAddMember();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeEmail(address)) {
      setProblem("Enter an e-mail address, like ana@example.com.");
      return;
    }
    setProblem(null);
    add.mutate(
      { slug, email: address, role },
      {
        onSuccess: (r) => {
          const can = role === "viewer" ? "read" : "read and edit";
          setAdded(
            r.pending
              ? r.mailed
                ? `We e-mailed ${address} an invitation. They can ${can} this workspace once they sign in with that address.`
                : `${address} is invited, but the e-mail didn’t go out. Ask them to sign in at ${window.location.origin}/app with that address.`
              : r.mailed
                ? `${address} can now ${can} this workspace. We e-mailed them the link.`
                : `${address} can now ${can} this workspace.`,
          );
          setEmail("");
        },
      },
    );
  };

  const error = problem ?? (add.error ? (fieldIssue(add.error, "email") ?? describeError(add.error)) : null);

  return (
    <form className="invite-form" onSubmit={submit} noValidate aria-label="Add a person">
      <Field className="invite-form__email" label="Add a person by e-mail">
        {(control) => (
          <input
            {...control}
            className="field__input"
            type="email"
            inputMode="email"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="ana@example.com"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setProblem(null);
              setAdded(null);
              if (add.isError) add.reset();
            }}
            // The hint and the error show under the whole form.
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          />
        )}
      </Field>
      <Field className="invite-form__role" label="Role">
        {(control) => (
          <select {...control} className="select select--field" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="editor">Editor</option>
            <option value="viewer">Viewer</option>
            <option value="owner">Owner</option>
          </select>
        )}
      </Field>
      <button type="submit" className="button button--primary invite-form__submit" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add"}
      </button>
      <p id={`${id}-hint`} className="field__hint invite-form__hint">
        We e-mail them a link. No account is needed beforehand: they join when they sign in with this address.
      </p>
      {error ? (
        <p id={`${id}-error`} className="field__message field__message--error invite-form__hint" role="alert">
          {error}
        </p>
      ) : null}
      <p className="notice invite-form__hint" role="status" aria-live="polite">
        {added}
      </p>
    </form>
  );
}

/** The person half of a member row (a member or a pending invitation): initial, address, a chip, one line about them. */
function MemberWho({ email, chip, children }: { email: string; chip: string | null; children: ReactNode }) {
  return (
    <>
      <span className="avatar avatar--small" aria-hidden="true">
        {(email[0] ?? "?").toUpperCase()}
      </span>
      <span className="member-row__who">
        <span className="member-row__email">
          <EmailAddress email={email} />
          {chip ? <span className="chip">{chip}</span> : null}
        </span>
        <span className="member-row__meta">{children}</span>
      </span>
    </>
  );
}
