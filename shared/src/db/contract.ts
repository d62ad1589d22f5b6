// The storage contract (docs/ARCHITECTURE.md#state): the only query and update shapes the domain may send,
// because these mean the same thing on MongoDB 6+ and on the embedded FerretDB v1. Each
// shape below is proven by `contract.db.test.ts` against whatever database MONGODB_URI
// names (the embedded one when unset): `pnpm test:storage`. Every db test also checks every
// command the code under test sends against this list (`watchContract`), so a query outside
// the contract fails the test suite on every database, not only where it misbehaves.
//
// Filters
//   F1  equality on a top-level or nested-document field: {f: v}, {"a.b": v}
//   F2  equality on a field of subdocuments inside an array: {"arr.k": v} (matches when any
//       element has k = v)
//   F3  membership in an array of scalars: {arr: v}
//   F4  ranges on a top-level or nested-document field: {f: {$gt|$gte|$lt|$lte: v}} (and two
//       of them together)
//   F5  $in / $nin on a top-level field with scalar values
//   F6  $ne on a top-level field, or on an array of scalars (no element equals v)
//   F7  $or / $and of contract filters (keyset paging)
//   F8  case-insensitive substring search: {f: {$regex: <escaped literal>, $options: "i"}},
//       on top-level or nested-document fields, or F2 paths
//   Never: $ne/$nin/$not/$elemMatch/$exists/$expr/$where/$size/$type/$all, a dotted $ne
//   (FerretDB v1 matches {"arr.k": {$ne: v}} even when an element has k = v), operators on
//   documents or arrays as values.
// Updates
//   U1  $set / $unset of top-level or nested-document fields (not into arrays: no positional
//       "arr.$.k", no "arr.0.k")
//   U2  $inc of numeric counters, several at once
//   U3  $setOnInsert with upsert
//   U4  $addToSet / $pull of one scalar on an array of scalars
//   U5  a whole replacement of an array field through $set
//   Never: $push/$pop/$pullAll/$rename/$min/$max/$mul/$currentDate/array filters, pipelines.
// Commands
//   C1  insert (one or many; ordered), a duplicate key is code 11000
//   C2  find with a contract filter, sort on top-level or nested-document fields (with _id
//       as the last key), limit, skip 0, projection (inclusion or exclusion, not both)
//   C3  findAndModify (findOneAndUpdate / findOneAndDelete) with a contract filter and
//       update, upsert, returnDocument; no projection ("fields": FerretDB v1 refuses it),
//       no sort
//   C4  update (one or many) and delete (one or many) by a contract filter; the result's
//       matched/modified/deleted counts are exact
//   C5  countDocuments (the driver's $match + $group {n: {$sum: 1}} pipeline) — no other
//       aggregation ($sum over a field returns 0 on FerretDB v1)
//   C6  indexes: createIndexes only for missing ones (see ensureIndexes), listIndexes
// Guarantees the domain relies on (concurrency cases in the suite): one document changes
// atomically (N parallel compare-and-swap updates: exactly one winner; N parallel $inc: the
// exact total); a unique index admits exactly one of N parallel inserts of one key; `_id`
// is always unique. No multi-document transactions: a change over several documents is a
// sequence of idempotent steps that a retry or the sweeper finishes.

export interface ContractViolation {
  command: string;
  collection: string;
  rule: string;
  /** The offending part, for the test's message (values elided). */
  where: string;
}

type Doc = Record<string, unknown>;

const FILTER_OPS = new Set(["$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$ne", "$eq", "$regex", "$options"]);
const UPDATE_OPS = new Set(["$set", "$unset", "$inc", "$setOnInsert", "$addToSet", "$pull"]);
/** Commands the driver sends on its own, or that carry no query of ours. */
const NEUTRAL = new Set([
  "hello",
  "ismaster",
  "isMaster",
  "ping",
  "buildInfo",
  "buildinfo",
  "getMore",
  "killCursors",
  "endSessions",
  "listCollections",
  "listIndexes",
  "listDatabases",
  "createIndexes",
  "dropDatabase",
  "drop",
  "create",
  "explain",
  "saslStart",
  "saslContinue",
  "getParameter",
  "getLog",
  "serverStatus",
  "dbStats",
  "collStats",
]);

function isPlainObject(v: unknown): v is Doc {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date) && Object.getPrototypeOf(v) === Object.prototype;
}

