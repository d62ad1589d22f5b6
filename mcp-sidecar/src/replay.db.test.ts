// Issue 25's replay guarantee, with the server and the sidecar as real processes on one real
// database: an app stream (GET /api/events) that reconnects with its last Last-Event-ID after
// 10,000 changes (REPLAY_CHANGES) gets each of them exactly once, in order, then `ready`; and
// list_changes, paged from the start through the real MCP SDK client, returns the same
// sequence. The changes are made by this test process through the domain, several writers at
// once, so they reach both processes only through the feed: the first is a real insert_rows,
// the 10,000 after it are that write's event recorded again and again with `recordEvent` (what
// every write ends with: the event, its feed position, the signal), which is the feed's whole
// part of a write at a third of a row's cost and under no table's row cap.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { actorOf } from "@atelier/shared/domain/access";
import { recordEvent } from "@atelier/shared/domain/events";
import { createSession } from "@atelier/shared/domain/sessions";
import { createCollection } from "@atelier/shared/domain/tables/create-collection";
import { insertRows } from "@atelier/shared/domain/tables/insert-rows";
import { createUserToken } from "@atelier/shared/domain/tokens";
import { findOrCreateConfirmedUser } from "@atelier/shared/domain/users";
import { createWorkspaceFor } from "@atelier/shared/domain/workspaces";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { startSourceProcess, testDatabase, testDeps, testMongoUri, type SourceProcess, type TestDatabase } from "@atelier/shared/testing";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CHANGES = Number(process.env.REPLAY_CHANGES ?? 10_000);
const WRITERS = 8;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** One of our processes from its sources; resolves once it says `ready`. */
async function startProcess(pkg: "server" | "mcp-sidecar", env: Record<string, string>, ready: string): Promise<SourceProcess> {
  const proc = startSourceProcess(path.join(root, pkg), env);
  await proc.waitFor(ready);
  return proc;
}

interface StreamChange {
  id: string;
  data: { workspace_id: string; seq: number; type: string; target: { kind: string; id: string }; version: number | null; at: string };
}

/** Reads an app stream until `until` says stop (or the stream ends): every `change`, and whether `ready` came. */
async function readStream(url: string, headers: Record<string, string>, until: (event: string, changes: StreamChange[]) => boolean) {
  const ctl = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: ctl.signal });
  expect(res.status).toBe(200);
  const changes: StreamChange[] = [];
  const events: string[] = [];
  const decoder = new TextDecoder();
  let buf = "";
  try {
    outer: for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let at: number;
      while ((at = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, at);
        buf = buf.slice(at + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        if (!event) continue;
        events.push(event);
        if (event === "change") {
          changes.push({ id: /^id: (.*)$/m.exec(block)?.[1] ?? "", data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as StreamChange["data"] });
        }
        if (until(event, changes)) break outer;
      }
    }
  } finally {
    ctl.abort();
  }
  return { changes, events };
}

let database: TestDatabase;
let server: SourceProcess;
let sidecar: SourceProcess;
let serverUrl = "";
let sidecarUrl = "";

beforeAll(async () => {
  database = await testDatabase("replay");
  const [serverPort, sidecarPort] = [await freePort(), await freePort()];
  serverUrl = `http://127.0.0.1:${serverPort}`;
  sidecarUrl = `http://127.0.0.1:${sidecarPort}`;
  const common = { NODE_ENV: "test", MONGODB_URI: testMongoUri(), MONGODB_DB: database.name, LOG_LEVEL: "warn", LISTEN_HOST: "127.0.0.1" };
  [server, sidecar] = await Promise.all([
    startProcess("server", { ...common, SERVER_PORT: String(serverPort), BASE_URL: serverUrl, LOG_LEVEL: "info" }, "server listening"),
    startProcess("mcp-sidecar", { ...common, SIDECAR_PORT: String(sidecarPort), BASE_URL: sidecarUrl, LOG_LEVEL: "info" }, "mcp sidecar listening"),
  ]);
}, 180_000);
afterAll(async () => {
  server?.child.kill("SIGKILL");
  sidecar?.child.kill("SIGKILL");
  await database?.drop();
});

