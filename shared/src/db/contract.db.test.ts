// The storage contract's semantics suite (shared/src/db/contract.ts): every shape the domain
// may use, run against the database under test (MONGODB_URI, or the embedded one), each
// asserting the result MongoDB documents. `pnpm test:storage` runs this file alone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { Binary, ObjectId, type Collection } from "mongodb";
import { isDuplicateKey } from "../errors";
import { testDatabase, type TestDatabase } from "../testing/index";
import { COLLECTION_NAMES, collections, contractViolations, ensureIndexes } from "./index";
import { INDEXES } from "./collections";

let database: TestDatabase;

beforeAll(async () => {
  database = await testDatabase("contract");
});
afterAll(async () => {
  await database.drop();
});

interface Item {
  _id: string;
  n?: number;
  s?: string | null;
  d?: Date;
  tags?: string[];
  sub?: { k: string; v: number } | null;
  arr?: { k: string; v: number }[];
  v?: number;
  by?: number;
}

let seq = 0;
/** A fresh collection per test, so cases never see each other's documents. */
function fresh(): Collection<Item> {
  seq += 1;
  return database.db.collection<Item>(`c${seq}_${Date.now().toString(36)}`);
}

const ids = (docs: { _id: string }[]) => docs.map((d) => d._id).sort();

async function seed(c: Collection<Item>): Promise<void> {
  await c.insertMany([
    {
      _id: "a",
      n: 1,
      s: "apple",
      d: new Date("2026-01-01T00:00:00Z"),
      tags: ["x", "y"],
      sub: { k: "p", v: 1 },
      arr: [
        { k: "p", v: 1 },
        { k: "q", v: 2 },
      ],
    },
    { _id: "b", n: 2, s: "Banana", d: new Date("2026-02-01T00:00:00Z"), tags: ["y"], sub: { k: "q", v: 2 }, arr: [{ k: "q", v: 3 }] },
    { _id: "c", n: 3, s: null, d: new Date("2026-03-01T00:00:00Z"), tags: [], sub: null, arr: [] },
    { _id: "d", n: 3, d: new Date("2026-04-01T00:00:00Z") },
  ]);
}

