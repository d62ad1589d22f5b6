// An unclaimed sandbox token through the real MCP client: full authoring in its sandbox and
// nothing more (docs/contract.md#sandboxes-limits-and-lifecycle).
import { registerAnonymous } from "@atelier/shared/domain/registrations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, rawCall, startTestSidecar, toolCall, type TestSidecar } from "./testing";

async function sandbox(sc: TestSidecar) {
  return registerAnonymous(sc.deps, { agentLabel: "Sandbox bot", requesterIp: `10.0.0.${Math.floor(Math.random() * 250)}` });
}

type Result = { isError?: boolean; content: unknown; structuredContent?: unknown };
const errorOf = (r: Result) => JSON.parse((r.content as { text: string }[])[0]?.text ?? "{}") as { error: string; message: string };

describe("an unclaimed sandbox token", () => {
  let sc: TestSidecar;
  beforeAll(async () => {
    sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_REG_PER_IP_PER_DAY: "1000", ANON_WRITES_PER_MINUTE: "1000" }, "sandbox");
  });
  afterAll(async () => {
    await sc.close();
  });

  it("authors freely in its sandbox, attributed to its label, up to 25 artifacts", async () => {
    const reg = await sandbox(sc);
    const client = await connectClient(sc, reg.credential);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain("set_workspace_visibility");
    expect(tools.map((t) => t.name)).toContain("create_page");

    const first = await client.callTool({ name: "create_page", arguments: { slug: `${reg.sandbox_bucket.slug}-0`, title: "First", body_markdown: "hello" } });
    expect(first.isError).toBeFalsy();
    expect((first.structuredContent as { page: { workspace: string; created_by: unknown } }).page).toMatchObject({
      workspace: reg.sandbox_bucket.slug,
      created_by: { kind: "agent", label: "Sandbox bot", token_id: reg.token_id, user_id: null, withheld: false, unclaimed: true },
    });
    const upd = await client.callTool({
      name: "update_page",
      arguments: { slug: `${reg.sandbox_bucket.slug}-0`, body_markdown: "hello again", expected_version: 1 },
    });
    expect(upd.isError).toBeFalsy();
    for (let i = 1; i < 25; i++) {
      const r = await client.callTool({ name: "create_page", arguments: { slug: `${reg.sandbox_bucket.slug}-${i}`, title: `P${i}`, body_markdown: "x" } });
      expect(r.isError).toBeFalsy();
    }
    const over = (await client.callTool({
      name: "create_page",
      arguments: { slug: `${reg.sandbox_bucket.slug}-25`, title: "Too many", body_markdown: "x" },
    })) as Result;
    expect(over.isError).toBe(true);
    expect(errorOf(over)).toMatchObject({ error: "limit_exceeded" });
    expect(errorOf(over).message).toContain("25");
    expect(await sc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(25);
    // Deleting one makes room again.
    expect((await client.callTool({ name: "delete_page", arguments: { slug: `${reg.sandbox_bucket.slug}-3` } })).isError).toBeFalsy();
    expect(
      (await client.callTool({ name: "create_page", arguments: { slug: `${reg.sandbox_bucket.slug}-26`, title: "Room", body_markdown: "x" } })).isError,
    ).toBeFalsy();
    await client.close();
  });

  it("is refused every forbidden action: publish, share, collaborators, new workspaces, other workspaces", async () => {
    const reg = await sandbox(sc);
    const auth = { authorization: `Bearer ${reg.credential}` };
    for (const [name, args] of [
      ["set_workspace_visibility", { workspace: reg.sandbox_bucket.slug, visibility: "public" }],
      ["add_collaborator", { workspace: reg.sandbox_bucket.slug, email: "friend@example.com", role: "editor" }],
      ["create_workspace", { slug: "mine-now", name: "Mine" }],
      ["create_share_link", { workspace: reg.sandbox_bucket.slug }],
    ] as const) {
      // Signing in again cannot fix this, so it is a tool error with a stable code, never a 403 insufficient_scope.
      const res = await rawCall(sc, toolCall(name, args), auth);
      expect(res.status).toBe(200);
      expect(res.headers.get("www-authenticate")).toBeNull();
      const body = (await res.json()) as { result: Result };
      expect(body.result.isError).toBe(true);
      expect(errorOf(body.result)).toMatchObject({ error: "forbidden", message: expect.stringContaining("claim the sandbox") });
    }
    expect(await sc.database.c.workspaces.countDocuments({ slug: "mine-now" })).toBe(0);
    expect(await sc.database.c.shareLinks.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(0);
    expect((await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id }))?.visibility).toBe("private");

    const person = await makeUser(sc, `person-${Date.now()}@example.com`);
    const personWs = await sc.database.c.workspaces.findOne({ _id: person.defaultWorkspaceId ?? "" });
    const client = await connectClient(sc, reg.credential);
    const elsewhere = (await client.callTool({
      name: "create_page",
      arguments: { slug: `intrude-${Date.now()}`, title: "x", body_markdown: "x", workspace: personWs?.slug },
    })) as Result;
    expect(elsewhere.isError).toBe(true);
    expect(errorOf(elsewhere).error).toBe("not_found");
    const other = await sandbox(sc);
    const peek = (await client.callTool({ name: "list_pages", arguments: { workspace: other.sandbox_bucket.slug } })) as Result;
    expect(errorOf(peek).error).toBe("not_found");
    expect(
      ((await client.callTool({ name: "list_workspaces", arguments: {} })).structuredContent as { workspaces: { slug: string }[] }).workspaces.map(
        (w) => w.slug,
      ),
    ).toEqual([reg.sandbox_bucket.slug]);
    await client.close();

    // A person's own token cannot write into the unowned sandbox either.
    const personToken = await makeToken(sc, person);
    const pc = await connectClient(sc, personToken.credential);
    const r = (await pc.callTool({
      name: "create_page",
      arguments: { slug: `x-${Date.now()}`, title: "x", body_markdown: "x", workspace: reg.sandbox_bucket.slug },
    })) as Result;
    expect(errorOf(r).error).toBe("not_found");
    await pc.close();
  });
});

