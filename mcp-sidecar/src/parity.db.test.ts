// What only the app could do before issue 26, through the real MCP client: moving a page (its
// old address redirects) and a table's settings, with the counted confirmation of a column's
// removal; tool errors carry the same coded details as tRPC's.
import { getRenderedArtifact } from "@atelier/shared/domain/artifacts";
import type { UserDoc } from "@atelier/shared/db";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let client: Client;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  sc = await startTestSidecar({}, "parity");
  owner = await makeUser(sc, `parity-${Date.now()}@example.com`);
  client = await connectClient(sc, (await makeToken(sc, owner, { label: "Parity bot" })).credential);
});
afterAll(async () => {
  await client.close();
  await sc.close();
});

type Structured = Record<string, unknown>;
async function call(name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]?.text ?? "";
  return {
    isError: r.isError === true,
    data: r.structuredContent as Structured,
    error: JSON.parse(text) as { error: string; message: string; details?: Structured },
  };
}

describe("move_page", () => {
  it("moves a page to a new address; the old one redirects to it, and a taken slug is a conflict", async () => {
    const slug = uniq("old");
    const next = uniq("new");
    expect((await call("create_page", { slug, title: "Moving", body_markdown: "Text." })).isError).toBe(false);
    const moved = await call("move_page", { slug, new_slug: next });
    expect(moved.isError).toBe(false);
    expect(moved.data.page).toMatchObject({ slug: next, version: 1 });
    expect(await getRenderedArtifact(sc.deps, { kind: "user", user: owner }, { slug })).toMatchObject({ kind: "moved", slug: next });
    expect((await call("get_page", { slug: next })).data.page).toMatchObject({ slug: next, title: "Moving" });

    const other = uniq("taken");
    expect((await call("create_page", { slug: other, title: "Taken", body_markdown: "x" })).isError).toBe(false);
    const taken = await call("move_page", { slug: next, new_slug: other });
    expect(taken.error.error).toBe("conflict");
  });
});

describe("change_table", () => {
  it("renames, adds, renames and retypes columns, and removes one only with the right count of values it drops", async () => {
    const table = uniq("tasks");
    expect(
      (
        await call("create_collection", {
          slug: table,
          name: "Tasks",
          kind: "table",
          columns: [
            { name: "title", type: "text" },
            { name: "score", type: "number" },
          ],
        })
      ).isError,
    ).toBe(false);
    expect((await call("insert_rows", { collection: table, rows: [{ title: "a", score: 1 }, { title: "b", score: 2 }, { title: "c" }] })).isError).toBe(false);

    expect((await call("change_table", { collection: table, change: { op: "rename", name: "Chores" } })).data.collection).toMatchObject({ name: "Chores" });
    const added = await call("change_table", { collection: table, change: { op: "add_column", column: { name: "done", type: "boolean" } } });
    expect((added.data.collection as { columns: { name: string }[] }).columns.map((c) => c.name)).toEqual(["title", "score", "done"]);
    expect((await call("change_table", { collection: table, change: { op: "rename_column", column: "done", name: "finished" } })).isError).toBe(false);
    const retyped = await call("change_table", { collection: table, change: { op: "change_column_type", column: "finished", type: "text" } });
    expect(retyped.isError, JSON.stringify(retyped.error)).toBe(false);

    // Values are never converted: the same coded details as tRPC (issue has_values with the count).
    const refused = await call("change_table", { collection: table, change: { op: "change_column_type", column: "score", type: "text" } });
    expect(refused.error).toMatchObject({ error: "invalid_request", details: { issues: [{ path: "type", code: "has_values", params: { rows: 2 } }] } });

    // The counted confirmation: 2 rows have a score; confirming 1 drops nothing and says 2.
    const short = await call("change_table", { collection: table, change: { op: "remove_column", column: "score", expected_values: 1 } });
    expect(short.error).toMatchObject({ error: "conflict", details: { rows_with_values: 2 } });
    const rows = await call("list_rows", { collection: table });
    expect((rows.data.rows as { values: Structured }[]).filter((r) => r.values.score !== null)).toHaveLength(2);
    const removed = await call("change_table", { collection: table, change: { op: "remove_column", column: "score", expected_values: 2 } });
    expect((removed.data.collection as { columns: { name: string }[] }).columns.map((c) => c.name)).toEqual(["title", "finished"]);

    const missing = await call("change_table", { collection: table, change: { op: "remove_column", column: "score" } });
    expect(missing.error).toMatchObject({ error: "invalid_request", details: { issues: [expect.objectContaining({ path: "change.expected_values" })] } });
  });
});
