// `pnpm restore FILE [--replace] [--check]` (deploy/README.md, "Backups").
import { restoreCommand } from "../backup/cli";
import { openOrStartDb } from "./instance-db";

process.exitCode = await restoreCommand(process.argv.slice(2), openOrStartDb);
