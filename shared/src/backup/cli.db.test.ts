// deploy/README.md's "Backups" commands, run as written (the `pnpm` lines of its first block,
// the archive path moved into a temporary folder) against the embedded database: backup,
// check, restore into an empty database, and a second restore refused.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO_ROOT } from "../devtools/embedded-db";
import { createPage } from "../domain/pages/create-page";
import { findOrCreateConfirmedUser } from "../domain/users";
import { shellWords, testDatabase, testDeps, testMongoUri, type TestDatabase } from "../testing/index";

const dir = mkdtempSync(path.join(tmpdir(), "atelier-backup-cli-"));
let source: TestDatabase;
let target: TestDatabase;

beforeAll(async () => {
  source = await testDatabase("clisrc");
  target = await testDatabase("clidst");
  const deps = testDeps(source);
  const user = await findOrCreateConfirmedUser(deps, "cli@example.com");
  await createPage(deps, { kind: "user", user }, { slug: "kept", title: "Kept", body_markdown: "through the command line" });
});
afterAll(async () => {
  await source.drop();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The `pnpm …` commands of the first shell block of deploy/README.md's "Backups". */
function documentedCommands(): string[][] {
  const readme = readFileSync(path.join(REPO_ROOT, "deploy/README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Backups"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l.startsWith("pnpm "))
    .map((l) => shellWords(l.replaceAll("/var/backups/atelier/", `${dir}/`)));
}

function run(words: string[], db: string) {
  const [cmd = "pnpm", ...args] = words;
  const r = spawnSync(cmd, args, {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 120_000,
    // A clean environment: vitest's own (BASE_URL "/" among them) is not the service's.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: db,
      DATA_DIR: path.join(dir, "data"),
      LOG_LEVEL: "silent",
    },
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

it("backs up, checks and restores as deploy/README.md says, and refuses to restore over data", async () => {
  const commands = documentedCommands();
  expect(commands.map((c) => c.slice(0, 2).join(" "))).toEqual(["pnpm backup", "pnpm restore", "pnpm restore"]);
  const [backup = [], check = [], restore = []] = commands;
  const b = run(backup, source.name);
  expect(b.out).toMatch(/backed up \d+ documents/);
  expect(b.status).toBe(0);
  const c = run(check, target.name);
  expect(c.out).toContain("is whole");
  expect(c.status).toBe(0);
  expect(await target.c.pages.countDocuments({})).toBe(0);
  const r = run(restore, target.name);
  expect(r.out).toMatch(/restored \d+ documents/);
  expect(r.status).toBe(0);
  expect((await target.c.pages.findOne({ slug: "kept" }))?.title).toBe("Kept");
  const again = run(restore, target.name);
  expect(again.status).toBe(1);
  expect(again.out).toContain("(not_empty)");
  // Four processes of pnpm + tsx: slow on a busy machine.
}, 300_000);
