import { Writable } from "node:stream";
import { loadConfig, type Config } from "../config";
import type { Database } from "../db/index";
import { ReadCache } from "../domain/cache";
import type { Deps } from "../domain/deps";
import type { Mail, Mailer } from "../domain/mail";
import { createLogger, type Logger } from "../logger";

/** A configuration for tests: test defaults plus what the test sets. */
export function testConfig(env: Record<string, string> = {}): Config {
  // Exact reads unless a test is about the cache: tests change data behind a process's back.
  // Every test signs its people in from one address: the per-requester and global sign-in
  // code caps are lifted unless a test is about them.
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    CACHE_TTL_MS: "0",
    SIGNIN_CODES_PER_IP_PER_HOUR: "1000000",
    SIGNIN_CODES_GLOBAL_PER_HOUR: "1000000",
    ...env,
  });
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

export type TestDeps<D extends Database = Database> = Omit<Deps, "database"> & { database: D; sent: Mail[] };

/**
 * Domain deps as a process builds them, on a test database: the test configuration (plus
 * `env`), a cache sized by it, and a mailer that keeps what it sends.
 */
export function testDeps<D extends Database>(database: D, env: Record<string, string> = {}): TestDeps<D> {
  const config = testConfig(env);
  const sent: Mail[] = [];
  const mailer: Mailer = {
    async send(mail) {
      sent.push(mail);
    },
    close() {},
  };
  return { config, database, mailer, cache: new ReadCache(config.CACHE_TTL_MS, config.CACHE_MAX_BYTES), sent };
}
