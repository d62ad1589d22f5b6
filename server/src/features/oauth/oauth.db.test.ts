import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startTestServer, type TestServer } from "../../testing";
import { connect, registerPublicClient } from "./oauth-testing";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({}, "oauth");
});
afterAll(async () => {
  await srv.close();
});

const REDIRECT = "http://127.0.0.1:53682/callback";

describe("authorization code flow", () => {
  it("a registered public client gets tokens that act for the person at /mcp", async () => {
    const b = await signIn(srv, `flow-${Date.now()}@example.com`);
    const clientId = await registerPublicClient(srv, REDIRECT, "Flow Agent");
    const tokens = await connect(srv, b, clientId, REDIRECT);
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.refresh_token).toBeTruthy();
    const t = await authenticateBearer(srv.database, srv.config, tokens.access_token);
    expect(t.kind).toBe("oauth");
    expect(t.label).toBe("Flow Agent");
  });
});
