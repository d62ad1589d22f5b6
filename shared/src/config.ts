// Configuration of every Atelier process, parsed once at start from the environment
// (README.md#configuration). This is the only module that reads process.env; a bad value stops
// start-up with a message naming the variable.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const DAY = 86_400;

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], {
      error: "must be true or false",
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "true" || v === "1" || v === "yes"));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const port = (fallback: number) => int(fallback, 1, 65_535);

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).transform((u) => u.replace(/\/+$/, ""));

const IssuerSchema = z.union([
  z.object({ issuer: z.string().min(1), jwks_uri: z.url() }).strict(),
  z.object({ issuer: z.string().min(1), jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) }).strict(),
]);
export type TrustedIssuer = z.infer<typeof IssuerSchema>;

const issuers = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON list" });
      return z.NEVER;
    }
    const r = z.array(IssuerSchema).safeParse(parsed);
    if (!r.success) {
      ctx.addIssue({ code: "custom", message: "must be a JSON list of {issuer, jwks_uri} or {issuer, jwks}" });
      return z.NEVER;
    }
    return r.data;
  });

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Defaults to http://localhost:{PORT} (issue 23 item 15: PORT alone must not leave every printed URL on :3000). */
  BASE_URL: httpUrl.optional(),
  PORT: port(3000),
  SERVER_PORT: port(3001),
  SIDECAR_PORT: port(3002),
  LISTEN_HOST: z.string().min(1).default("127.0.0.1"),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, "must start with mongodb:// or mongodb+srv://")
    .optional(),
  MONGODB_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/, "must be 1-60 letters, digits, _ or -")
    .default("atelier"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Atelier <no-reply@atelier.localhost>"),
  ANONYMOUS_REGISTRATION_ENABLED: z.enum(["true", "false", "1", "0", "yes", "no"]).optional(),
  VERIFIED_EMAIL_REGISTRATION_ENABLED: bool(false),
  TRUSTED_ASSERTION_ISSUERS: issuers,
  ANON_CLAIM_WINDOW_SECONDS: int(14 * DAY, 1, 365 * DAY),
  ANON_RETENTION_SECONDS: int(7 * DAY, 0, 365 * DAY),
  CLAIM_OTP_TTL_SECONDS: int(600, 1, DAY),
  CLAIMED_TOKEN_TTL_SECONDS: int(90 * DAY, 1, 3650 * DAY),
  SWEEP_INTERVAL_SECONDS: int(60, 1, DAY),
  SWEEP_GRACE_SECONDS: int(60, 1, DAY),
  MENTION_MAIL_DELAY_SECONDS: int(300, 0, DAY),
  ANON_MAX_PAGES: int(25, 0, 1_000_000),
  ANON_MAX_BYTES: int(10 * 1024 * 1024, 0, 2 ** 40),
  ANON_WRITES_PER_MINUTE: int(60, 0, 1_000_000),
  ANON_REG_PER_IP_PER_DAY: int(5, 0, 1_000_000),
  ANON_REG_GLOBAL_PER_HOUR: int(200, 0, 1_000_000),
  OTP_SENDS_PER_REGISTRATION_PER_HOUR: int(5, 0, 1_000_000),
  OTP_SENDS_PER_EMAIL_PER_HOUR: int(5, 0, 1_000_000),
  SIGNIN_CODES_PER_IP_PER_HOUR: int(20, 0, 1_000_000),
  SIGNIN_CODES_GLOBAL_PER_HOUR: int(1000, 0, 1_000_000),
  INVITES_PER_INVITER_PER_HOUR: int(20, 0, 1_000_000),
  INVITES_PER_INVITER_PER_DAY: int(100, 0, 1_000_000),
  INVITES_PER_WORKSPACE_PER_HOUR: int(20, 0, 1_000_000),
  INVITES_PER_WORKSPACE_PER_DAY: int(100, 0, 1_000_000),
  INVITES_GLOBAL_PER_HOUR: int(1000, 0, 1_000_000),
  TABLE_MAX_ROWS: int(10_000, 1, 10_000_000),
  WORKSPACE_MAX_BYTES: int(1024 * 1024 * 1024, 0, 2 ** 50),
  FILE_MAX_BYTES: int(25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  IMAGE_MAX_DIMENSION: int(4096, 64, 32_768),
  UPLOAD_URL_TTL_SECONDS: int(3600, 60, DAY),
  REVISIONS_KEPT: int(100, 1, 1_000_000),
  CACHE_TTL_MS: int(1000, 0, 60_000),
  WRITE_FINISH: z.enum(["inline", "after_answer"]).default("inline"),
  CHANGES_RETENTION_SECONDS: int(7 * DAY, 60, 365 * DAY),
  CHANGES_POLL_MS: int(100, 10, 10_000),
  CACHE_MAX_BYTES: int(64 * 1024 * 1024, 0, 2 ** 40),
  SHARE_LINK_DEFAULT_TTL_SECONDS: int(30 * DAY, 0, 3650 * DAY),
  ROW_MAX_BYTES: int(16 * 1024, 64, 1024 * 1024),
  ANALYTICS_ENABLED: bool(true),
  ANALYTICS_FLUSH_SECONDS: int(5, 1, 300),
  ANALYTICS_RETENTION_DAYS: int(395, 31, 3650),
  // nginx's view log, which one server process per machine reads and empties; "" for none.
  ANALYTICS_NGINX_LOG: z
    .string()
    .regex(/^$|^\/[^\0]*[^/]$/, "must be an absolute file path, or empty")
    .default(""),
  TRUST_PROXY: z
    .string()
    .regex(/^[A-Za-z0-9.:/, ]+$/, "must be loopback, a number of hops, or a list of addresses/subnets")
    .default("loopback"),
  OAUTH_ALLOW_LOOPBACK_CLIENTS: z.enum(["true", "false", "1", "0", "yes", "no"]).optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false", "1", "0", "yes", "no"]).optional(),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .regex(/^\s*\d{1,7}(\s*,\s*\d{1,7}){0,19}\s*$/, "must be a comma-separated list of 1-20 whole numbers of seconds")
    .default("5,300,1800,7200,18000,36000,36000")
    .transform((v) => v.split(",").map((n) => Number(n.trim()))),
  WEBHOOK_TIMEOUT_SECONDS: int(10, 1, 60),
  WEBHOOK_DISABLE_AFTER_SECONDS: int(DAY, 0, 30 * DAY),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(3600, 60, DAY),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: int(30 * DAY, 300, 365 * DAY),
  OAUTH_CLIENT_FETCH_TIMEOUT_SECONDS: int(3, 1, 30),
  OAUTH_REGISTRATIONS_PER_IP_PER_HOUR: int(20, 0, 1_000_000),
  OAUTH_TOKEN_REQUESTS_PER_IP_PER_MINUTE: int(60, 0, 1_000_000),
  OAUTH_AUTHORIZE_REQUESTS_PER_IP_PER_MINUTE: int(30, 0, 1_000_000),
  OAUTH_REVOCATIONS_PER_IP_PER_MINUTE: int(30, 0, 1_000_000),
  OAUTH_UNUSED_CLIENT_TTL_SECONDS: int(7 * DAY, 3600, 365 * DAY),
  TOKEN_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,30}_$/, "must be lower-case letters, digits and _, ending with _")
    .default("service_mcp_"),
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  BACKUP_DIR: z.string().min(1).optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  SIDECAR_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

