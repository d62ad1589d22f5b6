import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { productionNodeFlags } from "./process";

describe("productionNodeFlags", () => {
  it("gives production processes a 512 MB heap, unless NODE_OPTIONS sets a limit of its own", () => {
    expect(productionNodeFlags({})).toEqual(["--max-old-space-size=512"]);
    expect(productionNodeFlags({ NODE_OPTIONS: "--max-old-space-size=2048" })).toEqual([]);
    expect(productionNodeFlags({ NODE_OPTIONS: "--enable-source-maps" })).toEqual(["--max-old-space-size=512"]);
  });

  it("is a limit node accepts and applies", () => {
    const r = spawnSync(process.execPath, [...productionNodeFlags({}), "-p", "require('node:v8').getHeapStatistics().heap_size_limit"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    // The old generation's 512 MB plus the young generation's semi-spaces.
    const mb = Number(r.stdout) / (1024 * 1024);
    expect(mb).toBeGreaterThanOrEqual(512);
    expect(mb).toBeLessThan(600);
  });
});
