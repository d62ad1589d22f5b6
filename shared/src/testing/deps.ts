import { Writable } from "node:stream";
import { loadConfig, type Config } from "../config";
import { createLogger, type Logger } from "../logger";

/** A configuration for tests: test defaults plus what the test sets. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", ...env });
}

/** A logger whose every line is kept, so tests can assert what was (not) logged. */
export function capturingLogger(level = "info"): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString("utf8"));
      cb();
    },
  });
  return { logger: createLogger({ name: "test", level, destination }), lines };
}
