// Reads a V8 .cpuprofile (what `node --cpu-prof` writes) and says where the time went:
// self time per function, and inclusive time per package (a sample counts for a package
// when any frame of its stack belongs to it), so "35 % under the mongodb driver" is one line.
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  where: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** time not idle: everything but "(idle)" */
  busyMs: number;
  topSelf: ProfileLine[];
  /** self time grouped by package or area */
  selfByArea: ProfileLine[];
  /** inclusive time by package or area: samples with at least one frame there */
  inclusiveByArea: ProfileLine[];
}

/** The package (or area: own code, node internals, GC…) a frame belongs to. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName.startsWith("(")) return functionName; // (garbage collector), (program), (idle), (root)
    return "(native)";
  }
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm?.[1]) return pnpm[1];
  const plain = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (plain?.[1]) return plain[1];
  if (url.startsWith("node:")) return "node internals";
  const own = /\/(shared|server|mcp-sidecar)\/src\//.exec(url);
  if (own?.[1]) return `@atelier/${own[1]}`;
  return url.replace(/^file:\/\//, "");
}

function shortWhere(frame: CallFrame): string {
  if (!frame.url) return "";
  const url = frame.url
    .replace(/^file:\/\//, "")
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
    .replace(/^.*\/(shared|server|mcp-sidecar)\/src\//, "$1/src/");
  return `${url}:${frame.lineNumber + 1}`;
}

/**
 * Samples between `window.fromEndMs` and `window.toEndMs` before the profile's end are
 * counted (e.g. only the measured run, not start-up, warm-up or shutdown); all without it.
 */
export function summarizeProfile(file: string, top = 20, window?: { fromEndMs: number; toEndMs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const from = window ? profile.endTime - window.fromEndMs * 1000 : -Infinity;
  const to = window ? profile.endTime - window.toEndMs * 1000 : Infinity;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const self = new Map<string, { name: string; where: string; us: number }>();
  const selfArea = new Map<string, number>();
  const inclArea = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time since the previous sample; attribute it to this one.
    const us = Math.max(0, profile.timeDeltas[i] ?? 0);
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    total += us;
    const node = byId.get(id);
    if (!node) return;
    const f = node.callFrame;
    if (f.functionName === "(idle)") {
      idle += us;
      return;
    }
    const key = `${f.functionName}|${f.url}|${f.lineNumber}`;
    const entry = self.get(key) ?? { name: f.functionName || "(anonymous)", where: shortWhere(f), us: 0 };
    entry.us += us;
    self.set(key, entry);
    const area = areaOf(f);
    selfArea.set(area, (selfArea.get(area) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (!frame || frame.functionName === "(root)") continue;
      seen.add(areaOf(frame));
    }
    for (const a of seen) inclArea.set(a, (inclArea.get(a) ?? 0) + us);
  });
  const busy = total - idle;
  const line = (name: string, where: string, us: number): ProfileLine => ({
    name,
    where,
    ms: Math.round(us / 100) / 10,
    percent: busy > 0 ? Math.round((1000 * us) / busy) / 10 : 0,
  });
  const sorted = <T>(m: Map<string, T>, us: (v: T) => number) => [...m.entries()].sort((a, b) => us(b[1]) - us(a[1]));
  return {
    file,
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    topSelf: sorted(self, (v) => v.us)
      .slice(0, top)
      .map(([, v]) => line(v.name, v.where, v.us)),
    selfByArea: sorted(selfArea, (v) => v)
      .slice(0, top)
      .map(([k, v]) => line(k, "", v)),
    inclusiveByArea: sorted(inclArea, (v) => v)
      .slice(0, top)
      .map(([k, v]) => line(k, "", v)),
  };
}

export function formatProfileSummary(s: ProfileSummary): string {
  const rows = (title: string, lines: ProfileLine[], withWhere: boolean) =>
    [
      title,
      ...lines.map(
        (l) => `  ${l.percent.toFixed(1).padStart(5)} %  ${l.ms.toFixed(0).padStart(7)} ms  ${l.name}${withWhere && l.where ? `  (${l.where})` : ""}`,
      ),
    ].join("\n");
  return [
    `profile ${s.file}: ${s.totalMs} ms sampled, ${s.busyMs} ms busy (percentages are of busy time)`,
    rows("top functions by self time:", s.topSelf, true),
    rows("self time by package / area:", s.selfByArea, false),
    rows("inclusive time by package / area (a sample counts once per package on its stack):", s.inclusiveByArea, false),
  ].join("\n");
}
