import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { requestCodeError, verifyCodeError } from "../components/sign-in/sign-in-messages";
import { appCodeOf, describeError, formatWait, isNetworkFailure, isUnauthorized, retryAfterSeconds } from "./errors";
import { isSitePath, safeNext } from "./safe-next";

function serverError(httpStatus: number, appCode: string | null, headers: Record<string, string> = {}) {
  return TRPCClientError.from(
    { error: { code: -32600, message: "from the server", data: { code: "BAD_REQUEST", httpStatus, path: "x", appCode, issues: null } } },
    { meta: { response: new Response(null, { status: httpStatus, headers }) } },
  );
}

describe("reading tRPC errors", () => {
  it("reads the appCode and a 401", () => {
    expect(appCodeOf(serverError(400, "invalid_otp"))).toBe("invalid_otp");
    expect(isUnauthorized(serverError(401, null))).toBe(true);
    expect(isUnauthorized(serverError(400, "invalid_otp"))).toBe(false);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterSeconds(serverError(429, "rate_limited", { "Retry-After": "600" }))).toBe(600);
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    expect(retryAfterSeconds(serverError(429, "rate_limited", { "Retry-After": inTwoMinutes }))).toBeGreaterThan(100);
    expect(retryAfterSeconds(serverError(429, "rate_limited"))).toBeNull();
  });

  it("tells a failed connection from a server answer", () => {
    expect(isNetworkFailure(TRPCClientError.from(new TypeError("Failed to fetch")))).toBe(true);
    expect(isNetworkFailure(serverError(500, null))).toBe(false);
    expect(describeError(TRPCClientError.from(new TypeError("Failed to fetch")))).toMatch(/^Couldn’t reach Atelier\. .*retry\.$/);
    expect(describeError(serverError(500, null))).toMatch(/having trouble/);
  });

  it("rounds waits up to what a person cares about", () => {
    expect(formatWait(30)).toBe("in about a minute");
    expect(formatWait(61)).toBe("in about 2 minutes");
    expect(formatWait(3600)).toBe("in about an hour");
  });
});

describe("sign-in messages", () => {
  it("says how long to wait when too many codes were sent", () => {
    expect(requestCodeError(serverError(429, "rate_limited", { "Retry-After": "900" }))).toMatch(/in about 15 minutes/);
    expect(requestCodeError(serverError(429, "rate_limited"))).toMatch(/wait a while/);
  });

  it("names a bad address and a bad code in plain words", () => {
    expect(requestCodeError(serverError(400, "invalid_request"))).toMatch(/doesn’t look like an e-mail address/);
    expect(verifyCodeError(serverError(400, "invalid_otp"))).toMatch(/didn’t work/);
  });
});

describe("safeNext", () => {
  it("keeps paths inside the app and refuses other origins", () => {
    expect(safeNext("/buckets/notes")).toBe("/buckets/notes");
    expect(safeNext(null)).toBe("/");
    expect(safeNext("//evil.example")).toBe("/");
    expect(safeNext("https://evil.example")).toBe("/");
    expect(safeNext("/\\evil.example")).toBe("/");
  });

  it("returns to a published page's address, as a whole page, and to nothing that leaves the origin (issue 27)", () => {
    expect(safeNext("/a/release-plan")).toBe("/a/release-plan");
    expect(isSitePath(safeNext("/a/release-plan"))).toBe(true);
    expect(isSitePath(safeNext("/artifacts/0b6f3c2e-8d1a-4c55-9a59-0c1f7f0c2a11"))).toBe(true);
    expect(isSitePath(safeNext("/buckets/notes/release-plan"))).toBe(false);
    expect(isSitePath("/a/")).toBe(false);
    // Browsers drop tabs and newlines from an address: "/\t/evil" would be "//evil".
    expect(safeNext("/\t/evil.example")).toBe("/");
    expect(safeNext("/\n/evil.example/a/x")).toBe("/");
    expect(safeNext("/%2F/evil.example")).toBe("/%2F/evil.example");
    expect(safeNext("/buckets/notes?edit=1#top")).toBe("/buckets/notes?edit=1#top");
    expect(safeNext("javascript:alert(1)")).toBe("/");
  });
});
