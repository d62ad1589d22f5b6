// Summarises a .cpuprofile: `pnpm --filter @atelier/bench profile-summary FILE [TOP]`.
// `pnpm bench --profile` writes bench/results/artifact-read.cpuprofile and prints this too;
// the file also opens in Chrome DevTools (Performance tab) or speedscope for a flame chart.
import path from "node:path";
import { formatProfileSummary, summarizeProfile } from "./lib/cpuprofile";

const [file, top] = process.argv.slice(2).filter((a) => a !== "--");
if (!file) {
  process.stderr.write("usage: profile-summary FILE.cpuprofile [TOP]\n");
  process.exit(2);
}
process.stdout.write(`${formatProfileSummary(summarizeProfile(path.resolve(process.env.INIT_CWD ?? process.cwd(), file), Number(top ?? 20)))}\n`);
