import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "./trpc";

export function App() {
  const trpc = useTRPC();
  const health = useQuery(trpc.system.health.queryOptions());
  return (
    <div className="shell">
      <header className="topbar">
        <a className="brand" href="/app/">
          Atelier
        </a>
      </header>
      <main className="main">
        <h1>Your workspace for living artifacts</h1>
        <p className="lead">Documents, pages and small tables that people and agents keep up to date together.</p>
        <p className="status" role="status" data-testid="health">
          {health.isPending
            ? "Connecting…"
            : health.data?.database === "ok"
              ? "Connected"
              : "The service cannot reach its database right now."}
        </p>
      </main>
    </div>
  );
}
