import type { Database } from "@atelier/shared/db";
import { testDeps, capturingLogger, listen, testConfig } from "@atelier/shared/testing";
import { describe, expect, it } from "vitest";
import { createApp } from "./app";

// Every driver call fails the way the MongoDB driver fails while the database is down.
function unreachable(): never {
  const err = new Error("connect ECONNREFUSED 127.0.0.1:27017");
  err.name = "MongoServerSelectionError";
  throw err;
}
const collection = new Proxy({}, { get: () => async () => unreachable() });
const database = {
  client: { close: async () => {} },
  db: { command: async () => unreachable() },
  c: new Proxy({}, { get: () => collection }),
} as unknown as Database;

describe("tRPC while the database is unreachable", () => {
  it("answers a request with a session cookie 503 unavailable, not 500", async () => {
    const config = testConfig();
    const { logger } = capturingLogger("silent");
    const http = await listen(createApp({ ...testDeps(database), config, logger }));
    try {
      const res = await fetch(`${http.url}/api/trpc/me.get`, { headers: { cookie: "atelier_session=some-session-id" } });
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: { data: { appCode: string | null } } };
      expect(body.error.data.appCode).toBe("unavailable");
    } finally {
      await http.close();
    }
  });
});
