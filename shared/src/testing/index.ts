// Test helpers for files that need the real database. The vitest global setup starts one
// embedded database per run; each test file works in a database of its own.
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { connectDatabase, watchContract, type ContractViolation, type Database } from "../db/index";

export { capturingLogger, testConfig, testDeps, type TestDeps } from "./deps";
export { listen } from "./http";
export { extractCode, startSmtpCapture, type CapturedMail, type SmtpCapture } from "./smtp";
export { shellWords } from "./shell-words";
export { startSourceProcess, type SourceProcess } from "./source-process";

declare module "vitest" {
  export interface ProvidedContext {
    mongoUri: string;
  }
}

export function testMongoUri(): string {
  return inject("mongoUri");
}

export type TestDatabase = Database & { name: string; contractViolations: ContractViolation[]; drop(): Promise<void> };

/**
 * A fresh, empty database with every index, dropped again by `drop()`. Every command sent
 * through it is checked against the storage contract (shared/src/db/contract.ts): `drop()`
 * fails the test file if any left it.
 */
export async function testDatabase(label = "t"): Promise<TestDatabase> {
  const name = `${label.replace(/[^A-Za-z0-9]/g, "").slice(0, 20)}_${randomBytes(6).toString("hex")}`;
  const database = await connectDatabase(testMongoUri(), name, { serverSelectionTimeoutMS: 10_000, monitorCommands: true });
  const watch = watchContract(database.client);
  return {
    ...database,
    name,
    contractViolations: watch.violations,
    async drop() {
      await database.db.dropDatabase().catch(() => {});
      await database.client.close();
      if (watch.violations.length > 0) {
        const seen = [...new Set(watch.violations.map((v) => `${v.command} ${v.collection}: ${v.rule} (${v.where})`))];
        throw new Error(`Queries outside the storage contract (shared/src/db/contract.ts):\n  ${seen.join("\n  ")}`);
      }
    },
  };
}