describe("filters (F1–F8)", () => {
  let c: Collection<Item>;
  beforeEach(async () => {
    c = fresh();
    await seed(c);
  });

  it("F1 equality on top-level and nested-document fields; null matches null and missing", async () => {
    expect(ids(await c.find({ n: 3 }).toArray())).toEqual(["c", "d"]);
    expect(ids(await c.find({ "sub.k": "q" }).toArray())).toEqual(["b"]);
    expect(ids(await c.find({ s: null }).toArray())).toEqual(["c", "d"]);
    expect(ids(await c.find({ _id: "b" }).toArray())).toEqual(["b"]);
    expect(ids(await c.find({ d: new Date("2026-02-01T00:00:00Z") }).toArray())).toEqual(["b"]);
    // A nested field of a null or missing subdocument is missing: it equals null, nothing else.
    expect(ids(await c.find({ "sub.k": "p" }).toArray())).toEqual(["a"]);
  });

  it("F2 equality on a field of subdocuments in an array matches when any element has it", async () => {
    expect(ids(await c.find({ "arr.k": "q" }).toArray())).toEqual(["a", "b"]);
    expect(ids(await c.find({ "arr.k": "p" }).toArray())).toEqual(["a"]);
    expect(ids(await c.find({ "arr.k": "z" }).toArray())).toEqual([]);
  });

  it("F3 membership in an array of scalars", async () => {
    expect(ids(await c.find({ tags: "y" }).toArray())).toEqual(["a", "b"]);
    expect(ids(await c.find({ tags: "x" }).toArray())).toEqual(["a"]);
  });

  it("F4 ranges on numbers, strings and dates, alone and combined", async () => {
    expect(ids(await c.find({ n: { $gte: 2 } }).toArray())).toEqual(["b", "c", "d"]);
    expect(ids(await c.find({ n: { $gt: 1, $lt: 3 } }).toArray())).toEqual(["b"]);
    expect(ids(await c.find({ d: { $lte: new Date("2026-02-01T00:00:00Z") } }).toArray())).toEqual(["a", "b"]);
    expect(ids(await c.find({ _id: { $gt: "b" } }).toArray())).toEqual(["c", "d"]);
    expect(ids(await c.find({ "sub.v": { $gte: 2 } }).toArray())).toEqual(["b"]);
    // Ranges never match null or missing values.
    expect(ids(await c.find({ s: { $gte: "" } }).toArray())).toEqual(["a", "b"]);
  });

  it("F5 $in and $nin on a top-level field", async () => {
    expect(ids(await c.find({ _id: { $in: ["a", "c", "zz"] } }).toArray())).toEqual(["a", "c"]);
    expect(ids(await c.find({ n: { $nin: [1, 3] } }).toArray())).toEqual(["b"]);
    expect(ids(await c.find({ _id: { $in: [] } }).toArray())).toEqual([]);
    expect(ids(await c.find({ s: { $in: [null] } }).toArray())).toEqual(["c", "d"]);
  });

  it("F6 $ne on a top-level field and on an array of scalars", async () => {
    expect(ids(await c.find({ n: { $ne: 3 } }).toArray())).toEqual(["a", "b"]);
    // $ne matches a missing field; on an array it means no element equals the value.
    expect(ids(await c.find({ s: { $ne: "apple" } }).toArray())).toEqual(["b", "c", "d"]);
    expect(ids(await c.find({ tags: { $ne: "y" } }).toArray())).toEqual(["c", "d"]);
  });

  it("F7 $or and $and of contract filters (a keyset cursor)", async () => {
    const after = { n: 2, _id: "b" };
    const page = await c
      .find({ $or: [{ n: { $gt: after.n } }, { n: after.n, _id: { $gt: after._id } }] })
      .sort({ n: 1, _id: 1 })
      .toArray();
    expect(page.map((d) => d._id)).toEqual(["c", "d"]);
    expect(ids(await c.find({ $and: [{ n: { $gte: 2 } }, { tags: "y" }] }).toArray())).toEqual(["b"]);
  });

  it("F8 case-insensitive substring search with an escaped literal, on fields, nested fields and through arrays", async () => {
    expect(ids(await c.find({ s: { $regex: "AN", $options: "i" } }).toArray())).toEqual(["b"]);
    expect(ids(await c.find({ s: { $regex: "a\\.b", $options: "i" } }).toArray())).toEqual([]);
    expect(ids(await c.find({ "sub.k": { $regex: "Q", $options: "i" } }).toArray())).toEqual(["b"]);
    expect(ids(await c.find({ $or: [{ s: { $regex: "pp", $options: "i" } }, { "arr.k": { $regex: "Q", $options: "i" } }] }).toArray())).toEqual(["a", "b"]);
  });

  it("C2 sorts by a field then _id, limits, and projects by inclusion or exclusion", async () => {
    expect((await c.find({}).sort({ n: -1, _id: 1 }).limit(3).toArray()).map((d) => d._id)).toEqual(["c", "d", "b"]);
    expect((await c.find({}).sort({ "sub.v": 1, _id: 1 }).toArray()).map((d) => d._id)).toEqual(["c", "d", "a", "b"]);
    const included = await c.find({ _id: "a" }, { projection: { n: 1 } }).toArray();
    expect(included).toEqual([{ _id: "a", n: 1 }]);
    const excluded = await c.find({ _id: "a" }, { projection: { arr: 0, tags: 0, sub: 0, d: 0, s: 0 } }).toArray();
    expect(excluded).toEqual([{ _id: "a", n: 1 }]);
  });

  it("C5 counts documents by a filter", async () => {
    expect(await c.countDocuments({ n: { $gte: 2 } })).toBe(3);
    expect(await c.countDocuments({})).toBe(4);
  });
});

