// The storage contract under a dropped connection (issue 14): a write whose connection is
// cut after the database received it, before the reply came back, has happened once or not
// at all — never twice, never half — and the domain's multi-step writes are finished (or
// undone) by the sweeper. A small TCP proxy between the driver and the database forwards
// everything and, when told to, cuts both sockets right after forwarding a chosen command.
import { createServer, Socket, type Server } from "node:net";
import { BSON, MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, resetClock } from "../domain/clock";
import { countUsage } from "../domain/limits";
import { createPage } from "../domain/pages/create-page";
import { sweepOnce } from "../domain/sweeper";
import { findOrCreateConfirmedUser } from "../domain/users";
import { testDatabase, testDeps, testMongoUri, type TestDatabase } from "../testing/index";
import { collections, type Database } from "./index";

const OP_MSG = 2013;

/** The command name of an OP_MSG (the first key of its body section), or null. */
function commandOf(message: Buffer): { name: string; collection: unknown } | null {
  if (message.readInt32LE(12) !== OP_MSG) return null;
  let at = 20; // header (16) + flagBits (4)
  while (at < message.length) {
    const kind = message[at];
    at += 1;
    if (kind === 0) {
      const size = message.readInt32LE(at);
      const body = BSON.deserialize(message.subarray(at, at + size));
      const name = Object.keys(body)[0];
      return name ? { name, collection: body[name] } : null;
    }
    at += message.readInt32LE(at); // a kind-1 section: skip it
  }
  return null;
}