describe("sandbox caps", () => {
  // The cap counts everything stored: each version's content twice (the page and its
  // revision), its rendered document, and the activity feed.
  it("refuses content past the size cap", async () => {
    const sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_MAX_BYTES: "15000", ANON_WRITES_PER_MINUTE: "1000" }, "sizecap");
    try {
      const reg = await sandbox(sc);
      const client = await connectClient(sc, reg.credential);
      expect(
        (await client.callTool({ name: "create_page", arguments: { slug: `${reg.sandbox_bucket.slug}-a`, title: "a", body_markdown: "x".repeat(3000) } }))
          .isError,
      ).toBeFalsy();
      const big = (await client.callTool({
        name: "create_page",
        arguments: { slug: `${reg.sandbox_bucket.slug}-b`, title: "b", body_markdown: "y".repeat(1500) },
      })) as Result;
      expect(errorOf(big).error).toBe("limit_exceeded");
      const grow = (await client.callTool({
        name: "update_page",
        arguments: { slug: `${reg.sandbox_bucket.slug}-a`, body_markdown: "x".repeat(4500) },
      })) as Result;
      expect(errorOf(grow).error).toBe("limit_exceeded");
      expect((await sc.database.c.workspaces.findOne({ _id: reg.sandbox_bucket.id }))?.usage.bytes).toBeLessThanOrEqual(15000);
      expect((await client.callTool({ name: "update_page", arguments: { slug: `${reg.sandbox_bucket.slug}-a`, body_markdown: "short" } })).isError).toBeFalsy();
      await client.close();
    } finally {
      await sc.close();
    }
  });

  it("answers writes past the per-minute cap with 429 and Retry-After, while reads go on", async () => {
    const sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_WRITES_PER_MINUTE: "3" }, "writecap");
    try {
      const reg = await sandbox(sc);
      const auth = { authorization: `Bearer ${reg.credential}` };
      for (let i = 0; i < 3; i++) {
        const ok = await rawCall(sc, toolCall("create_page", { slug: `${reg.sandbox_bucket.slug}-${i}`, title: "t", body_markdown: "x" }), auth);
        expect(ok.status).toBe(200);
      }
      const fourth = await rawCall(sc, toolCall("create_page", { slug: `${reg.sandbox_bucket.slug}-9`, title: "t", body_markdown: "x" }), auth);
      expect(fourth.status).toBe(429);
      const retry = Number(fourth.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(await sc.database.c.pages.countDocuments({ workspaceId: reg.sandbox_bucket.id })).toBe(3);
      expect((await rawCall(sc, toolCall("list_pages", { workspace: reg.sandbox_bucket.slug }), auth)).status).toBe(200);
    } finally {
      await sc.close();
    }
  });
});