describe("updates (U1–U5) and commands (C1, C3, C4)", () => {
  let c: Collection<Item>;
  beforeEach(async () => {
    c = fresh();
    await seed(c);
  });

  it("U1 $set and $unset on top-level and nested-document fields; counts are exact", async () => {
    const r = await c.updateOne({ _id: "a" }, { $set: { "sub.v": 9, s: "pear" }, $unset: { d: "" } });
    expect([r.matchedCount, r.modifiedCount]).toEqual([1, 1]);
    expect(await c.findOne({ _id: "a" }, { projection: { sub: 1, s: 1, d: 1 } })).toEqual({ _id: "a", sub: { k: "p", v: 9 }, s: "pear" });
    const none = await c.updateOne({ _id: "zz" }, { $set: { n: 1 } });
    expect([none.matchedCount, none.modifiedCount]).toEqual([0, 0]);
    const many = await c.updateMany({ n: 3 }, { $set: { s: "three" } });
    expect(many.modifiedCount).toBe(2);
  });

  it("U2 $inc of several counters at once, and of a missing field", async () => {
    await c.updateOne({ _id: "a" }, { $inc: { n: 5, "sub.v": -1, v: 2 } });
    expect(await c.findOne({ _id: "a" }, { projection: { n: 1, sub: 1, v: 1 } })).toEqual({ _id: "a", n: 6, sub: { k: "p", v: 0 }, v: 2 });
  });

  it("U3 upserts: $setOnInsert applies on insert only", async () => {
    await c.updateOne({ _id: "new" }, { $inc: { n: 1 }, $setOnInsert: { s: "first" } }, { upsert: true });
    await c.updateOne({ _id: "new" }, { $inc: { n: 1 }, $setOnInsert: { s: "second" } }, { upsert: true });
    expect(await c.findOne({ _id: "new" })).toEqual({ _id: "new", n: 2, s: "first" });
  });

  it("U4 $addToSet and $pull of one scalar", async () => {
    await c.updateOne({ _id: "b" }, { $addToSet: { tags: "y" } });
    await c.updateOne({ _id: "b" }, { $addToSet: { tags: "z" } });
    expect((await c.findOne({ _id: "b" }))?.tags).toEqual(["y", "z"]);
    await c.updateOne({ _id: "b" }, { $pull: { tags: "y" } });
    expect((await c.findOne({ _id: "b" }))?.tags).toEqual(["z"]);
    await c.updateOne({ _id: "d" }, { $addToSet: { tags: "new" } });
    expect((await c.findOne({ _id: "d" }))?.tags).toEqual(["new"]);
  });

  it("U5 replaces a whole array field through $set, conditionally on a version", async () => {
    await c.updateOne({ _id: "a" }, { $set: { v: 1 } });
    const won = await c.updateOne({ _id: "a", v: 1 }, { $set: { arr: [{ k: "r", v: 7 }], v: 2 } });
    const lost = await c.updateOne({ _id: "a", v: 1 }, { $set: { arr: [], v: 2 } });
    expect([won.modifiedCount, lost.modifiedCount]).toEqual([1, 0]);
    expect((await c.findOne({ _id: "a" }))?.arr).toEqual([{ k: "r", v: 7 }]);
  });

  it("C1 insert refuses a duplicate _id with code 11000 and writes nothing", async () => {
    const err = await c.insertOne({ _id: "a", n: 99 }).catch((e: unknown) => e);
    expect(isDuplicateKey(err)).toBe(true);
    expect((await c.findOne({ _id: "a" }))?.n).toBe(1);
  });

  it("C3 findOneAndUpdate: conditional, upsert, before and after; findOneAndDelete", async () => {
    const after = await c.findOneAndUpdate({ _id: "a", n: 1 }, { $inc: { n: 1 } }, { returnDocument: "after" });
    expect(after?.n).toBe(2);
    const before = await c.findOneAndUpdate({ _id: "a" }, { $inc: { n: 1 } }, { returnDocument: "before" });
    expect(before?.n).toBe(2);
    expect(await c.findOneAndUpdate({ _id: "a", n: 1 }, { $inc: { n: 1 } })).toBeNull();
    const up = await c.findOneAndUpdate({ _id: "u" }, { $inc: { n: 1 }, $setOnInsert: { s: "x" } }, { upsert: true, returnDocument: "after" });
    expect(up).toEqual({ _id: "u", n: 1, s: "x" });
    const gone = await c.findOneAndDelete({ _id: "u" });
    expect(gone?._id).toBe("u");
    expect(await c.findOne({ _id: "u" })).toBeNull();
  });

  it("C4 deleteMany by a filter, with an exact count", async () => {
    const r = await c.deleteMany({ n: { $gte: 2 } });
    expect(r.deletedCount).toBe(3);
    expect(ids(await c.find({}).toArray())).toEqual(["a"]);
  });
});

