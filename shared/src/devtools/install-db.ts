// Builds the embedded FerretDB ahead of time (used by .ci/setup), so the first test run
// or `pnpm dev` does not pause for it.
import { EmbeddedDbError, ensureFerretDb } from "./embedded-db";

try {
  ensureFerretDb((l) => console.log(`[setup] ${l}`));
} catch (err) {
  console.error(err instanceof EmbeddedDbError ? err.message : err);
  process.exit(1);
}
