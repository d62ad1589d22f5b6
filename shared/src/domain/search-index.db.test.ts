// A page's indexing runs after its writer's answer (search-index.ts indexPage), so a delete can
// begin while it runs: the delete marks the page and unindexes it, and when that happens
// between the index's check of the page and its writes, the index's own look afterwards takes
// the postings out again. Nothing of a deleted page stays in the index.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, PageDoc } from "../db/index";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import type { Principal } from "./access";
import { createPage } from "./pages/create-page";
import { deletePage } from "./pages/delete-page";
import { forwardDocId, indexPage, searchKey, unindexTarget } from "./search-index";
import { awaitWritesSettled } from "./versioned-write";
import { findOrCreateConfirmedUser } from "./users";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;

beforeAll(async () => {
  database = await testDatabase("searchrace");
  deps = testDeps(database);
  principal = { kind: "user", user: await findOrCreateConfirmedUser(deps, "racer@example.com") };
}, 120_000);
afterAll(async () => {
  await database.drop();
});

/** `database` whose search forward documents run `before` ahead of their first write. */
function withBeforeForwardWrite(before: () => Promise<void>): Database {
  const real = database.c.searchDocs;
  let ran = false;
  const once = async () => {
    if (!ran) await before();
    ran = true;
  };
  const searchDocs = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === "insertOne" || prop === "updateOne") {
        return async (...args: unknown[]) => {
          await once();
          return (Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return Object.assign(Object.create(database) as Database, { c: { ...database.c, searchDocs } });
}

/** The terms whose postings name `page`. */
async function postingsOf(page: PageDoc): Promise<string[]> {
  const key = searchKey("page", page._id);
  const docs = await database.c.searchTerms.find({ workspaceId: page.workspaceId }).toArray();
  return docs.filter((d) => d.p !== undefined && key in d.p).map((d) => d.term);
}

describe("indexing a page that is deleted meanwhile", () => {
  it("leaves no postings and no forward document behind", async () => {
    await createPage(deps, principal, { slug: "ephemeral", title: "Ephemeral", body_markdown: "A quetzal seen once." });
    await awaitWritesSettled();
    const page = (await database.c.pages.findOne({ slug: "ephemeral" })) as PageDoc;
    // As the index stood before this version's indexing: nothing of the page.
    await unindexTarget(deps, { workspaceId: page.workspaceId, kind: "page", id: page._id });
    expect(await postingsOf(page)).toEqual([]);

    // The index has checked the page; before it writes, the whole delete runs (its unindex finds nothing yet).
    const racing = withBeforeForwardWrite(async () => void (await deletePage(deps, principal, "ephemeral")));
    await indexPage({ ...deps, database: racing }, page);

    expect(await database.c.pages.findOne({ _id: page._id })).toBeNull();
    expect(await database.c.searchDocs.findOne({ _id: forwardDocId(page.workspaceId, searchKey("page", page._id)) })).toBeNull();
    expect(await postingsOf(page)).toEqual([]);
  });
});
