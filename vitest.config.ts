import { defineConfig } from "vitest/config";

// Two projects: `unit` needs nothing running; `db` gets one embedded database for the
// whole run (each test file then works in a database of its own).
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
          globalSetup: ["shared/src/testing/global-setup.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
