// Run through `pnpm test:e2e` (src/run.ts), which starts the stack behind nginx and sets
// E2E_BASE_URL and the rest; Playwright's own browser downloads are never used.
import { defineConfig } from "@playwright/test";

const baseURL = process.env.E2E_BASE_URL;
if (!baseURL) throw new Error("Run the e2e suite with `pnpm test:e2e`: it starts the stack these tests need.");

export default defineConfig({
  testDir: "tests",
  outputDir: "test-results",
  // One worker: the fault tests stop processes and the database under everyone's feet.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
  },
  projects: [
    { name: "journeys", testDir: "tests/journeys" },
    { name: "reliability", testDir: "tests/reliability" },
    // Once everything else has run (and the fault tests have passed): nothing half-written
    // is left anywhere after the sweeper's grace.
    { name: "after-faults", testDir: "tests/after-faults", dependencies: ["reliability"] },
  ],
});
