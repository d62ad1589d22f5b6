import { describe, expect, it } from "vitest";
import { AppError, ERROR_TABLE, translateDbError } from "./errors";

describe("translateDbError", () => {
  it("turns a duplicate key into conflict", () => {
    const err = translateDbError(Object.assign(new Error("E11000"), { name: "MongoServerError", code: 11000 }));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("conflict");
  });

  it.each(["MongoServerSelectionError", "MongoNetworkError", "MongoTopologyClosedError"])("turns %s into unavailable (503)", (name) => {
    const err = translateDbError(Object.assign(new Error("x"), { name }));
    expect((err as AppError).code).toBe("unavailable");
    expect((err as AppError).rule.http).toBe(503);
  });

  it.each(["EPIPE", "ECONNRESET", "ECONNREFUSED"])("turns a dropped socket (%s) into unavailable, not a 500", (code) => {
    const err = translateDbError(Object.assign(new Error("This socket has been ended by the other party"), { code }));
    expect((err as AppError).code).toBe("unavailable");
  });

  it("leaves programming errors alone", () => {
    const e = new TypeError("x is not a function");
    expect(translateDbError(e)).toBe(e);
  });

  it("maps every code to an HTTP status, a tRPC code and an MCP answer", () => {
    for (const rule of Object.values(ERROR_TABLE)) {
      expect(rule.http).toBeGreaterThanOrEqual(400);
      expect(rule.trpc).toMatch(/^[A-Z_]+$/);
      expect(["tool", "http"]).toContain(rule.mcp);
      if ("jsonrpc" in rule) expect(rule.mcp).toBe("http");
    }
  });
});
