// Webhooks over tRPC, as the app's settings use them: the secret in the add answer only, field
// problems as 400 with the field named and nothing written, owners only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
const slug = `hooks-${Date.now().toString(36)}`;
beforeAll(async () => {
  srv = await startTestServer({}, "webhooks");
  owner = await signIn(srv, `hooks-owner-${Date.now()}@example.com`);
  await owner.mutation("workspaces.create", { slug, name: "Hooks" });
});
afterAll(async () => {
  await srv.close();
});

interface Added {
  webhook: { webhook_id: string; url: string; events: string[]; status: string };
  secret: string;
}

describe("webhooks over tRPC", () => {
  it("adds an endpoint with its secret answered once, lists it without, rotates and removes it", async () => {
    const added = await trpcData<Added>(await owner.mutation("webhooks.add", { workspace: slug, url: "http://127.0.0.1:9/hook", events: ["row.updated"] }));
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(added.webhook).toMatchObject({ url: "http://127.0.0.1:9/hook", events: ["row.updated"], status: "active" });
    const listed = await owner.query("webhooks.list", { slug });
    const text = await listed.text();
    expect(text).toContain(added.webhook.webhook_id);
    expect(text).not.toContain(added.secret.slice(6));
    const rotated = await trpcData<Added & { webhook: { previous_secret_until: string | null } }>(
      await owner.mutation("webhooks.rotate", { workspace: slug, webhook_id: added.webhook.webhook_id }),
    );
    expect(rotated.secret).not.toBe(added.secret);
    expect(rotated.webhook.previous_secret_until).not.toBeNull();
    expect(await trpcData(await owner.query("webhooks.deliveries", { workspace: slug, webhook_id: added.webhook.webhook_id }))).toEqual([]);
    expect(await trpcData(await owner.mutation("webhooks.remove", { workspace: slug, webhook_id: added.webhook.webhook_id }))).toEqual({ ok: true });
    expect(await srv.database.c.webhooks.countDocuments({})).toBe(0);
  });

  it("refuses a bad URL or event type with a 400 naming the field, and writes nothing", async () => {
    for (const [input, field] of [
      [{ workspace: slug, url: "ftp://example.com/x" }, "url"],
      [{ workspace: slug, url: "https://user:pw@example.com/x" }, "url"],
      [{ workspace: slug, url: "http://127.0.0.1:9/x", events: ["page.eaten"] }, "events.0"],
    ] as const) {
      const res = await owner.mutation("webhooks.add", input);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { data: { appCode: string; issues: { path: string }[] } } };
      expect(body.error.data.appCode).toBe("invalid_request");
      expect(body.error.data.issues.map((i) => i.path)).toContain(field);
    }
    expect(await srv.database.c.webhooks.countDocuments({})).toBe(0);
  });

  it("lets only owners manage webhooks", async () => {
    const editorEmail = `hooks-editor-${Date.now()}@example.com`;
    await owner.mutation("workspaces.members.add", { slug, email: editorEmail, role: "editor" });
    const editor = await signIn(srv, editorEmail);
    const res = await editor.mutation("webhooks.add", { workspace: slug, url: "http://127.0.0.1:9/x" });
    expect(res.status).toBe(403);
    expect((await editor.query("webhooks.list", { slug })).status).toBe(403);
    expect(await srv.database.c.webhooks.countDocuments({})).toBe(0);
  });
});