interface Proxy {
  uri: string;
  /** Cut the connection right after forwarding the next `command` on `collection`. */
  cutAfter(command: string, collection: string): Promise<void>;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port } = new URL(target);
  let trigger: { command: string; collection: string; fired: () => void } | null = null;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(upstream);
    let buffered = Buffer.alloc(0);
    // Once a chosen command has gone out, its reply is swallowed: the database has done it,
    // the driver never hears so (its connection is cut when the reply arrives).
    let swallow: (() => void) | null = null;
    client.on("data", (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        const length = buffered.readInt32LE(0);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        const cmd = commandOf(message);
        upstream.write(message);
        if (trigger && cmd && cmd.name === trigger.command && cmd.collection === trigger.collection) {
          swallow = trigger.fired;
          trigger = null;
        }
      }
    });
    upstream.on("data", (chunk) => {
      if (swallow) {
        const fired = swallow;
        swallow = null;
        client.destroy();
        upstream.destroy();
        fired();
        return;
      }
      if (!client.destroyed) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end);
    upstream.on("error", end);
    client.on("close", end);
    upstream.on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const proxyPort = typeof address === "object" && address ? address.port : 0;
  return {
    uri: `mongodb://127.0.0.1:${proxyPort}/`,
    cutAfter: (command, collection) =>
      new Promise<void>((fired) => {
        trigger = { command, collection, fired };
      }),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let database: TestDatabase;
let proxy: Proxy;
let viaProxy: MongoClient;
let cut: Database;

beforeAll(async () => {
  database = await testDatabase("dropped");
  proxy = await startProxy(testMongoUri());
  // No retries: the driver must see the cut (a replica set would retry the write itself).
  viaProxy = new MongoClient(proxy.uri, { serverSelectionTimeoutMS: 5_000, retryWrites: false, retryReads: false });
  await viaProxy.connect();
  const db = viaProxy.db(database.name);
  cut = { client: viaProxy, db, c: collections(db) };
});
afterAll(async () => {
  await viaProxy.close();
  await proxy.close();
  await database.drop();
});
afterEach(() => resetClock());

/** Sends `op` through the proxy, cutting the connection after `command` on `collection` went out. */
async function withCut<T>(command: string, collection: string, op: () => Promise<T>): Promise<unknown> {
  let fired = false;
  const armed = proxy.cutAfter(command, collection).then(() => {
    fired = true;
  });
  const outcome = await op().then(
    () => null,
    (err: unknown) => err,
  );
  await Promise.race([armed, new Promise((r) => setTimeout(r, 2_000))]);
  expect(fired, `the ${command} on ${collection} was sent and cut`).toBe(true);
  return outcome;
}

describe("a dropped connection mid-write", () => {
  it("an insert happened once or not at all", async () => {
    const c = database.db.collection<{ _id: string; n: number }>("cut_insert");
    const err = await withCut("insert", "cut_insert", () => cut.db.collection<{ _id: string; n: number }>("cut_insert").insertOne({ _id: "x", n: 1 }));
    expect((err as { name?: string } | null)?.name).toMatch(/^Mongo/);
    expect([0, 1]).toContain(await c.countDocuments({ _id: "x" }));
  });

  it("an $inc counted once or not at all, never twice", async () => {
    const c = database.db.collection<{ _id: string; n: number }>("cut_inc");
    await c.insertOne({ _id: "x", n: 0 });
    await withCut("update", "cut_inc", () => cut.db.collection<{ _id: string; n: number }>("cut_inc").updateOne({ _id: "x" }, { $inc: { n: 1 } }));
    expect([0, 1]).toContain((await c.findOne({ _id: "x" }))?.n);
  });

  it("a compare-and-swap won once or not at all", async () => {
    const c = database.db.collection<{ _id: string; v: number }>("cut_cas");
    await c.insertOne({ _id: "x", v: 1 });
    await withCut("update", "cut_cas", () => cut.db.collection<{ _id: string; v: number }>("cut_cas").updateOne({ _id: "x", v: 1 }, { $set: { v: 2 } }));
    const v = (await c.findOne({ _id: "x" }))?.v;
    expect([1, 2]).toContain(v);
    // Whoever retries the same swap finds the truth: it either wins now or finds it done.
    const retried = await c.updateOne({ _id: "x", v: 1 }, { $set: { v: 2 } });
    expect(retried.modifiedCount).toBe(v === 1 ? 1 : 0);
  });

  it.each([
    ["the page itself", "insert", "pages"],
    ["its first revision", "insert", "revisions"],
    // The document is swapped with findOneAndUpdate (its old size comes back with it).
    ["its rendered document", "findAndModify", "artifacts"],
  ])("a page create cut at %s is finished or undone by the sweeper, and a retry then does the right thing", async (_step, command, collection) => {
    const deps = testDeps(database);
    const cutDeps = { ...deps, database: cut };
    const user = await findOrCreateConfirmedUser(deps, `cut-${collection}@example.com`);
    const principal = { kind: "user" as const, user };
    const slug = `cut-at-${collection}`;
    const err = await withCut(command, collection, () => createPage(cutDeps, principal, { slug, title: "Cut", body_markdown: "half" }));
    expect(err).not.toBeNull();

    // Later, the sweeper (in any process) finishes what it can and undoes the rest.
    advanceClock(deps.config.SWEEP_GRACE_SECONDS + 1);
    await sweepOnce(deps);
    const page = await database.c.pages.findOne({ slug });
    const artifact = await database.c.artifacts.findOne({ _id: slug });
    if (page) {
      // The page was written: it is whole now — its revision, its document, its counters.
      expect(page.revisionPending).toBe(false);
      expect(await database.c.revisions.countDocuments({ pageId: page._id, version: 1 })).toBe(1);
      expect(artifact?.html).toContain("half");
    } else {
      // It was not: nothing of it is left, and its slug is free again.
      expect(artifact).toBeNull();
    }
    const wsId = user.defaultWorkspaceId ?? "";
    await database.c.workspaces.updateOne({ _id: wsId }, { $set: { usageDirtyAt: new Date(0) } });
    await sweepOnce(deps);
    expect((await database.c.workspaces.findOne({ _id: wsId }))?.usage).toEqual(await countUsage({ database }, wsId));

    // The writer that got no answer tries again with the same slug.
    const again = await createPage(deps, principal, { slug, title: "Cut", body_markdown: "half" }).then(
      () => "created",
      (e: unknown) => (e as { code?: string }).code,
    );
    expect(again).toBe(page ? "conflict" : "created");
    expect(await database.c.pages.countDocuments({ slug })).toBe(1);
  });
});
