import { pingDatabase, type Database } from "./db/index";

/** Whether the database answers a ping now. */
export function databaseReachable(deps: { database: Database }): Promise<boolean> {
  return pingDatabase(deps.database);
}

/** What /healthz answers in every process: 200 with the database reachable, 503 otherwise. */
export async function healthStatus(database: Database): Promise<{ status: 200 | 503; body: Record<string, string> }> {
  return (await pingDatabase(database))
    ? { status: 200, body: { status: "ok", database: "ok" } }
    : { status: 503, body: { error: "unavailable", error_description: "The database is unreachable." } };
}

interface MinimalResponse {
  status(code: number): this;
  set(name: string, value: string): this;
  json(body: unknown): unknown;
}

/** The /healthz handler shared by the server and the sidecar. */
export function healthHandler(database: Database) {
  return async (_req: unknown, res: MinimalResponse): Promise<void> => {
    const { status, body } = await healthStatus(database);
    res.status(status).set("Cache-Control", "no-store").json(body);
  };
}
