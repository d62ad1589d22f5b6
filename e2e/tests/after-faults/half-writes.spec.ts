// After every other test (the fault tests above all): the whole database, every workspace,
// page and table, holds nothing half-written once the sweeper has had its grace and a sweep.
// Each page has the revision of its current version and is no longer marked
// revisionPending; each workspace's usage equals a recount of its pages and their bytes plus
// its table rows' bytes; each table's rowCount equals its rows.
import { expect, test } from "@playwright/test";
import { describeHalfWritten, detailHalfWritten, isWhole, sweeperDeadlineMs, waitForSweeper } from "../support/consistency";
import { writeSection } from "../support/report";
import { stack } from "../support/stack";

test("nothing is left half-written anywhere once the sweeper has run", async () => {
  test.setTimeout(sweeperDeadlineMs() + 60_000);
  const { first, last, waitedMs } = await waitForSweeper();
  const { checked } = last;

  writeSection(
    "half-writes",
    5,
    "Half-done writes after all the tests",
    [
      `The servers ran with SWEEP_INTERVAL_SECONDS=${stack.sweepIntervalSeconds} and SWEEP_GRACE_SECONDS=${stack.sweepGraceSeconds} (production defaults: 60 and 60). After every other test, the whole database was checked: ${checked.workspaces} workspaces, ${checked.pages} pages, ${checked.tables} table${checked.tables === 1 ? "" : "s"} with ${checked.rows} rows.`,
      "",
      `- at the first look: ${describeHalfWritten(first)}`,
      `- ${isWhole(first) ? "" : `after waiting ${(waitedMs / 1000).toFixed(1)} s for the sweeper: `}pages marked revisionPending: **${last.revisionPending.length}**; pages without the revision of their current version: **${last.missingRevision.length}**; workspaces whose usage differs from a recount: **${last.usage.length}**; tables whose rowCount differs from their rows: **${last.rowCount.length}**`,
    ].join("\n"),
  );

  expect(checked.pages, "the tests wrote pages").toBeGreaterThan(0);
  expect(isWhole(last), `nothing half-written ${(waitedMs / 1000).toFixed(1)} s after the tests: ${detailHalfWritten(last)}`).toBe(true);
});
