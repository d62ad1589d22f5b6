// `pnpm backup [FILE] [--require-consistent]` (deploy/README.md, "Backups").
import { backupCommand } from "../backup/cli";
import { openOrStartDb } from "./instance-db";

process.exitCode = await backupCommand(process.argv.slice(2), openOrStartDb);
