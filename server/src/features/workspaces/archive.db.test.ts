// The workspace export and import routes (issue 31 item 3): an owner downloads the zip (with
// ?history=1, every version too) and uploads it into another workspace; a bad archive is a
// 400 naming why, with nothing written; a member who is not the owner, and a page from
// another origin, are refused.
import { createPage } from "@atelier/shared/domain/pages/create-page";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signIn, startTestServer, trpcData, type Browser, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let source: string;
let target: string;

beforeAll(async () => {
  srv = await startTestServer({}, "archive");
  owner = await signIn(srv, "archive-owner@example.com");
  source = `src-${Date.now().toString(36)}`;
  target = `dst-${Date.now().toString(36)}`;
  await owner.mutation("workspaces.create", { slug: source, name: "Source" }).then((r) => trpcData(r));
  await owner.mutation("workspaces.create", { slug: target, name: "Target" }).then((r) => trpcData(r));
  const user = await srv.database.c.users.findOne({ email: "archive-owner@example.com" });
  if (!user) throw new Error("no user");
  await createPage(srv.deps, { kind: "user", user }, { workspace: source, slug: `doc-${source}`, title: "Doc", body_markdown: "# Doc\n\nbody" });
});
afterAll(async () => {
  await srv.close();
});

it("downloads the export and imports it into another workspace", async () => {
  const res = await owner.request(`/api/workspaces/${source}/export`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toMatch(new RegExp(`attachment; filename="${source}-.*\\.zip"`));
  const zip = Buffer.from(await res.arrayBuffer());
  expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");
  const up = await owner.request(`/api/workspaces/${target}/import`, { method: "POST", headers: { "content-type": "application/zip" }, body: zip });
  expect(up.status).toBe(201);
  const body = (await up.json()) as { pages: { slug: string }[] };
  expect(body.pages).toEqual([expect.objectContaining({ file: `pages/doc-${source}.md`, slug: `doc-${source}-2` })]);
  const page = await srv.database.c.pages.findOne({ slug: `doc-${source}-2` });
  expect(page?.title).toBe("Doc");
});

it("with ?history=1 the export carries every version; a history that is not 1 or 0 is a 400", async () => {
  const res = await owner.request(`/api/workspaces/${source}/export?history=1`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toMatch(new RegExp(`filename="${source}-.*-history\\.zip"`));
  const zip = Buffer.from(await res.arrayBuffer());
  expect(zip.toString("latin1")).toContain(`history/doc-${source}/1.md`);
  expect((await owner.request(`/api/workspaces/${source}/export?history=yes`)).status).toBe(400);
});

it("answers a bad archive with 400 and its reason, writing nothing", async () => {
  const before = await srv.database.c.pages.countDocuments({});
  const res = await owner.request(`/api/workspaces/${target}/import`, { method: "POST", headers: { "content-type": "application/zip" }, body: "not a zip" });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: "invalid_request", details: { issues: [{ path: "archive", code: "bad_archive" }] } });
  expect(await srv.database.c.pages.countDocuments({})).toBe(before);
});

it("refuses someone who is not the owner, and an upload from another origin", async () => {
  const other = await signIn(srv, "archive-other@example.com");
  expect([403, 404]).toContain((await other.request(`/api/workspaces/${source}/export`)).status);
  const up = await other.request(`/api/workspaces/${target}/import`, { method: "POST", body: "x" });
  expect([403, 404]).toContain(up.status);
  const foreign = await owner.request(`/api/workspaces/${target}/import`, { method: "POST", headers: { origin: "https://evil.example" }, body: "x" });
  expect(foreign.status).toBe(403);
});