// The embedded FerretDB's front narrows a one-statement write whose filter is {_id: X, ...}
// to exactly {_id: X} (or to an _id nothing has) after asking whether X matches the whole
// filter (shared/embedded-db/ferretdb/narrow.go). These are the shapes it rewrites, and the
// ones it must leave alone; each asserts what MongoDB does. (A positional "arr.$.k" update,
// which the front also leaves alone, is outside the contract: FerretDB v1 refuses it. Its Go
// tests cover which statements are rewritten: narrow_test.go.)
describe("compare-and-swap writes by _id and a condition", () => {
  let c: Collection<Item>;
  beforeEach(async () => {
    c = fresh();
    await seed(c);
  });

  it("updateOne by _id and a version matches once, then not; the document changes once", async () => {
    const won = await c.updateOne({ _id: "a", n: 1 }, { $set: { s: "won" }, $inc: { n: 1 } });
    expect([won.matchedCount, won.modifiedCount]).toEqual([1, 1]);
    const lost = await c.updateOne({ _id: "a", n: 1 }, { $set: { s: "lost" }, $inc: { n: 1 } });
    expect([lost.matchedCount, lost.modifiedCount, lost.upsertedCount]).toEqual([0, 0, 0]);
    expect(await c.findOne({ _id: "a" }, { projection: { n: 1, s: 1 } })).toEqual({ _id: "a", n: 2, s: "won" });
    expect(await c.findOne({ _id: "b" }, { projection: { n: 1, s: 1 } })).toEqual({ _id: "b", n: 2, s: "Banana" });
  });

  it("conditions on dotted fields, ranges, null and $or beside the _id", async () => {
    expect((await c.updateOne({ _id: "a", "sub.k": "q" }, { $set: { v: 1 } })).matchedCount).toBe(0);
    expect((await c.updateOne({ _id: "a", "sub.k": "p", n: { $lte: 1 } }, { $set: { v: 1 } })).modifiedCount).toBe(1);
    expect((await c.updateOne({ _id: "c", s: null, $or: [{ n: 9 }, { "sub.k": "p" }] }, { $set: { v: 1 } })).matchedCount).toBe(0);
    expect((await c.updateOne({ _id: "c", s: null, $or: [{ n: 9 }, { n: 3 }] }, { $set: { v: 2 } })).modifiedCount).toBe(1);
    expect((await c.updateOne({ _id: "b", $or: [{ v: { $lt: 3 } }, { n: 1 }] }, { $set: { v: 4 } })).matchedCount).toBe(0);
    expect(
      (
        await c
          .find({ v: { $gte: 1 } })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => [d._id, d.v]),
    ).toEqual([
      ["a", 1],
      ["c", 2],
    ]);
  });

  // FerretDB v1 on PostgreSQL does not match this write (matchedCount 0; found when CI began
  // running this suite on PostgreSQL, issue 23 item 17): marked as a known failure there, so the
  // day it matches, the mark has to go. See docs/decisions.md.
  const onPostgres = process.env.EMBEDDED_DB_BACKEND === "postgresql" && !process.env.MONGODB_URI;
  (onPostgres ? it.fails : it)("conditions into arrays beside the _id: a dotted path through an array, an element of an array", async () => {
    expect((await c.updateOne({ _id: "b", "arr.k": "q", tags: "y" }, { $set: { v: 3 } })).modifiedCount).toBe(1);
    expect((await c.findOne({ _id: "b" }))?.v).toBe(3);
  });

  it("by an ObjectId _id, and on a collection that does not exist", async () => {
    const raw = database.db.collection<{ _id: ObjectId; v: number }>(`oid_${Date.now().toString(36)}`);
    const { insertedId } = await raw.insertOne({ _id: new ObjectId(), v: 1 });
    expect((await raw.updateOne({ _id: insertedId, v: 2 }, { $set: { v: 3 } })).matchedCount).toBe(0);
    expect((await raw.updateOne({ _id: insertedId, v: 1 }, { $set: { v: 2 } })).modifiedCount).toBe(1);
    expect((await raw.findOne({ _id: insertedId }))?.v).toBe(2);
    const none = fresh();
    expect((await none.updateOne({ _id: "a", n: 1 }, { $set: { v: 1 } })).matchedCount).toBe(0);
    expect(await none.countDocuments({})).toBe(0);
  });

  it("updateMany by _id and a condition counts the one document or none", async () => {
    expect((await c.updateMany({ _id: "d", n: { $gt: 3 } }, { $set: { v: 1 } })).matchedCount).toBe(0);
    const r = await c.updateMany({ _id: "d", n: { $gte: 3 } }, { $set: { v: 1 } });
    expect([r.matchedCount, r.modifiedCount]).toEqual([1, 1]);
    expect(ids(await c.find({ v: 1 }).toArray())).toEqual(["d"]);
  });

  it("deleteOne by _id and a version deletes only when it matches", async () => {
    expect((await c.deleteOne({ _id: "b", n: 1 })).deletedCount).toBe(0);
    expect(await c.countDocuments({})).toBe(4);
    expect((await c.deleteOne({ _id: "b", n: 2, "sub.k": "q" })).deletedCount).toBe(1);
    expect(ids(await c.find({}).toArray())).toEqual(["a", "c", "d"]);
    expect((await c.deleteMany({ _id: "a", $or: [{ n: 1 }] })).deletedCount).toBe(1);
  });

  it("findOneAndUpdate and findOneAndDelete by _id and a condition return the document or null", async () => {
    expect(await c.findOneAndUpdate({ _id: "b", "sub.v": 3 }, { $set: { v: 1 } })).toBeNull();
    expect(await c.findOneAndUpdate({ _id: "b", "sub.v": 2 }, { $set: { v: 1 } }, { returnDocument: "after" })).toMatchObject({ _id: "b", n: 2, v: 1 });
    expect(await c.findOneAndDelete({ _id: "d", n: 4 })).toBeNull();
    expect((await c.findOneAndDelete({ _id: "d", n: 3 }))?._id).toBe("d");
    expect(ids(await c.find({}).toArray())).toEqual(["a", "b", "c"]);
  });

  it("an upsert by _id and a condition updates when it matches and inserts from the filter when it does not", async () => {
    const hit = await c.updateOne({ _id: "a", n: 1 }, { $inc: { n: 1 } }, { upsert: true });
    expect([hit.matchedCount, hit.modifiedCount, hit.upsertedCount]).toEqual([1, 1, 0]);
    const miss = await c.updateOne({ _id: "new", n: 7, "sub.k": "z" }, { $set: { s: "ins" } }, { upsert: true });
    expect([miss.matchedCount, miss.upsertedCount, miss.upsertedId]).toEqual([0, 1, "new"]);
    expect(await c.findOne({ _id: "new" })).toEqual({ _id: "new", n: 7, sub: { k: "z" }, s: "ins" });
    const doc = await c.findOneAndUpdate({ _id: "new2", v: 1 }, { $set: { s: "x" } }, { upsert: true, returnDocument: "after" });
    expect(doc).toEqual({ _id: "new2", v: 1, s: "x" });
    // The _id exists but the condition fails: the insert of that _id is refused.
    const dup = await c.updateOne({ _id: "b", n: 99 }, { $set: { s: "no" } }, { upsert: true }).catch((e: unknown) => e);
    expect(isDuplicateKey(dup)).toBe(true);
    expect((await c.findOne({ _id: "b" }))?.s).toBe("Banana");
  });

  it("several statements in one command see each other's changes, in order", async () => {
    const r = await c.bulkWrite([
      { updateOne: { filter: { _id: "a", n: 1 }, update: { $set: { n: 10 } } } },
      { updateOne: { filter: { _id: "a", n: 10 }, update: { $set: { n: 11 } } } },
      { deleteOne: { filter: { _id: "a", n: 1 } } },
      { deleteOne: { filter: { _id: "a", n: 11 } } },
    ]);
    expect([r.matchedCount, r.modifiedCount, r.deletedCount]).toEqual([2, 2, 1]);
    expect(await c.findOne({ _id: "a" })).toBeNull();
  });
});

