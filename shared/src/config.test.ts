import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const base = { NODE_ENV: "test" } as const;

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ ...base, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({ ...base });
    expect(c.BASE_URL).toBe("http://localhost:3000");
    expect([c.PORT, c.SERVER_PORT, c.SIDECAR_PORT]).toEqual([3000, 3001, 3002]);
    expect(c.MONGODB_DB).toBe("atelier");
    expect(c.ANON_CLAIM_WINDOW_SECONDS).toBe(1_209_600);
    expect(c.ANON_RETENTION_SECONDS).toBe(604_800);
    expect(c.CLAIM_OTP_TTL_SECONDS).toBe(600);
    expect(c.CLAIMED_TOKEN_TTL_SECONDS).toBe(7_776_000);
    expect(c.ANON_MAX_PAGES).toBe(25);
    expect(c.ANON_WRITES_PER_MINUTE).toBe(60);
    expect(c.TOKEN_PREFIX).toBe("service_mcp_");
    expect(c.TRUSTED_ASSERTION_ISSUERS).toEqual([]);
    expect(c.VERIFIED_EMAIL_REGISTRATION_ENABLED).toBe(false);
    expect(c.SECRET_KEY.length).toBeGreaterThanOrEqual(32);
  });

  it("enables anonymous registration by default only in development", () => {
    expect(loadConfig({ NODE_ENV: "test" }).ANONYMOUS_REGISTRATION_ENABLED).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", SECRET_KEY: "x".repeat(32) }).ANONYMOUS_REGISTRATION_ENABLED).toBe(false);
    expect(loadConfig({ NODE_ENV: "test", ANONYMOUS_REGISTRATION_ENABLED: "true" }).ANONYMOUS_REGISTRATION_ENABLED).toBe(true);
  });

  it("derives the default BASE_URL from PORT, so PORT alone moves every printed URL (issue 23 item 15)", () => {
    expect(loadConfig({ ...base, PORT: "8080" }).BASE_URL).toBe("http://localhost:8080");
    expect(loadConfig({ ...base, PORT: "8080", BASE_URL: "https://atelier.example.com" }).BASE_URL).toBe("https://atelier.example.com");
    expect(loadConfig({ ...base }).BASE_URL).toBe("http://localhost:3000");
  });

  it("strips a trailing slash from BASE_URL", () => {
    expect(loadConfig({ ...base, BASE_URL: "https://atelier.example/" }).BASE_URL).toBe("https://atelier.example");
  });

  it.each([
    ["PORT", "abc"],
    ["SERVER_PORT", "70000"],
    ["BASE_URL", "ftp://x"],
    ["MONGODB_URI", "postgres://x"],
    ["ANONYMOUS_REGISTRATION_ENABLED", "maybe"],
    ["ANON_MAX_PAGES", "-1"],
    ["ANON_CLAIM_WINDOW_SECONDS", "1.5"],
    ["TRUSTED_ASSERTION_ISSUERS", "{not json"],
    ["TRUSTED_ASSERTION_ISSUERS", '[{"issuer":"a"}]'],
    ["TOKEN_PREFIX", "Bad-Prefix"],
    ["SECRET_KEY", "short"],
    ["LOG_LEVEL", "loud"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    const err = configError({ [name]: value });
    expect(err.variables).toContain(name);
    expect(err.message).toContain(`${name}:`);
  });

  it("never echoes a bad SECRET_KEY back", () => {
    expect(configError({ SECRET_KEY: "hunter2-secret" }).message).not.toContain("hunter2");
  });

  it("requires SECRET_KEY in production", () => {
    const err = (() => {
      try {
        loadConfig({ NODE_ENV: "production" });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error("expected a ConfigError");
    })();
    expect(err.variables).toEqual(["SECRET_KEY"]);
  });

  it("accepts trusted issuers by JWKS URL or inline JWKS", () => {
    const c = loadConfig({
      ...base,
      TRUSTED_ASSERTION_ISSUERS: JSON.stringify([
        { issuer: "https://id.example", jwks_uri: "https://id.example/jwks" },
        { issuer: "https://other.example", jwks: { keys: [{ kty: "EC" }] } },
      ]),
    });
    expect(c.TRUSTED_ASSERTION_ISSUERS).toHaveLength(2);
  });
});
