// export_workspace and import_workspace through the real MCP client (issue 31 item 2): an owner's
// agent takes a workspace out and brings it into another, byte for byte, and with full
// history every version in order; others are refused, and a bad archive writes nothing.
import { updatePage } from "@atelier/shared/domain/pages/update-page";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { addMemberByEmail } from "@atelier/shared/domain/members";
import { createWorkspaceFor } from "@atelier/shared/domain/workspaces";
import type { UserDoc } from "@atelier/shared/db";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  sc = await startTestSidecar({}, "mcparchive");
  owner = await makeUser(sc, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await sc.close();
});

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]?.text ?? "";
  return {
    isError: r.isError === true,
    data: r.structuredContent as Record<string, unknown>,
    error: r.isError ? (JSON.parse(text) as { error: string }).error : null,
  };
}

describe("export_workspace and import_workspace", () => {
  it("an owner's agent exports a workspace and imports it into another: the page comes back byte for byte", async () => {
    const principal = { kind: "user" as const, user: owner };
    const from = uniq("from");
    const to = uniq("to");
    await createWorkspaceFor(sc.deps, principal, { slug: from, name: "From" });
    await createWorkspaceFor(sc.deps, principal, { slug: to, name: "To" });
    const slug = uniq("guide");
    const body = "# Guide\n\nÜmlauts, “quotes” and a table:\n\n| a | b |\n| - | - |\n| 1 | 2 |\n";
    await createPage(sc.deps, principal, { workspace: from, slug, title: "Guide", body_markdown: body });
    const client = await connectClient(sc, (await makeToken(sc, owner)).credential);

    const exported = await call(client, "export_workspace", { workspace: from });
    expect(exported.isError).toBe(false);
    expect(exported.data).toMatchObject({ workspace: from, filename: expect.stringMatching(/\.zip$/) });
    const zip = Buffer.from(String(exported.data.archive_base64), "base64");
    expect(zip.length).toBe(exported.data.bytes);
    expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");

    const imported = await call(client, "import_workspace", { workspace: to, archive_base64: zip.toString("base64") });
    expect(imported.isError).toBe(false);
    expect(imported.data.pages).toEqual([{ file: `pages/${slug}.md`, slug: `${slug}-2` }]);
    const copy = await sc.database.c.pages.findOne({ slug: `${slug}-2` });
    const ws = await sc.database.c.workspaces.findOne({ slug: to });
    expect(copy?.workspaceId).toBe(ws?._id);
    expect(copy?.parts.map((p) => p.body)).toEqual([body]);

    // With full history: every version comes along, in order.
    await updatePage(sc.deps, principal, { slug, body_markdown: `${body}\nA second version.\n` });
    const third = uniq("third");
    await createWorkspaceFor(sc.deps, principal, { slug: third, name: "Third" });
    const full = await call(client, "export_workspace", { workspace: from, history: true });
    expect(full.data.filename).toMatch(/-history\.zip$/);
    const again = await call(client, "import_workspace", { workspace: third, archive_base64: String(full.data.archive_base64) });
    expect(again.data).toMatchObject({ versions: 2, pages: [{ slug: `${slug}-3` }] });
    const revisions = await sc.database.c.revisions
      .find({ pageId: (await sc.database.c.pages.findOne({ slug: `${slug}-3` }))?._id ?? "" })
      .sort({ version: 1 })
      .toArray();
    expect(revisions.map((r) => [r.version, r.parts.map((p) => p.body)])).toEqual([
      [1, [body]],
      [2, [`${body}\nA second version.\n`]],
    ]);
    await client.close();
  });

  it("refuses an editor's agent and a bad archive, writing nothing", async () => {
    const principal = { kind: "user" as const, user: owner };
    const ws = uniq("team");
    await createWorkspaceFor(sc.deps, principal, { slug: ws, name: "Team" });
    const editor = await makeUser(sc, `${uniq("editor")}@example.com`);
    await addMemberByEmail(sc.deps, principal, { workspace: ws, email: editor.email, role: "editor" });
    const theirs = await connectClient(sc, (await makeToken(sc, editor)).credential);
    expect((await call(theirs, "export_workspace", { workspace: ws })).error).toBe("forbidden");
    expect((await call(theirs, "import_workspace", { workspace: ws, archive_base64: "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==" })).error).toBe("forbidden");
    await theirs.close();

    const mine = await connectClient(sc, (await makeToken(sc, owner)).credential);
    const before = await sc.database.c.pages.countDocuments({});
    for (const archive_base64 of ["not base64!", Buffer.from("plain text, not a zip").toString("base64"), "A".repeat(2_800_000)]) {
      expect((await call(mine, "import_workspace", { workspace: ws, archive_base64 })).error).toBe("invalid_request");
    }
    expect(await sc.database.c.pages.countDocuments({})).toBe(before);
    await mine.close();
  });
});