type Env = z.infer<typeof EnvSchema>;
export type Config = Omit<
  Env,
  "BASE_URL" | "ANONYMOUS_REGISTRATION_ENABLED" | "OAUTH_ALLOW_LOOPBACK_CLIENTS" | "WEBHOOK_ALLOW_PRIVATE_TARGETS" | "SECRET_KEY" | "BACKUP_DIR"
> & {
  /** The public origin, without a trailing slash. */
  BASE_URL: string;
  /** Where `pnpm backup` without a file name writes (default DATA_DIR/backups). */
  BACKUP_DIR: string;
  ANONYMOUS_REGISTRATION_ENABLED: boolean;
  /** OAuth clients whose metadata document lives on a loopback or private address (and http: loopback client ids). */
  OAUTH_ALLOW_LOOPBACK_CLIENTS: boolean;
  /** Webhook endpoints on loopback or private addresses (development and tests only). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  SECRET_KEY: string;
};

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Parses the environment. In development a missing SECRET_KEY is generated once and kept
 * in DATA_DIR/secret-key so that every local process shares it; tests get a fresh one per
 * process; production requires it.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = EnvSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    const names = [...new Set(result.error.issues.map((i) => String(i.path[0])))];
    throw new ConfigError(names, `Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const anon = e.ANONYMOUS_REGISTRATION_ENABLED;
  const loopback = e.OAUTH_ALLOW_LOOPBACK_CLIENTS;
  const privateTargets = e.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...e,
    BASE_URL: e.BASE_URL ?? `http://localhost:${e.PORT}`,
    DATA_DIR: dataDir,
    BACKUP_DIR: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, "backups")),
    WEB_DIST_DIR: e.WEB_DIST_DIR === undefined ? undefined : path.resolve(e.WEB_DIST_DIR),
    ANONYMOUS_REGISTRATION_ENABLED: anon === undefined ? e.NODE_ENV === "development" : anon === "true" || anon === "1" || anon === "yes",
    OAUTH_ALLOW_LOOPBACK_CLIENTS: loopback === undefined ? e.NODE_ENV !== "production" : loopback === "true" || loopback === "1" || loopback === "yes",
    WEBHOOK_ALLOW_PRIVATE_TARGETS:
      privateTargets === undefined ? e.NODE_ENV !== "production" : privateTargets === "true" || privateTargets === "1" || privateTargets === "yes",
    SECRET_KEY: e.SECRET_KEY ?? defaultSecretKey(e.NODE_ENV, dataDir),
  };
}

function defaultSecretKey(nodeEnv: Env["NODE_ENV"], dataDir: string): string {
  if (nodeEnv === "production") {
    throw new ConfigError(["SECRET_KEY"], "Invalid configuration:\n  SECRET_KEY: is required in production (at least 32 characters)");
  }
  if (nodeEnv === "test") return randomBytes(32).toString("base64url");
  const file = path.join(dataDir, "secret-key");
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return readFileSync(file, "utf8").trim();
}

/** The boot-time wrapper: print a ConfigError and exit, so a bad value stops start-up. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** TRUST_PROXY as Express's `trust proxy` setting: a hop count, or names/addresses/subnets. */
export function trustProxySetting(value: string): number | string {
  return /^\d+$/.test(value) ? Number(value) : value;
}
