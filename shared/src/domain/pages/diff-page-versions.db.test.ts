// diff_page_versions' promise, as a property on the embedded database: for 1,000 random pairs
// of a page's versions (made by random edits through update_page and edit_page's use cases),
// applying the diff to the text of one gives the text of the other exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import type { Principal } from "../access";
import { applyUnifiedDiff } from "../text-diff";
import { findOrCreateConfirmedUser } from "../users";
import { createPage } from "./create-page";
import { diffPageVersions } from "./diff-page-versions";
import { editPage } from "./edit-page";
import { updatePage } from "./update-page";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let principal: Principal;

beforeAll(async () => {
  database = await testDatabase("pdiff");
  deps = testDeps(database);
  const user = await findOrCreateConfirmedUser(deps, "differ@example.com");
  principal = { kind: "user", user };
});
afterAll(async () => {
  await database.drop();
});

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("diff_page_versions", () => {
  it("turns one version's text into the other's exactly, for 1,000 random pairs of versions", async () => {
    const rand = random(26);
    let lines = Array.from({ length: 40 }, (_, i) => (i % 9 === 0 ? "" : `line ${i % 11}`));
    const slug = "diff-property";
    await createPage(deps, principal, { slug, title: "Diffs", body_markdown: lines.join("\n") });
    const texts = new Map<number, string>([[1, lines.join("\n")]]);
    for (let version = 2; version <= 40; version++) {
      if (rand() < 0.3) {
        // A small edit through edit_page: one line that occurs once, replaced.
        const current = texts.get(version - 1) ?? "";
        const once = lines.map((l, i) => ({ l, i })).filter(({ l }) => l !== "" && current.split(l).length === 2);
        const pick = once[Math.floor(rand() * once.length)];
        if (pick) {
          await editPage(deps, principal, { slug, expected_version: version - 1, edits: [{ op: "replace", find: pick.l, replace: `edited ${version}` }] });
          lines[pick.i] = `edited ${version}`;
          texts.set(version, lines.join("\n") + (current.endsWith("\n") ? "\n" : ""));
          continue;
        }
      }
      const out = [...lines];
      for (let e = Math.floor(rand() * 6); e > 0; e--) {
        const at = Math.floor(rand() * (out.length + 1));
        const kind = rand();
        if (kind < 0.35) out.splice(at, 0, `new ${Math.floor(rand() * 1000)}`);
        else if (kind < 0.7) out.splice(at, 1);
        else out.splice(at, 1, `changed ${Math.floor(rand() * 1000)}`);
      }
      lines = out;
      const text = lines.join("\n") + (rand() < 0.3 ? "\n" : "");
      await updatePage(deps, principal, { slug, body_markdown: text, expected_version: version - 1 });
      texts.set(version, text);
    }
    for (let k = 0; k < 1000; k++) {
      const from = 1 + Math.floor(rand() * 40);
      const to = 1 + Math.floor(rand() * 40);
      const d = await diffPageVersions(deps, principal, { slug, from, to });
      const before = texts.get(from) ?? "";
      expect(d.diff, `${from} → ${to}`).not.toBeNull();
      expect(from === to || before === texts.get(to) ? d.diff : applyUnifiedDiff(before, d.diff ?? ""), `${from} → ${to}`).toBe(
        from === to || before === texts.get(to) ? "" : texts.get(to),
      );
    }
  }, 120_000);
});
