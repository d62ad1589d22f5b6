// `node server/dist/restore.js FILE [--replace]`: the production bundle of `pnpm restore` (deploy/README.md, "Backups").
import { openRunningDb, restoreCommand } from "@atelier/shared/backup/cli";

process.exitCode = await restoreCommand(process.argv.slice(2), openRunningDb);