describe("concurrency: one document changes atomically, unique keys admit one", () => {
  const N = 40;

  it(`counts every one of ${N} parallel $inc on one document`, async () => {
    const c = fresh();
    await c.insertOne({ _id: "x", n: 0 });
    await Promise.all(Array.from({ length: N }, () => c.updateOne({ _id: "x" }, { $inc: { n: 1 } })));
    expect((await c.findOne({ _id: "x" }))?.n).toBe(N);
  });

  it(`lets exactly one of ${N} parallel compare-and-swap updates win, with updateOne and with findOneAndUpdate`, async () => {
    const c = fresh();
    await c.insertOne({ _id: "x", v: 1 });
    const updates = await Promise.all(Array.from({ length: N }, (_, i) => c.updateOne({ _id: "x", v: 1 }, { $set: { v: 2, by: i } })));
    expect(updates.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
    const finds = await Promise.all(Array.from({ length: N }, (_, i) => c.findOneAndUpdate({ _id: "x", v: 2 }, { $set: { v: 3, by: i } })));
    expect(finds.filter((r) => r !== null)).toHaveLength(1);
  });

  it(`admits exactly one of ${N} parallel inserts of one _id`, async () => {
    const c = fresh();
    const results = await Promise.allSettled(Array.from({ length: N }, (_, i) => c.insertOne({ _id: "same", n: i })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").every((r) => isDuplicateKey(r.reason))).toBe(true);
    expect(await c.countDocuments({})).toBe(1);
  });

  it(`admits exactly one of ${N} parallel upserts that create one document`, async () => {
    const c = fresh();
    const results = await Promise.allSettled(Array.from({ length: N }, () => c.updateOne({ _id: "u" }, { $inc: { n: 1 } }, { upsert: true })));
    // MongoDB may refuse a racing upsert with a duplicate key; a retry then increments.
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused.every((r) => isDuplicateKey(r.reason))).toBe(true);
    expect(await c.countDocuments({})).toBe(1);
    expect((await c.findOne({ _id: "u" }))?.n).toBe(N - refused.length);
  });
});

describe("binary chunks (files, docs/security.md#files)", () => {
  // A file is kept as chunks of 255 KiB, each a document far below the 16 MiB BSON limit
  // that MongoDB and FerretDB (both backends) share; a chunk is read back by its _id.
  it("C1/C2 stores binary data byte for byte (NULs, high bytes), reads it back by _id, counts and deletes by a field", async () => {
    const c = database.db.collection<{ _id: string; fileId: string; n: number; data: Binary }>(`chunks_${Date.now().toString(36)}`);
    const bytes = Buffer.concat([Buffer.alloc(1024, 0), randomBytes(255 * 1024 - 2048), Buffer.alloc(1024, 0xff)]);
    const tail = randomBytes(17);
    await c.insertOne({ _id: "f:0", fileId: "f", n: 0, data: new Binary(bytes) });
    await c.insertOne({ _id: "f:1", fileId: "f", n: 1, data: new Binary(tail) });
    await expect(c.insertOne({ _id: "f:1", fileId: "f", n: 1, data: new Binary(tail) })).rejects.toSatisfy(isDuplicateKey);
    const first = await c.findOne({ _id: "f:0" });
    expect(Buffer.from(first?.data.buffer ?? []).equals(bytes)).toBe(true);
    expect(Buffer.from((await c.findOne({ _id: "f:1" }))?.data.buffer ?? []).equals(tail)).toBe(true);
    expect(await c.countDocuments({ fileId: "f" })).toBe(2);
    expect((await c.deleteMany({ fileId: "f" })).deletedCount).toBe(2);
  });
});

describe("every unique index the domain declares", () => {
  it("admits exactly one of several parallel inserts of the same key", async () => {
    const db = await testDatabase("uniq");
    try {
      await ensureIndexes(db.db);
      const c = collections(db.db);
      for (const name of COLLECTION_NAMES) {
        for (const index of INDEXES[name].filter((i) => i.options.unique)) {
          const key = Object.fromEntries(Object.keys(index.key as Record<string, number>).map((f) => [f, `same-${f}`]));
          const docs = Array.from({ length: 8 }, (_, i) => nested({ _id: `${name}-${index.options.name}-${i}`, ...key }));
          const results = await Promise.allSettled(docs.map((d) => (c[name] as unknown as Collection).insertOne(d)));
          expect(
            results.filter((r) => r.status === "fulfilled"),
            `${name}.${index.options.name}`,
          ).toHaveLength(1);
          expect(results.filter((r) => r.status === "rejected").every((r) => isDuplicateKey(r.reason))).toBe(true);
        }
      }
    } finally {
      await db.drop();
    }
  });
});

/** {"a.b": 1} → {a: {b: 1}}, so a dotted index key is a real nested field. */
function nested(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    const parts = k.split(".");
    let cur = out;
    for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
    cur[parts[parts.length - 1] ?? k] = v;
  }
  return out;
}

describe("the checker itself", () => {
  it("refuses the shapes that mean different things on MongoDB and FerretDB v1", () => {
    const rules = (cmd: string, body: Record<string, unknown>) => contractViolations(cmd, { [cmd]: "x", ...body }).map((v) => v.rule);
    expect(rules("update", { updates: [{ q: { "members.userId": { $ne: "u" } }, u: { $set: { a: 1 } } }] })).toHaveLength(1);
    expect(rules("update", { updates: [{ q: { _id: "x" }, u: { $push: { members: { a: 1 } } } }] })).toHaveLength(1);
    expect(rules("update", { updates: [{ q: { _id: "x" }, u: { $set: { "members.$.role": "x" } } }] })).toHaveLength(1);
    expect(rules("find", { filter: { a: { $elemMatch: { b: 1 } } } })).toHaveLength(1);
    expect(rules("find", { filter: { a: { $exists: true } } })).toHaveLength(1);
    expect(rules("findAndModify", { query: { _id: "x" }, update: { $inc: { n: 1 } }, fields: { n: 1 } })).toHaveLength(1);
    expect(rules("aggregate", { pipeline: [{ $group: { _id: null, s: { $sum: "$bytes" } } }] })).toHaveLength(1);
    expect(
      rules("find", {
        filter: { a: 1, "b.c": { $gte: 2 }, $or: [{ d: { $in: ["x"] } }, { e: { $ne: null } }] },
        sort: new Map([
          ["a", 1],
          ["_id", 1],
        ]),
      }),
    ).toEqual([]);
  });
});
