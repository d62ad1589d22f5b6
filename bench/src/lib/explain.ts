// How the database runs a query: explain() summarised (MongoDB's winning plan and the
// indexes it uses, or FerretDB's pushdown flags and SQLite plan), and the query timed
// from this process through the driver.
import { median } from "./measure";

/** A MongoDB document as the driver hands it back (the bench does not depend on the driver's types). */
export type Document = Record<string, unknown>;

export interface ExplainSummary {
  /** MongoDB: the winning plan's stages, outermost first, with index names; FerretDB: its pushdown flags. */
  plan: string;
  indexesUsed: string[];
  /** The part of the explain output that says how the query runs (serverInfo and command left out). */
  raw: Document;
}

/** The stages of a MongoDB plan, outermost first ("LIMIT > FETCH > IXSCAN collection_id"). */
function planStages(plan: Document | undefined): { stages: string[]; indexes: string[] } {
  const stages: string[] = [];
  const indexes: string[] = [];
  const walk = (p: Document | undefined) => {
    if (!p || typeof p !== "object") return;
    const stage = typeof p.stage === "string" ? p.stage : typeof p.nodeType === "string" ? p.nodeType : null;
    if (stage) stages.push(p.indexName ? `${stage} ${p.indexName}` : stage);
    if (typeof p.indexName === "string") indexes.push(p.indexName);
    for (const k of ["queryPlan", "inputStage", "outerStage", "innerStage"]) walk(p[k] as Document | undefined);
    if (Array.isArray(p.inputStages)) for (const s of p.inputStages as Document[]) walk(s);
  };
  walk(plan);
  return { stages, indexes };
}

export function summarizeExplain(explain: Document): ExplainSummary {
  const { serverInfo: _s, command: _c, serverParameters: _p, ...raw } = explain;
  const qp = explain.queryPlanner as Document | undefined;
  const winning = qp?.winningPlan as Document | undefined;
  if (winning) {
    const { stages, indexes } = planStages(winning);
    return { plan: stages.join(" > "), indexesUsed: [...new Set(indexes)], raw };
  }
  // FerretDB v1 answers with the backend's query plan and whether filter, sort and limit
  // were pushed down to it (run in SQL) or done afterwards in FerretDB over every document.
  const flags = ["filterPushdown", "sortPushdown", "limitPushdown", "pushdown"].filter((k) => k in explain).map((k) => `${k}: ${String(explain[k])}`);
  const sql = JSON.stringify(qp ?? {});
  const used = [...sql.matchAll(/USING (?:COVERING )?INDEX ([\w"]+)/g)].map((m) => (m[1] ?? "").replace(/"/g, ""));
  const details = Array.isArray(qp?.Plan) ? (qp.Plan as unknown[]).map((l) => String(l).replace(/^.*detail=/, "")) : [];
  const plan = [flags.join(", "), details.length > 0 ? `SQLite: ${details.join("; ")}` : ""].filter(Boolean).join("; ");
  return { plan: plan || "(no plan reported)", indexesUsed: [...new Set(used)], raw };
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Runs `run` once to warm up, then up to 15 times one after another, but for about 10 s at
 * most (at least 3 runs): on the embedded database some queries scan every document.
 */
export async function timeQuery<T>(run: () => Promise<T>): Promise<{ result: T; runs: number; ms: { p50: number; p90: number; min: number } }> {
  const result = await run();
  const times: number[] = [];
  const began = performance.now();
  for (let i = 0; i < 15 && (i < 3 || performance.now() - began < 10_000); i++) {
    const s = performance.now();
    await run();
    times.push(performance.now() - s);
  }
  return { result, runs: times.length, ms: { p50: r2(median(times)), p90: r2(percentile(times, 90)), min: r2(Math.min(...times)) } };
}
