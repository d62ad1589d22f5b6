import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { logRequest, requestLineWriter } from "./http-log";
import { createLogger } from "./logger";

function capture(level: string) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString("utf8"));
      cb();
    },
  });
  return { logger: createLogger({ name: "server", level, destination, redact: false }), lines };
}

describe("requestLineWriter", () => {
  it("writes the line logRequest makes pino write: same fields, same order, same bytes but the time", async () => {
    const { logger, lines } = capture("info");
    const write = requestLineWriter(logger);
    const startedAt = performance.now();
    for (const r of [
      { id: "lean-1", method: "GET", url: "/a/weekly-status", statusCode: 200, startedAt },
      { id: "lean-2", method: "HEAD", url: '/a/odd"name\\', statusCode: 304, startedAt },
      { id: "lean-3", method: "GET", url: "/S/secret-share-token", statusCode: 200, startedAt },
      { id: 4, method: undefined, url: "/mcp", statusCode: 401, startedAt },
    ]) {
      logRequest(logger, r);
      write(r);
    }
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(8);
    const withoutTime = (l: string) => l.replace(/"time":"[^"]+"/, '"time":"T"').replace(/"responseTime":\d+/, '"responseTime":0');
    for (let i = 0; i < lines.length; i += 2) {
      expect(withoutTime(lines[i + 1] ?? "")).toBe(withoutTime(lines[i] ?? ""));
      expect(Date.parse(JSON.parse(lines[i + 1] ?? "").time as string)).not.toBeNaN();
    }
    // The path is the loggable one: no credential segment.
    expect(lines[5]).toContain('"path":"/s/[redacted]"');
    expect(lines[5]).not.toContain("secret-share-token");
    expect(lines[7]).toContain('"req":{"id":4,"path":"/mcp"}');
  });

  it("writes nothing when the logger's level is above info", async () => {
    const { logger, lines } = capture("warn");
    requestLineWriter(logger)({ id: "lean-1", method: "GET", url: "/a/x", statusCode: 200, startedAt: performance.now() });
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([]);
  });
});
