import { defineConfig } from "vitest/config";

// Three projects: `unit` needs nothing running; `db` gets one embedded database for the
// whole run (each test file then works in a database of its own); `abuse` (issue 13's attacks
// and the abuse corpus, docs/reliability.md) is heavy on purpose — bursts of parallel requests
// through two processes — so it runs after the others, one file at a time, and its bursts
// never starve another file's timeouts.
const DB_TEST = { globalSetup: ["shared/src/testing/global-setup.ts"], environment: "node" as const, testTimeout: 30_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["{shared,server,mcp-sidecar,web}/src/**/*.test.{ts,tsx}"],
          exclude: ["**/*.db.test.ts", "**/node_modules/**"],
          environment: "node",
        },
      },
      {
        test: {
          name: "db",
          include: ["{shared,server,mcp-sidecar}/src/**/*.db.test.ts"],
          exclude: ["**/src/abuse/**", "**/node_modules/**"],
          ...DB_TEST,
        },
      },
      {
        test: {
          name: "abuse",
          include: ["{server,mcp-sidecar}/src/abuse/*.db.test.ts"],
          ...DB_TEST,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
