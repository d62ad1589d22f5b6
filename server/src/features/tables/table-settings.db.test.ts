// A table's settings through tRPC (issue 17 item 3): renaming it, adding, renaming and removing
// columns with the rows' values handled, refusals that write nothing, and deleting a table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, createTeamWorkspace, signIn, startTestServer, trpcData, trpcErrorOf, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "tablesettings");
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

const newWorkspace = (by: Browser = owner) => createTeamWorkspace(by, uniq("ws"));

const errorCode = trpcErrorOf;

describe("a table's settings", () => {
  type Table = { name: string; columns: { name: string; type: string }[]; row_count: number };
  type Rows = { rows: { values: Record<string, unknown> }[] };

  async function newTable(ws: string): Promise<void> {
    await trpcData(
      await owner.mutation("collections.create", {
        workspace: ws,
        slug: "tasks",
        name: "Tasks",
        kind: "table",
        columns: [
          { name: "title", type: "text" },
          { name: "points", type: "number" },
          { name: "done", type: "boolean" },
        ],
      }),
    );
    await trpcData(
      await owner.mutation("rows.insert", {
        workspace: ws,
        collection: "tasks",
        rows: [{ title: "a", points: 1, done: true }, { title: "b", points: 2, done: false }, { title: "c", points: 2 }, { title: "d" }],
      }),
    );
  }
  const rowsOf = async (ws: string) => (await trpcData<Rows>(await owner.query("rows.list", { workspace: ws, collection: "tasks" }))).rows.map((r) => r.values);

  it("renames the table, adds, renames and removes columns with the rows' values handled", async () => {
    const { slug: ws } = await newWorkspace();
    await newTable(ws);
    const page = uniq("report");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Report", body_markdown: "x", workspace: ws, tables: [{ collection: "tasks" }] }));

    expect((await trpcData<Table>(await owner.mutation("collections.rename", { workspace: ws, collection: "tasks", name: "Chores" }))).name).toBe("Chores");

    const added = await trpcData<Table>(
      await owner.mutation("collections.addColumn", { workspace: ws, collection: "tasks", column: { name: "owner", type: "text" } }),
    );
    expect(added.columns.map((c) => c.name)).toEqual(["title", "points", "done", "owner"]);
    expect((await rowsOf(ws)).every((v) => v.owner === null)).toBe(true);

    // Rename carries every value (numbers, text, and empties).
    await trpcData(await owner.mutation("collections.renameColumn", { workspace: ws, collection: "tasks", column: "points", name: "estimate" }));
    expect((await rowsOf(ws)).map((v) => [v.title, v.estimate, "points" in v])).toEqual([
      ["a", 1, false],
      ["b", 2, false],
      ["c", 2, false],
      ["d", null, false],
    ]);
    const html = await (await owner.request(`/a/${page}`)).text();
    expect(html).toContain("estimate");
    expect(html).toContain("Chores");
    // A row written after the rename uses the new name.
    await trpcData(await owner.mutation("rows.insert", { workspace: ws, collection: "tasks", rows: [{ title: "e", estimate: 5 }] }));

    const count = await trpcData<{ rows_with_values: number }>(
      await owner.query("collections.columnValues", { workspace: ws, collection: "tasks", column: "done" }),
    );
    expect(count.rows_with_values).toBe(2);
    // A confirmation for fewer values than there are drops nothing.
    const stale = await errorCode(await owner.mutation("collections.removeColumn", { workspace: ws, collection: "tasks", column: "done", expected_values: 1 }));
    expect(stale).toMatchObject({ status: 409, code: "conflict" });
    const removed = await trpcData<Table>(
      await owner.mutation("collections.removeColumn", { workspace: ws, collection: "tasks", column: "done", expected_values: 2 }),
    );
    expect(removed.columns.map((c) => c.name)).toEqual(["title", "estimate", "owner"]);
    expect((await rowsOf(ws)).some((v) => "done" in v)).toBe(false);
    const stored = await srv.database.c.rows.find({}, { projection: { values: 1 } }).toArray();
    expect(stored.some((r) => "done" in r.values || "points" in r.values)).toBe(false);

    // A type change is refused while values exist, allowed on an empty column.
    const refused = await errorCode(
      await owner.mutation("collections.changeColumnType", { workspace: ws, collection: "tasks", column: "estimate", type: "text" }),
    );
    expect(refused).toMatchObject({ status: 400, code: "invalid_request" });
    expect(refused.issues).toEqual([expect.objectContaining({ path: "type", code: "has_values" })]);
    const changed = await trpcData<Table>(
      await owner.mutation("collections.changeColumnType", { workspace: ws, collection: "tasks", column: "owner", type: "select", options: ["ana", "bo"] }),
    );
    expect(changed.columns.find((c) => c.name === "owner")?.type).toBe("select");
  });

  it("refuses bad input, a viewer and a stranger, and writes nothing", async () => {
    const { slug: ws, id } = await newWorkspace();
    await newTable(ws);
    const viewerEmail = `${uniq("viewer")}@example.com`;
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email: viewerEmail, role: "viewer" }));
    const viewer = await signIn(srv, viewerEmail);
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    const snapshot = async () =>
      JSON.stringify([
        await srv.database.c.collections.find({ workspaceId: id }).sort({ _id: 1 }).toArray(),
        await srv.database.c.rows.find({ workspaceId: id }).sort({ _id: 1 }).toArray(),
        await srv.database.c.events.countDocuments({ workspaceId: id }),
      ]);
    const before = await snapshot();
    const ref = { workspace: ws, collection: "tasks" };

    const dup = await errorCode(await owner.mutation("collections.renameColumn", { ...ref, column: "points", name: "title" }));
    expect(dup).toMatchObject({ status: 400, code: "invalid_request" });
    expect(dup.issues).toEqual([expect.objectContaining({ path: "name", code: "duplicate" })]);
    expect((await errorCode(await owner.mutation("collections.renameColumn", { ...ref, column: "points", name: "_id" }))).issues[0]).toMatchObject({
      code: "reserved_name",
    });
    expect((await errorCode(await owner.mutation("collections.renameColumn", { ...ref, column: "nope", name: "x" }))).issues[0]).toMatchObject({
      path: "column",
      code: "unknown_column",
    });
    expect(
      (await errorCode(await owner.mutation("collections.addColumn", { ...ref, column: { name: "due", type: "date", required: true } }))).issues[0],
    ).toMatchObject({
      path: "column.required",
      code: "not_allowed",
    });
    expect((await errorCode(await owner.mutation("collections.addColumn", { ...ref, column: { name: "title", type: "text" } }))).issues[0]).toMatchObject({
      path: "column.name",
      code: "duplicate",
    });
    expect((await owner.mutation("collections.addColumn", { ...ref, column: { name: "x", type: "colour" } })).status).toBe(400);
    expect((await owner.mutation("collections.rename", { ...ref, name: "" })).status).toBe(400);
    expect((await owner.mutation("collections.delete", { workspace: ws, collection: "pages" })).status).toBe(400);
    expect((await owner.mutation("collections.delete", { workspace: ws, collection: "nothing" })).status).toBe(404);

    for (const [who, status] of [
      [viewer, 403],
      [stranger, 404],
    ] as const) {
      expect((await who.mutation("collections.rename", { ...ref, name: "Mine" })).status).toBe(status);
      expect((await who.mutation("collections.addColumn", { ...ref, column: { name: "x", type: "text" } })).status).toBe(status);
      expect((await who.mutation("collections.renameColumn", { ...ref, column: "title", name: "x" })).status).toBe(status);
      expect((await who.mutation("collections.removeColumn", { ...ref, column: "title", expected_values: 0 })).status).toBe(status);
      expect((await who.mutation("collections.changeColumnType", { ...ref, column: "title", type: "url" })).status).toBe(status);
      expect((await who.mutation("collections.delete", ref)).status).toBe(status);
    }
    expect(await snapshot()).toBe(before);
  });

  it("deletes a table with its rows and history, and gives their bytes back", async () => {
    const { slug: ws, id } = await newWorkspace();
    const usage0 = (await trpcData<{ usage: { bytes: number } }>(await owner.query("workspaces.get", { slug: ws }))).usage.bytes;
    await newTable(ws);
    const page = uniq("report");
    await trpcData(await owner.mutation("pages.create", { slug: page, title: "Report", body_markdown: "x", workspace: ws, tables: [{ collection: "tasks" }] }));
    const withPage = (await trpcData<{ usage: { bytes: number } }>(await owner.query("workspaces.get", { slug: ws }))).usage.bytes;
    expect((await trpcData<{ slug: string }>(await owner.mutation("collections.delete", { workspace: ws, collection: "tasks" }))).slug).toBe("tasks");
    expect(await srv.database.c.rows.countDocuments({ workspaceId: id })).toBe(0);
    expect(await srv.database.c.rowRevisions.countDocuments({ workspaceId: id })).toBe(0);
    expect((await owner.query("rows.list", { workspace: ws, collection: "tasks" })).status).toBe(404);
    expect(await (await owner.request(`/a/${page}`)).text()).toContain("no longer exists");
    const after = (await trpcData<{ usage: { bytes: number } }>(await owner.query("workspaces.get", { slug: ws }))).usage.bytes;
    expect(after).toBeLessThan(withPage);
    expect(after).toBeGreaterThan(usage0);
    const { countUsage } = await import("@atelier/shared/domain/limits");
    expect(after).toBe((await countUsage(srv.deps, id)).bytes);
  });
});