function isScalar(v: unknown): boolean {
  return (
    v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v instanceof Date || typeof v === "bigint" || isBsonScalar(v)
  );
}

/** BSON values the driver decodes into classes (Long, Double, ObjectId …) count as scalars. */
function isBsonScalar(v: unknown): boolean {
  return typeof v === "object" && v !== null && typeof (v as { _bsontype?: unknown })._bsontype === "string";
}

function checkFilter(filter: unknown, out: (rule: string, where: string) => void, where = "filter"): void {
  if (filter === undefined || filter === null) return;
  if (!isPlainObject(filter)) return out("filter must be a document", where);
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$or" || key === "$and") {
      if (!Array.isArray(value) || value.length === 0) out(`${key} takes a non-empty list`, `${where}.${key}`);
      else value.forEach((f, i) => checkFilter(f, out, `${where}.${key}.${i}`));
      continue;
    }
    if (key.startsWith("$")) {
      out(`top-level operator ${key} is outside the contract`, `${where}.${key}`);
      continue;
    }
    if (/\.\d+(\.|$)/.test(key) || key.includes(".$")) out("array positions in paths are outside the contract", `${where}.${key}`);
    if (isScalar(value)) continue;
    if (!isPlainObject(value)) {
      out("equality on a document or array value is outside the contract", `${where}.${key}`);
      continue;
    }
    const ops = Object.keys(value);
    if (ops.length === 0 || ops.some((op) => !op.startsWith("$"))) {
      out("equality on a document value is outside the contract", `${where}.${key}`);
      continue;
    }
    for (const op of ops) {
      const arg = value[op];
      if (!FILTER_OPS.has(op)) out(`operator ${op} is outside the contract`, `${where}.${key}.${op}`);
      else if (op === "$in" || op === "$nin") {
        if (!Array.isArray(arg) || !arg.every(isScalar)) out(`${op} takes a list of scalars`, `${where}.${key}.${op}`);
        if (key.includes(".")) out(`${op} on a dotted path is outside the contract`, `${where}.${key}.${op}`);
      } else if (op === "$ne") {
        if (key.includes(".")) out("$ne on a dotted path is outside the contract (FerretDB v1 matches it through arrays)", `${where}.${key}.$ne`);
        if (!isScalar(arg)) out("$ne takes a scalar", `${where}.${key}.$ne`);
      } else if (op === "$regex") {
        if (value.$options !== undefined && value.$options !== "i") out('$regex takes only $options: "i"', `${where}.${key}`);
        if (typeof arg !== "string" && !(arg instanceof RegExp)) out("$regex takes a string", `${where}.${key}`);
      } else if (op === "$options") {
        if (value.$regex === undefined) out("$options without $regex", `${where}.${key}`);
      } else if (!isScalar(arg)) out(`${op} takes a scalar`, `${where}.${key}.${op}`);
    }
  }
}

function checkUpdate(update: unknown, out: (rule: string, where: string) => void): void {
  if (Array.isArray(update)) return out("pipeline updates are outside the contract", "update");
  if (!isPlainObject(update)) return out("update must be a document", "update");
  const keys = Object.keys(update);
  // A replacement document (no operators) replaces the whole document: allowed (insert-like).
  if (keys.length > 0 && keys.every((k) => !k.startsWith("$"))) return;
  for (const [op, fields] of Object.entries(update)) {
    if (!UPDATE_OPS.has(op)) {
      out(`update operator ${op} is outside the contract`, `update.${op}`);
      continue;
    }
    if (!isPlainObject(fields)) {
      out(`${op} takes a document`, `update.${op}`);
      continue;
    }
    for (const [path, v] of Object.entries(fields)) {
      if (/\.\d+(\.|$)/.test(path) || path.includes("$")) out("positional or indexed update paths are outside the contract", `update.${op}.${path}`);
      if (op === "$inc" && typeof v !== "number" && !isBsonScalar(v)) out("$inc takes a number", `update.$inc.${path}`);
      if ((op === "$addToSet" || op === "$pull") && !isScalar(v)) out(`${op} takes one scalar (no $each, no conditions)`, `update.${op}.${path}`);
    }
  }
}

