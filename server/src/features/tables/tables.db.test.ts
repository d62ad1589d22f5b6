import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
beforeAll(async () => {
  srv = await startTestServer({}, "tablesrv");
  owner = await signIn(srv, `tables-${Date.now()}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

describe("tables in the app and on the public surface", () => {
  it("renders a published table at /a/{slug} for a visitor without a session, as an accessible table", async () => {
    const ws = (await trpcData<{ defaultWorkspace: string }>(await owner.query("me.get"))).defaultWorkspace;
    const created = await owner.mutation("collections.create", {
      workspace: ws,
      slug: "results",
      name: "Experiment results",
      kind: "table",
      columns: [
        { name: "run", type: "number", required: true },
        { name: "passed", type: "boolean" },
      ],
    });
    expect(created.status).toBe(200);
    const ins = await trpcData<{ row_ids: string[] }>(
      await owner.mutation("rows.insert", {
        workspace: ws,
        collection: "results",
        rows: [
          { run: 1, passed: true },
          { run: 2, passed: false },
        ],
      }),
    );
    expect(ins.row_ids).toHaveLength(2);
    expect(
      (
        await owner.mutation("pages.create", {
          slug: "experiment-log",
          title: "Experiment log",
          body_markdown: "Results so far:",
          tables: [{ collection: "results", sort: { column: "run", direction: "desc" } }],
        })
      ).status,
    ).toBe(200);

    const visitor = new Browser(srv.url);
    expect((await visitor.request("/a/experiment-log")).status).toBe(404);
    expect((await visitor.query("rows.list", { workspace: ws, collection: "results" })).status).toBe(404);
    await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" });
    const res = await visitor.request("/a/experiment-log");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(
      /<figcaption>Experiment results<\/figcaption><div class="atelier-scroll" tabindex="0" role="group" aria-label="Experiment results"><table><thead><tr><th scope="col" class="num" aria-sort="descending">run<\/th><th scope="col">passed<\/th><\/tr><\/thead>/,
    );
    expect(html.indexOf('<td class="num">2</td>')).toBeLessThan(html.indexOf('<td class="num">1</td>'));
    const rows = await trpcData<{ rows: { values: Record<string, unknown> }[] }>(await visitor.query("rows.list", { workspace: ws, collection: "results" }));
    expect(rows.rows.map((r) => r.values.run)).toEqual([1, 2]);
    // tRPC's infinite queries add `direction` to the input.
    expect((await visitor.query("rows.list", { workspace: ws, collection: "results", direction: "forward", limit: 1 })).status).toBe(200);
    // A visitor cannot write.
    expect((await visitor.mutation("rows.insert", { workspace: ws, collection: "results", rows: [{ run: 3 }] })).status).toBe(401);
  });
});
