// The one write protocol (versioned-write.ts), proven on the embedded database through the
// two kinds that use it today, pages and table rows: racing writers on one base give exactly
// the right winners; a writer stopped at any step leaves something the next writer or the
// sweeper finishes or undoes, with the usage counters equal to a recount afterwards.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppError } from "../errors";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../testing/index";
import type { Principal } from "./access";
import { advanceClock, resetClock } from "./clock";
import { countUsage } from "./limits";
import { createPage } from "./pages/create-page";
import { updatePage } from "./pages/update-page";
import { forwardDocId, searchKey } from "./search-index";
import { sweepOnce } from "./sweeper";
import { createCollection } from "./tables/create-collection";
import { insertRows } from "./tables/insert-rows";
import { updateRow } from "./tables/update-row";
import { findOrCreateConfirmedUser } from "./users";
import { awaitWritesSettled, WriterStopped, type WriteStep } from "./versioned-write";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;
let wsId: string;

beforeAll(async () => {
  database = await testDatabase("vwrite");
  // One revision kept, so that every version's prune step has something to drop.
  deps = testDeps(database, { REVISIONS_KEPT: "1" });
  const user = await findOrCreateConfirmedUser(deps, "writer@example.com");
  principal = { kind: "user", user };
  wsId = user.defaultWorkspaceId ?? "";
});
afterAll(async () => {
  await database.drop();
});
afterEach(() => resetClock());

/** Deps whose writer stops at `step` as a killed process would (nothing after it runs). */
function stoppingAt(step: WriteStep): TestDeps<TestDatabase> {
  return {
    ...deps,
    interrupt: (s: WriteStep) => {
      if (s === step) throw new WriterStopped(s);
    },
  } as TestDeps<TestDatabase>;
}

async function expectUsageEqualsRecount(): Promise<void> {
  const ws = await database.c.workspaces.findOne({ _id: wsId });
  expect(ws?.usage).toEqual(await countUsage({ database }, wsId));
}

const settle = async () => {
  advanceClock(deps.config.SWEEP_GRACE_SECONDS + 1);
  await sweepOnce(deps);
};

const pageDoc = async (slug: string) => {
  const id = (await database.c.artifacts.findOne({ _id: slug }))?.pageId ?? "";
  return database.c.pages.findOne({ _id: id });
};

describe("racing writers on one base", () => {
  it("lets exactly one of N page writers naming the same version win; the others get version_conflict with the current version", async () => {
    await createPage(deps, principal, { slug: "race-page", title: "Race", body_markdown: "base" });
    const n = 8;
    const results = await Promise.allSettled(
      Array.from({ length: n }, (_, i) => updatePage(deps, principal, { slug: "race-page", body_markdown: `writer ${i}`, expected_version: 1 })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") {
        const err = r.reason as AppError;
        expect(err.code).toBe("version_conflict");
        expect([1, 2]).toContain(err.details?.current_version);
      }
    }
    const page = await pageDoc("race-page");
    expect(page?.version).toBe(2);
    expect(page?.writing).toBeNull();
    expect(await database.c.events.countDocuments({ "target.id": page?._id ?? "", type: "page.updated" })).toBe(1);
    await expectUsageEqualsRecount();
  });

  it("applies every one of N page writers naming no version, one version each, in turn", async () => {
    await createPage(deps, principal, { slug: "queue-page", title: "Queue", body_markdown: "base" });
    const n = 8;
    const views = await Promise.all(Array.from({ length: n }, (_, i) => updatePage(deps, principal, { slug: "queue-page", body_markdown: `writer ${i}` })));
    await awaitWritesSettled(); // the late step (the search index), then the cleared mark
    expect(views.map((v) => v.version).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 2));
    const page = await pageDoc("queue-page");
    expect(page?.version).toBe(n + 1);
    expect(page?.revisionPending).toBe(false);
    // The last version written is the one kept (REVISIONS_KEPT is 1 here).
    expect((await database.c.revisions.find({ pageId: page?._id ?? "" }).toArray()).map((r) => r.version)).toEqual([n + 1]);
    expect(await database.c.events.countDocuments({ "target.id": page?._id ?? "", type: "page.updated" })).toBe(n);
    await expectUsageEqualsRecount();
  });

  it("does the same for table rows: one winner on a named version, every writer in turn without one", async () => {
    await createCollection(deps, principal, { slug: "race-table", name: "Race table", kind: "table", columns: [{ name: "n", type: "number" }] });
    const { row_ids } = await insertRows(deps, principal, { collection: "race-table", rows: [{ n: 0 }] });
    const rowId = row_ids[0] ?? "";
    const n = 8;
    const named = await Promise.allSettled(
      Array.from({ length: n }, (_, i) => updateRow(deps, principal, { collection: "race-table", rowId, values: { n: i + 1 }, expectedVersion: 1 })),
    );
    expect(named.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of named) if (r.status === "rejected") expect((r.reason as AppError).details?.current_version).toBeGreaterThanOrEqual(1);
    const views = await Promise.all(
      Array.from({ length: n }, (_, i) => updateRow(deps, principal, { collection: "race-table", rowId, values: { n: 100 + i } })),
    );
    expect(views.map((v) => v.version).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 3));
    await awaitWritesSettled(); // the last version's mark is cleared after its answer
    const row = await database.c.rows.findOne({ _id: rowId });
    expect(row?.version).toBe(n + 2);
    expect(row?.revisionPending).toBe(false);
    expect((await database.c.rowRevisions.find({ rowId }).toArray()).map((r) => r.version)).toEqual([n + 2]);
    expect(await database.c.events.countDocuments({ workspaceId: wsId, type: "row.updated" })).toBe(n + 1);
    await expectUsageEqualsRecount();
  });
});