function checkSort(sort: unknown, out: (rule: string, where: string) => void): void {
  if (sort === undefined) return;
  // The driver sends a sort as a Map (key order matters).
  const entries = sort instanceof Map ? [...(sort as Map<string, unknown>).entries()] : isPlainObject(sort) ? Object.entries(sort) : null;
  if (!entries) return out("sort must be a document", "sort");
  for (const [k, dir] of entries) {
    if (k.startsWith("$")) out(`sort on ${k} is outside the contract`, `sort.${k}`);
    if (dir !== 1 && dir !== -1) out("sort directions are 1 or -1", `sort.${k}`);
  }
}

function checkProjection(projection: unknown, out: (rule: string, where: string) => void): void {
  if (projection === undefined) return;
  if (!isPlainObject(projection)) return out("projection must be a document", "projection");
  const kinds = new Set(
    Object.entries(projection)
      .filter(([k]) => k !== "_id")
      .map(([, v]) => (v === 0 || v === false ? 0 : 1)),
  );
  if (kinds.size > 1) out("projection mixes inclusion and exclusion", "projection");
  for (const v of Object.values(projection)) if (typeof v === "object") out("projection operators are outside the contract", "projection");
}

function isCountPipeline(pipeline: unknown): boolean {
  if (!Array.isArray(pipeline) || pipeline.length < 2) return false;
  const stages = pipeline as Doc[];
  const group = stages[stages.length - 1]?.$group as Doc | undefined;
  const n = group ? (Object.values(group).find((v) => isPlainObject(v)) as Doc | undefined) : undefined;
  return (
    stages.slice(0, -1).every((s) => {
      const k = Object.keys(s)[0];
      return k === "$match" || k === "$skip" || k === "$limit";
    }) && n?.$sum === 1
  );
}

/** Every way `command` steps outside the contract (empty when it is inside). */
export function contractViolations(commandName: string, command: Doc): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const collection = String(command[commandName] ?? "");
  const out = (rule: string, where: string) => violations.push({ command: commandName, collection, rule, where });
  switch (commandName) {
    case "find":
      checkFilter(command.filter, out);
      checkSort(command.sort, out);
      checkProjection(command.projection, out);
      if (command.skip !== undefined && command.skip !== 0) out("skip is outside the contract (page with keyset cursors)", "skip");
      break;
    case "findAndModify":
    case "findandmodify":
      checkFilter(command.query, out, "query");
      if (command.update !== undefined) checkUpdate(command.update, out);
      if (command.fields !== undefined) out("findAndModify with a projection is outside the contract (FerretDB v1 refuses it)", "fields");
      if (command.sort !== undefined) out("findAndModify with a sort is outside the contract", "sort");
      break;
    case "update":
      for (const [i, u] of ((command.updates as Doc[] | undefined) ?? []).entries()) {
        checkFilter(u.q, out, `updates.${i}.q`);
        checkUpdate(u.u, out);
        if (u.arrayFilters !== undefined) out("array filters are outside the contract", `updates.${i}.arrayFilters`);
      }
      break;
    case "delete":
      for (const [i, d] of ((command.deletes as Doc[] | undefined) ?? []).entries()) checkFilter(d.q, out, `deletes.${i}.q`);
      break;
    case "insert":
      break;
    case "aggregate": {
      const pipeline = command.pipeline as Doc[] | undefined;
      if (!isCountPipeline(pipeline)) out("the only aggregation in the contract is countDocuments", "pipeline");
      else checkFilter((pipeline?.[0] as Doc | undefined)?.$match, out, "pipeline.$match");
      break;
    }
    case "count":
      checkFilter(command.query, out, "query");
      break;
    case "distinct":
    case "mapReduce":
      out(`${commandName} is outside the contract`, commandName);
      break;
    default:
      if (!NEUTRAL.has(commandName)) out(`command ${commandName} is outside the contract`, commandName);
  }
  return violations;
}

interface MonitoredClient {
  on(event: "commandStarted", listener: (e: { commandName: string; command: Doc }) => void): unknown;
}

/**
 * Records every command of `client` that leaves the contract (the client must be created
 * with `monitorCommands: true`). Tests fail on any recorded violation.
 */
export function watchContract(client: MonitoredClient): { violations: ContractViolation[] } {
  const state = { violations: [] as ContractViolation[] };
  client.on("commandStarted", (e) => {
    for (const v of contractViolations(e.commandName, e.command)) state.violations.push(v);
  });
  return state;
}
