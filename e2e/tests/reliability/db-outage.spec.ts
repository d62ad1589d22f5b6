// Stop the database while requests are running, keep asking while it is down, start it
// again: clean 503s while it is down (never a 500), no crash, no hang, full service after,
// every acknowledged write there exactly once, and what the outage cut off between its
// steps finished by the sweeper.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, uniqueEmail, uniqueSlug } from "../support/api";
import { withDb } from "../support/db";
import { callTool, mcpClient, mcpPost, toolCall } from "../support/mcp";
import { table, writeSection } from "../support/report";
import { faults, stack } from "../support/stack";
import { describeRepair, detailHalfWritten, isWhole, waitForSweeper } from "../support/consistency";
import { checkWrites, describeStatuses, expectAcknowledgedWhole, statusCounts, writeOnce, type WriteRecord } from "../support/writes";

type Phase = "before" | "down" | "after";

interface Probe {
  route: string;
  phase: Phase;
  status: number;
  ms: number;
}

/**
 * What the apps logged as unhandled errors since `since`: the causes of their 500s, and of
 * MCP tool calls answered `internal_error` (the sidecar's 500 inside a tool result).
 */
function unhandledErrors(since: number): string[] {
  const dir = path.join(stack.artifactsDir, "logs");
  const out: string[] = [];
  for (const f of readdirSync(dir).filter((n) => /^(server|sidecar)-\d\.log$/.test(n))) {
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line.includes('"unhandled error"') && !line.includes('"tRPC error"') && !line.includes('"tool failed"')) continue;
      try {
        const rec = JSON.parse(line) as { time?: string; err?: { message?: string; code?: string } };
        if (rec.time && Date.parse(rec.time) < since) continue;
        out.push(`${f}: ${rec.err?.message ?? "(no message)"}${rec.err?.code ? ` (${rec.err.code})` : ""}`);
      } catch {
        out.push(line.slice(0, 200));
      }
    }
  }
  return out;
}

interface RowWrite {
  key: string;
  phase: Phase;
  status: number;
  acknowledged: boolean;
  detail: string;
  ms: number;
}

/** The longest any request may take while the database is gone. */
const BOUND_MS = 12_000;