const PAGE_STEPS = ["claimed", "reserved", "written", "revision", "rendition", "prune", "event", "search", "finished"] as const;
/** The steps after the writer's answer (WRITE_FINISH=inline): a stop there leaves the answer given and the rest to the sweeper. */
const AFTER_ANSWER: readonly string[] = ["search", "finished"];

describe("a page writer stopped at each step", () => {
  for (const step of PAGE_STEPS) {
    it(`is finished or undone after a stop at "${step}"`, async () => {
      const slug = `stop-page-${step}`;
      await createPage(deps, principal, { slug, title: "Stop", body_markdown: "first text" });
      const stopped = updatePage(stoppingAt(step), principal, { slug, body_markdown: "second text", expected_version: 1 });
      if (AFTER_ANSWER.includes(step)) {
        await expect(stopped).resolves.toMatchObject({ version: 2 });
        await awaitWritesSettled();
        // Stopped in its search step: still marked, for the sweeper.
        if (step === "search") expect((await pageDoc(slug))?.revisionPending).toBe(true);
      } else await expect(stopped).rejects.toBeInstanceOf(WriterStopped);
      const wrote = !["claimed", "reserved"].includes(step);

      // Until the grace period passes, a writer naming the version meets the stopped one.
      if (!wrote) {
        const err = (await updatePage(deps, principal, { slug, body_markdown: "too soon", expected_version: 1 }).catch((e: unknown) => e)) as AppError;
        expect(err.code).toBe("version_conflict");
        expect(err.details).toEqual({ current_version: 1 });
      }
      await settle();

      const page = await pageDoc(slug);
      const version = wrote ? 2 : 1;
      expect(page?.version).toBe(version);
      expect(page?.revisionPending).toBe(false);
      expect((await database.c.revisions.find({ pageId: page?._id ?? "" }).toArray()).map((r) => r.version)).toEqual([version]);
      const artifact = await database.c.artifacts.findOne({ _id: slug });
      expect(artifact?.version).toBe(version);
      expect(artifact?.html).toContain(wrote ? "second text" : "first text");
      expect(await database.c.events.countDocuments({ "target.id": page?._id ?? "", type: "page.updated" })).toBe(wrote ? 1 : 0);
      // The search index has the version too (a stop in its step included).
      const indexed = await database.c.searchDocs.findOne({ _id: forwardDocId(page?.workspaceId ?? "", searchKey("page", page?._id ?? "")) });
      expect(indexed?.version).toBe(version);
      await expectUsageEqualsRecount();

      // The next writer takes over (a stale claim included), and the counters stay exact.
      const next = await updatePage(deps, principal, { slug, body_markdown: "third text", expected_version: version });
      expect(next.version).toBe(version + 1);
      expect((await pageDoc(slug))?.writing).toBeNull();
      await expectUsageEqualsRecount();
    });
  }

  for (const step of ["reserved", "written", "revision", "rendition", "event"] as const) {
    it(`finishes or undoes a page create stopped at "${step}"`, async () => {
      const slug = `stop-create-${step}`;
      await expect(createPage(stoppingAt(step), principal, { slug, title: "New", body_markdown: "born" })).rejects.toBeInstanceOf(WriterStopped);
      await settle();
      const page = await pageDoc(slug);
      if (step === "reserved") {
        expect(page).toBeNull();
        // The slug reserved for a page never written is given back.
        expect(await database.c.artifacts.findOne({ _id: slug })).toBeNull();
      } else {
        expect(page?.revisionPending).toBe(false);
        expect(await database.c.revisions.countDocuments({ pageId: page?._id ?? "" })).toBe(1);
        expect((await database.c.artifacts.findOne({ _id: slug }))?.html).toContain("born");
        expect(await database.c.events.countDocuments({ "target.id": page?._id ?? "", type: "page.created" })).toBe(1);
      }
      await expectUsageEqualsRecount();
      // Either way the address can be used now.
      const again = await createPage(deps, principal, { slug: `${slug}-again`, title: "New", body_markdown: "born" });
      expect(again.page.version).toBe(1);
    });
  }
});

