import type { Config } from "../config";
import type { Database } from "../db/index";
import type { Mailer } from "./mail";

/** What domain services need; adapters build it once per process. */
export interface DomainDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
}