describe("replay", () => {
  it(
    `a stream resuming after ${CHANGES} changes gets each once, in order; list_changes from the start returns the same`,
    async () => {
      const deps = testDeps(database);
      const user = await findOrCreateConfirmedUser(deps, `replay-${Date.now()}@example.com`);
      const as = { kind: "user" as const, user };
      const ws = `replay-${Date.now().toString(36)}`;
      await createWorkspaceFor(deps, as, { slug: ws, name: "Replay" });
      await createCollection(deps, as, { workspace: ws, slug: "t", name: "T", kind: "table", columns: [{ name: "n", type: "number" }] });
      const { sessionId } = await createSession(deps, user._id);
      const cookie = { cookie: `atelier_session=${sessionId}` };
      const wsId = (await database.c.workspaces.findOne({ slug: ws }))?._id ?? "";
      const tableId = (await database.c.collections.findOne({ workspaceId: wsId, slug: "t" }))?._id ?? "";

      // A stream sees one change, and its id is where it will resume.
      let written: Promise<unknown> = Promise.resolve();
      const seen = await readStream(`${serverUrl}/api/events`, cookie, (e, changes) => {
        if (e === "ready") written = insertRows(deps, as, { workspace: ws, collection: "t", rows: [{ n: 0 }] });
        // The workspace's and the table's own changes may reach the stream first (its process
        // follows the feed a poll behind): the row written on `ready` is the one to resume after.
        return changes.some((c) => c.data.workspace_id === wsId && c.data.type === "rows.inserted");
      });
      await written;
      const last = seen.changes.find((c) => c.data.workspace_id === wsId && c.data.type === "rows.inserted");
      expect(last?.data.type).toBe("rows.inserted");
      const lastSeq = last?.data.seq ?? 0;

      // The changes it misses, several writers at once.
      let next = 1;
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          for (let i = next++; i <= CHANGES; i = next++) {
            await recordEvent(deps, {
              workspaceId: wsId,
              type: "rows.inserted",
              actor: actorOf(as),
              target: { kind: "collection", id: tableId, label: "T" },
              count: 1,
            });
          }
        }),
      );

      // Reconnecting with the last id: every one of them, each once, in order, then ready.
      const resumed = await readStream(`${serverUrl}/api/events`, { ...cookie, "last-event-id": last?.id ?? "" }, (e) => e === "ready");
      expect(resumed.events.at(-1)).toBe("ready");
      expect(resumed.events).not.toContain("resync");
      const mine = resumed.changes.filter((c) => c.data.workspace_id === wsId);
      // Each once: as many as were made, no position twice, none from before the resume.
      expect(mine.length).toBe(CHANGES);
      expect(new Set(mine.map((c) => c.data.seq)).size).toBe(CHANGES);
      expect(Math.min(...mine.map((c) => c.data.seq))).toBeGreaterThan(lastSeq);
      // In order: the stream's order is its ids' (the global signal order), strictly increasing.
      // (With several writers at once, that order may differ from the workspace feed's positions:
      // docs/events.md#the-app-get-apievents.)
      const ids = resumed.changes.map((c) => Number(c.id));
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1] ?? 0);

      // list_changes from the start, 500 at a time, through the real SDK client on the sidecar process.
      const { credential } = await createUserToken(deps, user, { label: "Replay reader", scopes: ["mcp:read"] });
      const client = new Client({ name: "replay-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${sidecarUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${credential}` } } }),
      );
      const listed: StreamChange["data"][] = [];
      let cursor: string | undefined;
      for (;;) {
        const r = await client.callTool({ name: "list_changes", arguments: { workspace: ws, limit: 500, ...(cursor ? { cursor } : {}) } });
        expect(r.isError).not.toBe(true);
        const page = r.structuredContent as { changes: StreamChange["data"][]; next_cursor: string; more: boolean };
        listed.push(...page.changes);
        if (!page.more && page.next_cursor === cursor) break;
        if (page.changes.length === 0 && !page.more) break;
        cursor = page.next_cursor;
      }
      await client.close();
      const strip = ({ seq, type, target, version, at }: StreamChange["data"]) => ({ seq, type, target, version, at });
      const after = listed.filter((c) => c.seq > lastSeq);
      // list_changes is in the feed's order: positions lastSeq+1, lastSeq+2, … with nothing left out.
      expect(after.map((c) => c.seq)).toEqual(after.map((_, i) => lastSeq + 1 + i));
      // The same changes as the stream gave, each once.
      expect(after.map(strip)).toEqual(mine.map((c) => strip(c.data)).sort((a, b) => a.seq - b.seq));
    },
    40 * 60_000,
  );
});