const ROW_STEPS = ["claimed", "reserved", "written", "revision", "prune", "rendition", "event", "finished"] as const;

describe("a row writer stopped at each step", () => {
  for (const step of ROW_STEPS) {
    it(`is finished or undone after a stop at "${step}"`, async () => {
      const slug = `stop-row-${step}`;
      await createCollection(deps, principal, { slug, name: "Stop", kind: "table", columns: [{ name: "word", type: "text" }] });
      // A page showing the table: the row's rendition step renders it again.
      await createPage(deps, principal, { slug: `${slug}-view`, title: "View", body_markdown: "rows:", tables: [{ collection: slug }] });
      const { row_ids } = await insertRows(deps, principal, { collection: slug, rows: [{ word: "apple" }] });
      const rowId = row_ids[0] ?? "";
      const stopped = updateRow(stoppingAt(step), principal, { collection: slug, rowId, values: { word: "banana" }, expectedVersion: 1 });
      if (step === "finished") {
        // The mark is cleared after the answer (WRITE_FINISH=inline): a stop there comes after the answer.
        await expect(stopped).resolves.toMatchObject({ version: 2 });
        await awaitWritesSettled();
      } else await expect(stopped).rejects.toBeInstanceOf(WriterStopped);
      const wrote = !["claimed", "reserved"].includes(step);
      await settle();

      const row = await database.c.rows.findOne({ _id: rowId });
      const version = wrote ? 2 : 1;
      expect(row?.version).toBe(version);
      expect(row?.revisionPending ?? false).toBe(false);
      expect((await database.c.rowRevisions.find({ rowId }).toArray()).map((r) => [r.version, r.values?.word])).toEqual([
        [version, wrote ? "banana" : "apple"],
      ]);
      expect((await database.c.artifacts.findOne({ _id: `${slug}-view` }))?.html).toContain(wrote ? "banana" : "apple");
      const table = await database.c.collections.findOne({ workspaceId: wsId, slug });
      expect(await database.c.events.countDocuments({ "target.id": table?._id ?? "", type: "row.updated" })).toBe(wrote ? 1 : 0);
      await expectUsageEqualsRecount();

      const next = await updateRow(deps, principal, { collection: slug, rowId, values: { word: "cherry" }, expectedVersion: version });
      expect(next.version).toBe(version + 1);
      await expectUsageEqualsRecount();
    });
  }
});
