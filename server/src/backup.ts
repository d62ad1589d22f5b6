// `node server/dist/backup.js [FILE]`: the production bundle of `pnpm backup` (deploy/README.md, "Backups").
import { backupCommand, openRunningDb } from "@atelier/shared/backup/cli";

process.exitCode = await backupCommand(process.argv.slice(2), openRunningDb);
