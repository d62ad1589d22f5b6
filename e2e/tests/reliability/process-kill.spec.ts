// SIGKILL one server and one sidecar process (then the other pair) during a stream of writes
// through nginx: nginx fails over, every write that got a success answer is in the database
// exactly once, and what a killed process left half-done is finished by the sweeper.
import { expect, test } from "@playwright/test";
import { Api, uniqueEmail } from "../support/api";
import { withDb } from "../support/db";
import { callTool, mcpClient } from "../support/mcp";
import { table, writeSection } from "../support/report";
import { faults, stack, type ProcessName } from "../support/stack";
import { describeRepair, detailHalfWritten, isWhole, waitForSweeper } from "../support/consistency";
import { checkWrites, describeStatuses, expectAcknowledgedWhole, statusCounts, writeOnce, type WriteRecord } from "../support/writes";

const TOTAL = 300;
const LANES = 6;

test("writes survive SIGKILL of a server and a sidecar process behind nginx", async () => {
  test.setTimeout(240_000);
  const api = new Api();
  await api.signIn(uniqueEmail("kill-writer"));
  const me = await api.query<{ defaultWorkspace: string }>("me.get");
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
    label: "kill-test writer",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });

  // The faults, by how far the stream has got.
  const schedule: { at: number; action: string; run: () => Promise<unknown> }[] = [
    { at: 0.2, action: "SIGKILL server-1 + sidecar-1", run: () => Promise.all((["server-1", "sidecar-1"] as ProcessName[]).map((p) => faults.kill(p))) },
    { at: 0.45, action: "restart server-1 + sidecar-1", run: () => Promise.all((["server-1", "sidecar-1"] as ProcessName[]).map((p) => faults.start(p))) },
    { at: 0.6, action: "SIGKILL server-2 + sidecar-2", run: () => Promise.all((["server-2", "sidecar-2"] as ProcessName[]).map((p) => faults.kill(p))) },
    { at: 0.85, action: "restart server-2 + sidecar-2", run: () => Promise.all((["server-2", "sidecar-2"] as ProcessName[]).map((p) => faults.start(p))) },
  ];
  const records: WriteRecord[] = [];
  const faultLog: { action: string; at: number }[] = [];
  const t0 = Date.now();
  let next = 0;
  let streamDone = false;

  const lanes = Array.from({ length: LANES }, async () => {
    while (next < TOTAL) {
      const i = next++;
      records.push(await writeOnce(i % 5 === 0 ? "POST /api/artifacts/pages" : "mcp create_page", "kill", credential, api));
    }
  });
  const injector = (async () => {
    for (const step of schedule) {
      while (records.length < step.at * TOTAL && !streamDone) await new Promise((r) => setTimeout(r, 10));
      faultLog.push({ action: step.action, at: Date.now() - t0 });
      await step.run();
    }
  })();
  await Promise.all(lanes);
  streamDone = true;
  await injector;
  const seconds = (Date.now() - t0) / 1000;

  // Every process is back before anything is checked.
  const procs = await faults.list();
  expect(procs.filter((p) => !p.running)).toEqual([]);

  const check = await withDb((db) => checkWrites(db, records, me.defaultWorkspace));
  // What the kills left half-done is finished by the sweeper, within its grace and interval.
  const repair = await waitForSweeper([check.workspaceId]);

  // A client that got no success answer repeats the same write: the slug makes it safe.
  // Already applied: 409 / a conflict tool error. Not applied: it is created now.
  const retries = await Promise.all(records.filter((r) => !r.acknowledged).map((r) => writeOnce(r.kind, "kill", credential, api, r.slug)));
  const retryConflicts = retries.filter((r) => r.status === 409 || /conflict|already used/i.test(r.detail)).length;
  const retryCreated = retries.filter((r) => r.acknowledged).length;
  // Now every attempted write counts as done: each slug must be there exactly once.
  const afterRetry = await withDb((db) =>
    checkWrites(
      db,
      records.map((r) => ({ ...r, acknowledged: true })),
      me.defaultWorkspace,
    ),
  );

  // And through the public API: each acknowledged page reads back with what was written.
  const readStarted = Date.now();
  const listed = new Set<string>();
  const reader = await mcpClient(credential);
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page = (await callTool(reader, "list_pages", { workspace: me.defaultWorkspace, limit: 200, ...(cursor ? { cursor } : {}) })) as {
      pages: { slug: string; title: string }[];
      next_cursor: string | null;
    };
    for (const p of page.pages) if (p.title === `Write ${p.slug}`) listed.add(p.slug);
    cursor = page.next_cursor;
  }
  await reader.close();
  const readBack = records.filter((r) => r.acknowledged && listed.has(r.slug)).length;
  const readSeconds = (Date.now() - readStarted) / 1000;

  const statuses = statusCounts(records);
  const fiveXx = records.filter((r) => r.status >= 500);
  const byKind = (kind: WriteRecord["kind"]) => {
    const rs = records.filter((r) => r.kind === kind);
    return [kind, rs.length, rs.filter((r) => r.acknowledged).length, describeStatuses(statusCounts(rs.filter((r) => !r.acknowledged))) || "none"];
  };
  writeSection(
    "process-kill",
    1,
    "SIGKILL of server and sidecar processes during writes",
    [
      `${TOTAL} writes with unique slugs through nginx, ${LANES} at a time, in ${seconds.toFixed(1)} s; meanwhile: ${faultLog.map((f) => `${f.action} at ${(f.at / 1000).toFixed(1)} s`).join("; ")}.`,
      "",
      table(["writes", "attempted", "acknowledged", "answers without success"], [byKind("mcp create_page"), byKind("POST /api/artifacts/pages")]),
      "",
      `- acknowledged and found exactly once (database, by slug): **${check.foundOnce} of ${check.acknowledged}**; listed back through MCP list_pages: ${readBack} (in ${readSeconds.toFixed(1)} s)`,
      `- not acknowledged but applied anyway: ${check.unacknowledgedButApplied} (the process died after writing, before answering)`,
      `- duplicates: ${check.duplicates}; half-done by unacknowledged writes when the stream ended: ${check.pagesWithoutFirstRevision} page(s) without their first revision, page counter drift ${check.usageDrift} (the sweeper may already have finished others during the stream)`,
      `- left for the sweeper (SWEEP_GRACE_SECONDS=${stack.sweepGraceSeconds}, SWEEP_INTERVAL_SECONDS=${stack.sweepIntervalSeconds}), looking at the workspace's ${repair.last.checked.pages} pages, their revisions and its usage: ${describeRepair(repair)}`,
      `- all answers: ${describeStatuses(statuses)}; 5xx: **${fiveXx.length}** (${describeStatuses(statusCounts(fiveXx)) || "none"})`,
      `- the ${retries.length} writes without a success answer, repeated with the same slug: ${retryCreated} created now, ${retryConflicts} answered "already exists"; afterwards ${afterRetry.foundOnce} of ${afterRetry.attempted} attempted slugs are present exactly once`,
    ].join("\n"),
  );

  expectAcknowledgedWhole(check);
  expect(isWhole(repair.last), `nothing half-written after the sweeper: ${detailHalfWritten(repair.last)}`).toBe(true);
  expect(retryCreated + retryConflicts).toBe(retries.length);
  expect(retryConflicts).toBe(check.unacknowledgedButApplied);
  expect(afterRetry.foundOnce, "after the retries every attempted slug is there exactly once").toBe(TOTAL);
  expect(afterRetry.duplicates).toBe(0);
  expect(readBack).toBe(check.acknowledged);
  // A 5xx may only be a write that was in flight on a process as it was killed (nginx does
  // not resend a POST it already sent): at most one per lane per kill.
  expect(
    fiveXx.every((r) => r.status === 502),
    `only 502s: ${describeStatuses(statusCounts(fiveXx))}`,
  ).toBe(true);
  expect(fiveXx.length).toBeLessThanOrEqual(LANES * 2);
  expect(records.filter((r) => r.status === 0)).toEqual([]);
});
