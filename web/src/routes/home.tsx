import { useQuery } from "@tanstack/react-query";
import { EmailAddress } from "../components/email-address";
import { useTRPC } from "../trpc";
import type { SignedInPageProps } from "./signed-in-routes";

function greeting(date = new Date()): string {
  const hour = date.getHours();
  if (hour < 5) return "Working late";
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}

export function HomePage({ user }: SignedInPageProps) {
  const trpc = useTRPC();
  const health = useQuery(trpc.system.health.queryOptions());

  return (
    <div className="home">
      <title>Home · Atelier</title>
      <header className="page-header">
        <h1 className="page-header__title">{greeting()}</h1>
        <p className="page-header__lead">
          You’re signed in as <strong data-testid="home-email">
            <EmailAddress email={user.email} />
          </strong>.
        </p>
      </header>

      <section className="card workspace-card" aria-labelledby="workspace-title">
        <h2 id="workspace-title" className="card__eyebrow">
          Your default workspace
        </h2>
        {user.defaultWorkspace ? (
          <>
            <p className="workspace-card__slug" data-testid="default-workspace">
              {user.defaultWorkspace}
            </p>
            <p className="card__text">
              Pages, documents and tables you and your agents save land here unless you pick another workspace.
            </p>
          </>
        ) : (
          <>
            <p className="workspace-card__slug workspace-card__slug--empty" data-testid="default-workspace">
              None yet
            </p>
            <p className="card__text">You don’t have a default workspace yet.</p>
          </>
        )}
      </section>

      <p className="service-status" role="status" aria-live="polite">
        {health.isPending ? null : health.data?.database === "ok" ? (
          <>
            <span className="dot dot--ok" aria-hidden="true" /> All systems running
          </>
        ) : (
          <>
            <span className="dot dot--warn" aria-hidden="true" /> Atelier can’t reach its database right now; changes
            may not save.
          </>
        )}
      </p>
    </div>
  );
}
