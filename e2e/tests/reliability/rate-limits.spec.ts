// The caps are kept in the database, so two server processes share them: registrations per
// requester IP hold in total, however the requests are spread; a client cannot pick its own
// address through nginx; sign-in codes per e-mail hold across processes too.
import { readFileSync, statSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { httpCall, uniqueEmail, type RawResponse } from "../support/api";
import { table, writeSection } from "../support/report";
import { stack } from "../support/stack";

const REGISTER = JSON.stringify({ type: "anonymous", requested_credential_type: "mcp_write_token" });
const ATTEMPTS = 10;
const EMAIL_CAP = 5; // OTP_SENDS_PER_EMAIL_PER_HOUR, left at its default

const octet = () => 2 + Math.floor(Math.random() * 250);
const json = { "content-type": "application/json" };

/**
 * The caps are fixed windows (shared/src/domain/rate-limits.ts): a burst that straddles a
 * window's end is counted in two windows. Waits until `needMs` fit before the current
 * window of `windowSeconds` ends, so each part below is counted in one window.
 */
async function clearOfWindowEnd(windowSeconds: number, needMs: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 1_000));
}

function summary(answers: RawResponse[]): { created: number; limited: number; other: number[]; retryAfterOk: boolean } {
  const limited = answers.filter((a) => a.status === 429);
  return {
    created: answers.filter((a) => a.status === 201 || a.status === 200).length,
    limited: limited.length,
    other: answers.filter((a) => ![200, 201, 429].includes(a.status)).map((a) => a.status),
    retryAfterOk: limited.every((a) => /^\d+$/.test(String(a.headers["retry-after"] ?? ""))),
  };
}

test("rate limits hold in total across two server processes", async () => {
  const cap = stack.anonRegPerIpPerDay;
  const [s1, s2] = stack.serverUrls;
  if (!s1 || !s2) throw new Error("two server processes expected");
  const rows: (string | number)[][] = [];
  // Parts (a)-(c) count per day, (d) per hour; the whole test takes a few seconds.
  await clearOfWindowEnd(86_400, 60_000);

  // (a) Straight to the two processes in turn, as nginx would forward them (the processes
  // trust X-Forwarded-For from loopback): one requester address, two processes.
  const ip = `203.0.113.${octet()}`;
  const direct: RawResponse[] = [];
  const createdBy = new Map<string, number>();
  for (let i = 0; i < ATTEMPTS; i++) {
    const url = i % 2 === 0 ? s1 : s2;
    const res = await httpCall(`${url}/agent/auth`, { method: "POST", headers: { ...json, "x-forwarded-for": ip }, body: REGISTER });
    direct.push(res);
    if (res.status === 201) createdBy.set(url, (createdBy.get(url) ?? 0) + 1);
  }
  const a = summary(direct);
  rows.push(["registrations, one IP, alternating server-1 / server-2", ATTEMPTS, cap, a.created, a.limited, [...createdBy.values()].join(" + ")]);

  // (b) Through nginx from one loopback address of our own: nginx spreads them over both.
  const source = `127.0.0.${octet()}`;
  const viaNginx: RawResponse[] = [];
  // nginx logs no client address (docs/decisions.md, reading figures): this test's lines are
  // the ones written after this point (one worker runs the tests, one at a time).
  // (Lines of earlier requests still in nginx's buffer are written within a second.)
  await new Promise((r) => setTimeout(r, 1500));
  const logFrom = statSync(stack.nginxAccessLog).size;
  for (let i = 0; i < ATTEMPTS; i++) {
    viaNginx.push(await httpCall(`${stack.baseUrl}/agent/auth`, { method: "POST", headers: json, body: REGISTER, localAddress: source }));
  }
  const b = summary(viaNginx);
  // nginx writes its access log in blocks, at least once a second (deploy/nginx.conf): wait for all the lines.
  const logged = () =>
    readFileSync(stack.nginxAccessLog)
      .subarray(logFrom)
      .toString("utf8")
      .split("\n")
      .filter((l) => l.includes('"POST /agent/auth"'));
  await expect.poll(() => logged().length, { timeout: 5_000 }).toBe(ATTEMPTS);
  const upstreams = new Set(logged().map((l) => /upstream=([^/\s,]+)/.exec(l)?.[1] ?? ""));
  rows.push([`registrations through nginx from ${source}`, ATTEMPTS, cap, b.created, b.limited, `${upstreams.size} upstreams`]);

  // (c) A client naming its own address: nginx overwrites X-Forwarded-For, so the cap
  // still counts the address nginx saw.
  const spoofer = `127.0.0.${octet()}`;
  const spoofed: RawResponse[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    spoofed.push(
      await httpCall(`${stack.baseUrl}/agent/auth`, {
        method: "POST",
        headers: { ...json, "x-forwarded-for": `198.51.100.${i + 1}`, "x-real-ip": `198.51.100.${i + 1}` },
        body: REGISTER,
        localAddress: spoofer,
      }),
    );
  }
  const c = summary(spoofed);
  rows.push(["registrations through nginx, a different X-Forwarded-For each time", ATTEMPTS, cap, c.created, c.limited, "-"]);

  // (d) Sign-in codes to one address, alternating the two processes.
  const email = uniqueEmail("capped");
  await clearOfWindowEnd(3_600, 20_000);
  const codes: RawResponse[] = [];
  for (let i = 0; i < EMAIL_CAP + 3; i++) {
    codes.push(
      await httpCall(`${i % 2 === 0 ? s1 : s2}/api/trpc/auth.requestCode`, {
        method: "POST",
        headers: { ...json, origin: stack.baseUrl, "x-forwarded-for": `203.0.113.${octet()}` },
        body: JSON.stringify({ email }),
      }),
    );
  }
  const d = summary(codes);
  rows.push(["sign-in codes to one e-mail, alternating server-1 / server-2", EMAIL_CAP + 3, EMAIL_CAP, d.created, d.limited, "-"]);

  writeSection(
    "rate-limits",
    4,
    "Rate limits across two server processes",
    [
      `ANON_REG_PER_IP_PER_DAY=${cap} for this run; every refusal is 429 with Retry-After: ${[a, b, c, d].every((x) => x.retryAfterOk) ? "yes" : "no"}.`,
      "",
      table(["what", "attempts", "cap", "succeeded", "429", "spread"], rows),
    ].join("\n"),
  );

  for (const x of [a, b, c]) {
    expect(x.created, "exactly the cap succeeds, in total").toBe(cap);
    expect(x.limited).toBe(ATTEMPTS - cap);
    expect(x.other).toEqual([]);
    expect(x.retryAfterOk).toBe(true);
  }
  expect(createdBy.size, "both processes created registrations").toBe(2);
  expect(upstreams.size, "nginx used both server processes").toBe(2);
  expect(d.created).toBe(EMAIL_CAP);
  expect(d.limited).toBe(3);
  expect(d.other).toEqual([]);
});
