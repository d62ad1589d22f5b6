// Micro DB through the real MCP client and the real database.
import { registerAnonymous } from "@atelier/shared/domain/registrations";
import type { UserDoc } from "@atelier/shared/db";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let client: Client;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

interface Row {
  row_id: string;
  version: number;
  values: Record<string, string | number | boolean | null>;
}

async function call<T = Record<string, unknown>>(
  c: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; data: T; error: { error: string; message: string } }> {
  const r = await c.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]?.text ?? "{}";
  return { isError: r.isError === true, data: r.structuredContent as T, error: JSON.parse(text) as { error: string; message: string } };
}

const COLUMNS = [
  { name: "title", type: "text", required: true },
  { name: "score", type: "number" },
  { name: "done", type: "boolean" },
  { name: "due", type: "date" },
  { name: "link", type: "url" },
  { name: "status", type: "select", options: ["todo", "doing", "done"] },
];

beforeAll(async () => {
  sc = await startTestSidecar({ ANONYMOUS_REGISTRATION_ENABLED: "true", ANON_MAX_BYTES: "6000", ANON_WRITES_PER_MINUTE: "1000" }, "tables");
  owner = await makeUser(sc, `tables-${Date.now()}@example.com`);
  client = await connectClient(sc, (await makeToken(sc, owner, { label: "Table bot" })).credential);
});
afterAll(async () => {
  await client.close();
  await sc.close();
});