test("a database outage gives clean 503s, no crash and no hang, and full service after", async () => {
  test.setTimeout(180_000);
  const testStarted = Date.now();
  const api = new Api();
  await api.signIn(uniqueEmail("outage"));
  const me = await api.query<{ defaultWorkspace: string }>("me.get");
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
    label: "outage writer",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });
  const seed = uniqueSlug("outage-seed");
  const agent = await mcpClient(credential);
  await callTool(agent, "create_page", { slug: seed, title: "Seed", body_markdown: "There before the outage." });
  // A data table, so that row inserts (rowCount and usage moved first, rows written after)
  // are cut off by the outage too.
  const TABLE = "outage-rows";
  await callTool(agent, "create_collection", {
    workspace: me.defaultWorkspace,
    slug: TABLE,
    name: "Rows written during the outage",
    kind: "table",
    columns: [
      { name: "key", type: "text", required: true },
      { name: "n", type: "number" },
    ],
  });
  await agent.close();
  const bearer = { authorization: `Bearer ${credential}` };

  const timed = async (route: string, phase: Phase, send: () => Promise<Response>): Promise<Probe> => {
    const t0 = Date.now();
    try {
      const res = await send();
      await res.arrayBuffer();
      return { route, phase, status: res.status, ms: Date.now() - t0 };
    } catch {
      return { route, phase, status: 0, ms: Date.now() - t0 };
    }
  };
  // One of each kind of request the public surface serves.
  const round = (phase: Phase) =>
    Promise.all([
      timed("GET /healthz", phase, () => fetch(`${stack.baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) })),
      timed("GET /a/{slug} (member's session)", phase, () => api.fetch(`/a/${seed}`)),
      timed("GET /api/trpc/me.get", phase, () => api.fetch("/api/trpc/me.get")),
      timed("GET /api/trpc/workspaces.list", phase, () => api.fetch("/api/trpc/workspaces.list")),
      timed("POST /api/trpc/auth.requestCode", phase, () =>
        api.fetch("/api/trpc/auth.requestCode", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: uniqueEmail("outage-code") }),
        }),
      ),
      timed("POST /mcp get_page", phase, () => mcpPost(toolCall("get_page", { slug: seed }), bearer)),
      timed("POST /mcp whoami", phase, () => mcpPost(toolCall("whoami"), bearer)),
    ]);

  const probes: Probe[] = [];
  const writes: WriteRecord[] = [];
  const writePhase = new Map<string, Phase>();
  let phase: Phase = "before";
  let streaming = true;
  // Writes keep coming the whole time, so the database goes away under requests in flight.
  const rowWrites: RowWrite[] = [];
  const rowLane = (async () => {
    for (let n = 0; streaming; n++) {
      const p: Phase = phase;
      const key = `row-${n}-${Math.random().toString(36).slice(2, 7)}`;
      const t0 = Date.now();
      const w: RowWrite = { key, phase: p, status: 0, acknowledged: false, detail: "", ms: 0 };
      try {
        const res = await mcpPost(toolCall("insert_rows", { workspace: me.defaultWorkspace, collection: TABLE, rows: [{ key, n }] }), bearer);
        const text = await res.text();
        w.status = res.status;
        const json = (res.status === 200 ? JSON.parse(text) : {}) as { result?: { isError?: boolean; content?: { text?: string }[] } };
        w.acknowledged = res.status === 200 && json.result !== undefined && !json.result.isError;
        if (!w.acknowledged) w.detail = (json.result?.content?.[0]?.text ?? text).slice(0, 200);
      } catch (err) {
        w.detail = err instanceof Error ? err.message : String(err);
      }
      w.ms = Date.now() - t0;
      if (p !== phase) w.phase = "down";
      rowWrites.push(w);
      if (!w.acknowledged) await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const stream = Array.from({ length: 3 }, async (_, lane) => {
    while (streaming) {
      const p = phase;
      const w = await writeOnce(lane === 0 ? "POST /api/artifacts/pages" : "mcp create_page", "outage", credential, api);
      writes.push(w);
      writePhase.set(w.slug, p === phase ? p : "down");
      if (!w.acknowledged) await new Promise((r) => setTimeout(r, 200));
    }
  });

  probes.push(...(await round("before")));
  await new Promise((r) => setTimeout(r, 1_000));

  phase = "down";
  const stoppedAt = Date.now();
  await faults.stopDb();
  for (let i = 0; i < 3; i++) probes.push(...(await round("down")));
  const running = await faults.list();
  const downFor = Date.now() - stoppedAt;

  await faults.startDb();
  const restartedAt = Date.now();
  // Full service: every process reports a reachable database again.
  const urls = [...stack.serverUrls, ...stack.sidecarUrls];
  for (;;) {
    const ok = await Promise.all(
      urls.map((u) =>
        fetch(`${u}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        ),
      ),
    );
    if (ok.every(Boolean)) break;
    expect(Date.now() - restartedAt, "service is back within 30 s of the database").toBeLessThan(30_000);
    await new Promise((r) => setTimeout(r, 100));
  }
  const recoveredMs = Date.now() - restartedAt;
  phase = "after";
  probes.push(...(await round("after")));
  await new Promise((r) => setTimeout(r, 1_000));
  streaming = false;
  await Promise.all([...stream, rowLane]);

  const check = await withDb((db) => checkWrites(db, writes, me.defaultWorkspace));
  const rowsFound = await withDb(async (db) => {
    const table = await db.collection<{ _id: string }>("collections").findOne({ workspaceId: check.workspaceId, slug: TABLE });
    const rows = await db
      .collection<{ values: { key: string } }>("rows")
      .find({ collectionId: table?._id ?? "" }, { projection: { values: 1 } })
      .toArray();
    const byKey = new Map<string, number>();
    for (const r of rows) byKey.set(r.values.key, (byKey.get(r.values.key) ?? 0) + 1);
    return byKey;
  });
  const rowsAcked = rowWrites.filter((w) => w.acknowledged);
  const rowsFoundOnce = rowsAcked.filter((w) => rowsFound.get(w.key) === 1).length;
  const rowsUnackedApplied = rowWrites.filter((w) => !w.acknowledged && (rowsFound.get(w.key) ?? 0) > 0).length;
  const rowDuplicates = [...rowsFound.values()].filter((n) => n > 1).length;
  // What the outage cut off between its steps is finished by the sweeper.
  const repair = await waitForSweeper([check.workspaceId]);
  const causes = unhandledErrors(testStarted);
  const fiveHundreds =
    [...probes, ...writes, ...rowWrites].filter((p) => p.status === 500).length +
    [...writes, ...rowWrites].filter((w) => /internal_error/.test(w.detail)).length;

  const down = probes.filter((p) => p.phase === "down");
  const routes = [...new Set(probes.map((p) => p.route))];
  const rows = routes.map((route) => {
    const of = (ph: Phase) => probes.filter((p) => p.route === route && p.phase === ph);
    return [
      `\`${route}\``,
      describeStatuses(statusCounts(of("before"))),
      describeStatuses(statusCounts(of("down"))),
      `${Math.max(...of("down").map((p) => p.ms))} ms`,
      describeStatuses(statusCounts(of("after"))),
    ];
  });
  const writesIn = (ph: Phase) => writes.filter((w) => writePhase.get(w.slug) === ph);
  writeSection(
    "db-outage",
    2,
    "Database stopped and restarted during requests",
    [
      `The database was stopped for ${(downFor / 1000).toFixed(1)} s with writes in flight (3 lanes of pages and 1 of table rows, all the time) and each route asked 3 times while it was down; after it started again, every process reported it reachable within ${(recoveredMs / 1000).toFixed(1)} s.`,
      "",
      table(["route", "before", "while down", "slowest while down", "after"], rows),
      "",
      `- writes: ${check.attempted} attempted (before: ${writesIn("before").length}, while down: ${writesIn("down").length}, after: ${writesIn("after").length}), ${check.acknowledged} acknowledged, **${check.foundOnce}** found exactly once; answers while down: ${describeStatuses(statusCounts(writesIn("down")))}`,
      `- table rows (MCP insert_rows, one row each): ${rowWrites.length} attempted, ${rowsAcked.length} acknowledged, **${rowsFoundOnce}** found exactly once; not acknowledged but applied: ${rowsUnackedApplied}; duplicates: ${rowDuplicates}; answers while down: ${describeStatuses(statusCounts(rowWrites.filter((w) => w.phase === "down")))}`,
      `- not acknowledged but applied: ${check.unacknowledgedButApplied}; duplicates: ${check.duplicates}; half-done by unacknowledged writes when the stream ended: ${check.pagesWithoutFirstRevision} page(s) without their first revision, page counter drift ${check.usageDrift}`,
      `- left for the sweeper, looking at the workspace's ${repair.last.checked.pages} pages, their revisions and its usage: ${describeRepair(repair)}`,
      `- processes running while the database was down: ${running.filter((p) => p.running).length} of ${running.length} (none crashed)`,
      `- 500 answers (or MCP \`internal_error\` tool results): **${fiveHundreds}**; unhandled errors the apps logged: ${causes.length === 0 ? "none" : causes.join("; ")}`,
    ].join("\n"),
  );

  expect(running.filter((p) => !p.running)).toEqual([]);
  for (const p of probes.filter((x) => x.phase !== "down")) expect(p.status, `${p.route} (${p.phase})`).toBeLessThan(400);
  // Never a 500: a lost database is `unavailable` (503) on every route, whatever the driver
  // threw (a dropped pooled socket surfaces as a plain EPIPE or ECONNRESET). The causes the
  // apps logged are in the message when one appears.
  if (fiveHundreds > 0 || causes.length > 0)
    test.info().annotations.push({ type: "500", description: `${fiveHundreds} answers were 500; logged causes: ${causes.join("; ") || "none"}` });
  expect(fiveHundreds, `no 500 answers (logged causes: ${causes.join("; ") || "none"})`).toBe(0);
  expect(causes, "no unhandled error logged by any process during the test").toEqual([]);
  for (const p of down) {
    expect(p.status, `${p.route} while the database is down`).toBe(503);
    expect(p.ms, `${p.route} answers in bounded time`).toBeLessThan(BOUND_MS);
  }
  for (const w of [...writesIn("down"), ...rowWrites.filter((r) => r.phase === "down")]) expect([201, 200, 503]).toContain(w.status);
  expect(rowsAcked.length, "some rows were acknowledged").toBeGreaterThan(0);
  expect(rowsFoundOnce, "every acknowledged row is in the table exactly once").toBe(rowsAcked.length);
  expect(rowDuplicates).toBe(0);
  expect(rowWrites.filter((w) => w.phase === "after").every((w) => w.acknowledged)).toBe(true);
  expect(writes.every((w) => w.ms < BOUND_MS + 20_000)).toBe(true);
  expect(writesIn("after").every((w) => w.acknowledged)).toBe(true);
  expectAcknowledgedWhole(check);
  expect(isWhole(repair.last), `nothing half-written after the sweeper: ${detailHalfWritten(repair.last)}`).toBe(true);
});
