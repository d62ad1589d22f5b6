// The change feed's order: positions with no gaps and no duplicates as readers see them,
// under concurrent writers, across stopped writers, retries and retention.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import { advanceClock, resetClock } from "../clock";
import { createPage } from "../pages/create-page";
import { updatePage } from "../pages/update-page";
import { findOrCreateConfirmedUser } from "../users";
import { appendChange, HOLE_GRACE_MS, pruneChanges, readChanges, readSignals } from "./feed";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
beforeAll(async () => {
  database = await testDatabase("feed");
  deps = testDeps(database);
});
afterAll(async () => {
  await database.drop();
});
afterEach(() => resetClock());

const actor = { kind: "agent" as const, userId: "usr_1", tokenId: "tok_1", label: "Some agent" };
const change = (workspaceId: string, eventId: string) => ({
  workspaceId,
  eventId,
  type: "page.updated",
  actor,
  target: { kind: "page" as const, id: "pg_1", label: "A title" },
});

/** Every change of a workspace from `after`, `size` at a time, as a reader resuming page after page sees them. */
async function readAll(workspaceId: string, size: number, after: number | undefined = 0, max = Infinity): Promise<{ seq: number; eventId: string }[]> {
  const out: { seq: number; eventId: string }[] = [];
  after ??= 0;
  while (out.length < max) {
    const page = await readChanges(deps, workspaceId, after, size);
    out.push(...page.changes.map((c) => ({ seq: c.seq, eventId: c.eventId })));
    if (page.next === after) return out;
    after = page.next;
  }
  return out;
}

async function expectCode(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

describe("order", () => {
  it("gives concurrent writers positions 1..n with no gaps and no duplicates", async () => {
    const writers = 8;
    const each = 20;
    const readsDuring: number[][] = [];
    let done = false;
    // A reader following along while they write never sees a later position before an earlier one.
    const follower = (async () => {
      let after = 0;
      while (!done) {
        const page = await readChanges(deps, "ws_conc", after, 50);
        readsDuring.push(page.changes.map((c) => c.seq));
        after = page.next;
      }
    })();
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < each; i++) await appendChange(deps, change("ws_conc", `evt_w${w}_${i}`));
      }),
    );
    done = true;
    await follower;
    const all = await readAll("ws_conc", 30);
    expect(all.map((c) => c.seq)).toEqual(Array.from({ length: writers * each }, (_, i) => i + 1));
    expect(new Set(all.map((c) => c.eventId)).size).toBe(writers * each);
    const seen = readsDuring.flat();
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
  });

  it("gives an event recorded twice one position", async () => {
    expect(await appendChange(deps, change("ws_twice", "evt_same"))).toBe(1);
    expect(await appendChange(deps, change("ws_twice", "evt_same"))).toBeNull();
    await appendChange(deps, change("ws_twice", "evt_other"));
    expect((await readAll("ws_twice", 10)).map((c) => c.eventId)).toEqual(["evt_same", "evt_other"]);
  });

  it("waits at the position of a writer still at work, and skips it once that writer has surely stopped", async () => {
    await appendChange(deps, change("ws_hole", "evt_1"));
    // A writer that took position 2 and stopped before writing it.
    await database.c.changeHeads.updateOne({ _id: "ws_hole" }, { $inc: { seq: 1 } });
    await appendChange(deps, change("ws_hole", "evt_3"));
    const first = await readChanges(deps, "ws_hole", 0, 10);
    expect(first.changes.map((c) => c.eventId)).toEqual(["evt_1"]);
    expect(first.next).toBe(1);
    advanceClock(HOLE_GRACE_MS / 1000 + 1);
    const later = await readChanges(deps, "ws_hole", 1, 10);
    expect(later.changes.map((c) => c.seq)).toEqual([3]);
    expect(later.next).toBe(3);
    // The stopped writer, should it wake up, finds its position given up and takes a new one.
    const third = await database.c.changes.findOne({ _id: "ws_hole:3" });
    await expect(database.c.changes.insertOne({ ...(third ?? change("ws_hole", "x")), _id: "ws_hole:2", seq: 2, eventId: "evt_2" } as never)).rejects.toThrow();
    await appendChange(deps, change("ws_hole", "evt_4"));
    expect((await readAll("ws_hole", 10)).map((c) => c.eventId)).toEqual(["evt_1", "evt_3", "evt_4"]);
  });

  it("carries ids and versions, never titles or content, and records each page version once", async () => {
    const user = await findOrCreateConfirmedUser(deps, "feed-writer@example.com");
    const principal = { kind: "user" as const, user };
    await createPage(deps, principal, { slug: "feed-page", title: "Secret plans", body_markdown: "the body" });
    await updatePage(deps, principal, { slug: "feed-page", body_markdown: "the body, again" });
    const ws = await database.c.workspaces.findOne({ "members.userId": user._id });
    const page = await readChanges(deps, ws?._id ?? "", 0, 50);
    const pageChanges = page.changes.filter((c) => c.target.kind === "page");
    expect(pageChanges.map((c) => [c.type, c.version])).toEqual([
      ["page.created", 1],
      ["page.updated", 2],
    ]);
    const text = JSON.stringify(page.changes);
    expect(text).not.toContain("Secret plans");
    expect(text).not.toContain("the body");
    expect(text).not.toContain(user.email);
  });
});