describe("tables", () => {
  it("inserts 1,000 rows in batches and pages through a filter with cursors without duplicates or gaps while rows are added", async () => {
    const table = uniq("tasks");
    const created = await call(client, "create_collection", { slug: table, name: "Tasks", kind: "table", columns: COLUMNS });
    expect(created.isError).toBe(false);
    expect(created.data).toMatchObject({ collection: { slug: table, kind: "table", row_count: 0 } });

    const all: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const rows = Array.from({ length: 250 }, (_, i) => {
        const k = batch * 250 + i;
        return {
          title: `Task ${k}`,
          score: k % 100,
          done: k % 3 === 0,
          due: `2026-${String((k % 12) + 1).padStart(2, "0")}-15`,
          status: ["todo", "doing", "done"][k % 3] ?? "todo",
        };
      });
      const r = await call<{ row_ids: string[] }>(client, "insert_rows", { collection: table, rows });
      expect(r.isError).toBe(false);
      expect(r.data.row_ids).toHaveLength(250);
      all.push(...r.data.row_ids);
    }
    expect(new Set(all).size).toBe(1000);

    // score >= 50 and status = todo, sorted by score descending, 37 at a time, while rows are added.
    const tableId = (await sc.database.c.collections.findOne({ slug: table }))?._id ?? "";
    const before = (
      await sc.database.c.rows.find({ collectionId: tableId, "values.score": { $gte: 50 }, "values.status": "todo" }, { projection: { _id: 1 } }).toArray()
    ).map((r) => r._id);
    expect(before.length).toBeGreaterThan(100);
    const late: string[] = [];
    const seen: string[] = [];
    let cursor: string | undefined;
    let lastScore = Number.POSITIVE_INFINITY;
    let pages = 0;
    do {
      const r = await call<{ rows: Row[]; next_cursor: string | null }>(client, "list_rows", {
        collection: table,
        filter: { score: { gte: 50 }, status: "todo" },
        sort: { column: "score", direction: "desc" },
        limit: 37,
        ...(cursor ? { cursor } : {}),
      });
      expect(r.isError).toBe(false);
      for (const row of r.data.rows) {
        expect(row.values.status).toBe("todo");
        expect(Number(row.values.score)).toBeLessThanOrEqual(lastScore);
        lastScore = Number(row.values.score);
        seen.push(row.row_id);
      }
      cursor = r.data.next_cursor ?? undefined;
      // Someone adds rows between pages: matching ones on both sides of the cursor, and others.
      if (pages++ < 4) {
        const added = await call<{ row_ids: string[] }>(client, "insert_rows", {
          collection: table,
          rows: [
            { title: "late top", score: 99, status: "todo" },
            { title: "late bottom", score: 50, status: "todo" },
            { title: "late other", score: 99, status: "done" },
          ],
        });
        late.push(...added.data.row_ids);
      }
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    // Every row that matched at the start is seen exactly once; anything else seen was added meanwhile.
    expect(before.every((id) => seen.includes(id))).toBe(true);
    expect(seen.filter((id) => !before.includes(id)).every((id) => late.includes(id))).toBe(true);
  });

  it("refuses invalid rows with the row and column, writing none of the batch", async () => {
    const table = uniq("strict");
    await call(client, "create_collection", { slug: table, name: "Strict", kind: "table", columns: COLUMNS });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ score: 1 }, /^rows\.1\.title: is required/],
      [{ title: "x", score: "high" }, /^rows\.1\.score: must be a finite number/],
      [{ title: "x", status: "maybe" }, /^rows\.1\.status: must be one of todo, doing, done/],
      [{ title: "x", due: "tomorrow" }, /^rows\.1\.due: must be a date/],
      [{ title: "x", link: "javascript:alert(1)" }, /^rows\.1\.link: must be an http\(s\) URL/],
      [{ title: "x", colour: "red" }, /^rows\.1\.colour: the table has no such column/],
    ];
    for (const [bad, message] of cases) {
      const r = await call(client, "insert_rows", { collection: table, rows: [{ title: "fine" }, bad] });
      expect(r.isError).toBe(true);
      expect(r.error.error).toBe("invalid_request");
      expect(r.error.message).toMatch(message);
    }
    const listed = await call<{ rows: Row[]; table: { row_count: number } }>(client, "list_rows", { collection: table });
    expect(listed.data.rows).toHaveLength(0);
    expect(listed.data.table.row_count).toBe(0);
  });

  it("updates with a version check, refuses a stale version, deletes, and keeps each row's history", async () => {
    const table = uniq("edit");
    await call(client, "create_collection", { slug: table, name: "Edit", kind: "table", columns: COLUMNS });
    const { data } = await call<{ row_ids: string[] }>(client, "insert_rows", { collection: table, rows: [{ title: "first", score: 1 }] });
    const rowId = data.row_ids[0];
    const ok = await call<{ row: Row }>(client, "update_row", { collection: table, row_id: rowId, values: { score: 2 }, expected_version: 1 });
    expect(ok.data.row).toMatchObject({ version: 2, values: { title: "first", score: 2 } });
    const stale = await call(client, "update_row", { collection: table, row_id: rowId, values: { score: 3 }, expected_version: 1 });
    expect(stale.isError).toBe(true);
    expect(stale.error.error).toBe("version_conflict");
    const del = await call(client, "delete_row", { collection: table, row_id: rowId });
    expect(del.data).toEqual({ deleted: { row_id: rowId } });
    expect((await call<{ rows: Row[] }>(client, "list_rows", { collection: table })).data.rows).toHaveLength(0);
    const history = await sc.database.c.rowRevisions.find({ rowId }).sort({ version: 1 }).toArray();
    expect(history.map((h) => [h.version, h.deleted, h.actor.label])).toEqual([
      [1, false, "Table bot"],
      [2, false, "Table bot"],
      [3, true, "Table bot"],
    ]);
  });

  it("counts rows toward an unclaimed sandbox's size cap", async () => {
    const reg = await registerAnonymous(sc.deps, { requesterIp: "10.1.1.1" });
    const bot = await connectClient(sc, reg.credential);
    expect((await call(bot, "create_collection", { slug: "notes", name: "Notes", kind: "table", columns: [{ name: "text", type: "text" }] })).isError).toBe(
      false,
    );
    expect((await call(bot, "insert_rows", { collection: "notes", rows: [{ text: "a".repeat(1500) }] })).isError).toBe(false);
    const over = await call(bot, "insert_rows", { collection: "notes", rows: [{ text: "b".repeat(1000) }, { text: "c".repeat(1000) }] });
    expect(over.isError).toBe(true);
    expect(over.error.error).toBe("limit_exceeded");
    expect((await call<{ rows: Row[] }>(bot, "list_rows", { collection: "notes" })).data.rows).toHaveLength(1);
    await bot.close();
  });

  it("renders a table in a page and keeps the page current as rows change", async () => {
    const table = uniq("reading");
    await call(client, "create_collection", {
      slug: table,
      name: "Reading list",
      kind: "table",
      columns: [
        { name: "book", type: "text", required: true },
        { name: "url", type: "url" },
      ],
    });
    await call(client, "insert_rows", { collection: table, rows: [{ book: "Dune <1965>", url: "https://example.com/dune" }] });
    const slug = uniq("reading-page");
    const page = await call(client, "create_page", { slug, title: "What I read", body_markdown: "My list:", tables: [{ collection: table }] });
    expect(page.isError).toBe(false);
    let html = (await sc.database.c.artifacts.findOne({ _id: slug }))?.html ?? "";
    expect(html).toContain("<figcaption>Reading list</figcaption>");
    expect(html).toContain('<th scope="col">book</th>');
    expect(html).toContain("Dune &lt;1965&gt;");
    expect(html).toContain('href="https://example.com/dune" rel="nofollow noopener noreferrer"');
    await call(client, "insert_rows", { collection: table, rows: [{ book: "Solaris" }] });
    html = (await sc.database.c.artifacts.findOne({ _id: slug }))?.html ?? "";
    expect(html).toContain("Solaris");
  });
});
