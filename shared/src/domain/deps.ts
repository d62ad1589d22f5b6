import type { Config } from "../config";
import type { Database } from "../db/index";
import type { ViewCounter } from "./analytics/counter";
import type { ReadCache } from "./cache";
import type { Mailer } from "./mail";

/**
 * What domain services need, built once per process by the adapters. Every domain
 * function takes it (or the part it uses) as its first parameter.
 */
export interface Deps {
  config: Config;
  database: Database;
  mailer: Mailer;
  cache: ReadCache;
  /** The process's batch of reading figures (analytics/counter.ts); absent: reads are not counted. */
  views?: ViewCounter;
}

/** The part of Deps that reading and writing content needs. */
export type StoreDeps = Pick<Deps, "config" | "database" | "cache">;