describe("retention", () => {
  it("answers a cursor older than what is kept with cursor_expired, and one that was never written too", async () => {
    for (let i = 0; i < 5; i++) await appendChange(deps, change("ws_old", `evt_old_${i}`));
    advanceClock(deps.config.CHANGES_RETENTION_SECONDS + 60);
    await appendChange(deps, change("ws_old", "evt_new"));
    expect(await pruneChanges(deps)).toBeGreaterThanOrEqual(5);
    const err = await expectCode(readChanges(deps, "ws_old", 0, 10), "cursor_expired");
    expect(err.details).toMatchObject({ oldest_kept: 6 });
    expect((await readChanges(deps, "ws_old", 5, 10)).changes.map((c) => c.eventId)).toEqual(["evt_new"]);
    await expectCode(readChanges(deps, "ws_old", 99, 10), "cursor_expired");
    // A workspace with no feed yet: position 0 is the start.
    expect((await readChanges(deps, "ws_none", 0, 10)).changes).toEqual([]);
  });

  it("tells a follower that fell behind the kept signals so", async () => {
    const before = (await readSignals(deps, 0, 1_000_000)).next;
    await appendChange(deps, change("ws_sig", "evt_sig"));
    const after = await readSignals(deps, before, 100);
    expect(after.signals.map((s) => [s.kind, s.id, s.seq])).toEqual([["workspace", "ws_sig", 1]]);
    // (Past what the test above wrote with its own clock moved on.)
    advanceClock(deps.config.CHANGES_RETENTION_SECONDS + 2 * 86_400);
    await appendChange(deps, change("ws_sig", "evt_sig2"));
    await pruneChanges(deps);
    expect((await readSignals(deps, before, 100)).behind).toBe(true);
  });
});

describe("replay", () => {
  it("hands a reader resuming from its last position each of 10,000 changes exactly once, in order", async () => {
    // Written as the writers leave them (their concurrency is the test above), in shuffled
    // batches, so the reader meets positions inserted out of order.
    const n = 10_000;
    const docs = Array.from({ length: n }, (_, i) => ({
      _id: `ws_replay:${i + 1}`,
      workspaceId: "ws_replay",
      seq: i + 1,
      eventId: `evt_r${i + 1}`,
      type: "row.updated",
      actor: { kind: "agent" as const, userId: "usr_1", tokenId: "tok_1" },
      target: { kind: "row" as const, id: `row_${i % 97}` },
      version: 1 + Math.floor(i / 97),
      at: new Date(),
    }));
    const batches = Array.from({ length: n / 500 }, (_, b) => docs.slice(b * 500, (b + 1) * 500)).reverse();
    for (const b of batches) await database.c.changes.insertMany(b);
    await database.c.changeHeads.insertOne({ _id: "ws_replay", seq: n, floor: 1, at: new Date() });
    // Resume from a position part-way, as an SSE client reconnecting with Last-Event-ID would.
    const firstPart = await readAll("ws_replay", 100, 0, 3_300);
    const rest = await readAll("ws_replay", 100, firstPart[firstPart.length - 1]?.seq);
    const all = [...firstPart, ...rest];
    expect(all.map((c) => c.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(new Set(all.map((c) => c.eventId)).size).toBe(n);
  }, 300_000);
});
