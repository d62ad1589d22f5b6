// vitest global setup for the `db` project: one embedded database for the whole run.
import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { REPO_ROOT, startEmbeddedDb, type EmbeddedDb } from "../devtools/embedded-db";

let db: EmbeddedDb | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = path.join(REPO_ROOT, ".data", `test-db-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  db = await startEmbeddedDb({ mongodbUri: process.env.MONGODB_URI || undefined, dataDir, temporary: true, log: (l) => console.log(`[db] ${l}`) });
  project.provide("mongoUri", db.uri);
}

export async function teardown(): Promise<void> {
  await db?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
