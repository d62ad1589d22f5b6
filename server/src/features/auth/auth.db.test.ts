import { advanceClock, resetClock } from "@atelier/shared/domain/clock";
import { extractCode } from "@atelier/shared/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Browser, startTestServer, type TestServer } from "../../testing";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ OTP_SENDS_PER_EMAIL_PER_HOUR: "5" }, "auth");
});
afterAll(async () => {
  await srv.close();
});
afterEach(() => resetClock());

let n = 0;
const freshEmail = () => `person${++n}.${Date.now()}@example.com`;

async function requestCode(b: Browser, email: string): Promise<string> {
  const before = srv.smtp.messages.length;
  const res = await b.mutation("auth.requestCode", { email });
  expect(res.status).toBe(200);
  return extractCode((await srv.smtp.waitFor(email, before)).raw);
}

describe("passwordless sign-in over HTTP", () => {
  it("signs in with the mailed code, keeps the session, and signs out", async () => {
    const b = new Browser(srv.url);
    const email = freshEmail();
    const before = srv.smtp.messages.length;
    const req = await b.mutation("auth.requestCode", { email: `  ${email.toUpperCase()} ` });
    expect(req.status).toBe(200);
    const body = (await req.json()) as { result: { data: { sent: boolean; expiresAt: string } } };
    expect(body.result.data.sent).toBe(true);

    const mail = await srv.smtp.waitFor(email, before);
    expect(mail.raw).toMatch(/Subject: Your Atelier sign-in code/);
    expect(mail.raw).toMatch(/expires in 10 minutes/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    const code = extractCode(mail.raw);

    const verify = await b.mutation("auth.verifyCode", { email, code });
    expect(verify.status).toBe(200);
    const setCookie = verify.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/atelier_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const verified = (await verify.json()) as { result: { data: { user: { id: string; email: string; defaultWorkspace: string } } } };
    expect(verified.result.data.user.email).toBe(email);

    const me = await b.query("me.get");
    expect(me.status).toBe(200);
    const meBody = (await me.json()) as { result: { data: { id: string; email: string; defaultWorkspace: string } } };
    expect(meBody.result.data).toMatchObject({ email, id: verified.result.data.user.id });
    expect(meBody.result.data.defaultWorkspace).toMatch(/^person/);

    // The account is confirmed and owns its default workspace.
    const user = await srv.database.c.users.findOne({ email });
    expect(user?.confirmedAt).toBeInstanceOf(Date);
    const ws = await srv.database.c.workspaces.findOne({ _id: user?.defaultWorkspaceId ?? "" });
    expect(ws?.members).toEqual([expect.objectContaining({ userId: user?._id, role: "owner" })]);
    expect(await srv.database.c.collections.countDocuments({ workspaceId: ws?._id, kind: "pages" })).toBe(1);

    const oldCookie = b.cookie;
    expect((await b.mutation("auth.signOut")).status).toBe(200);
    const stale = new Browser(srv.url);
    stale.cookie = oldCookie;
    const after = await stale.query("me.get");
    expect(after.status).toBe(401);
    expect(await srv.database.c.sessions.countDocuments({ userId: user?._id })).toBe(0);
  });

  it("signing in again reuses the account and its workspace", async () => {
    const email = freshEmail();
    for (let i = 0; i < 2; i++) {
      const b = new Browser(srv.url);
      const code = await requestCode(b, email);
      expect((await b.mutation("auth.verifyCode", { email, code })).status).toBe(200);
    }
    expect(await srv.database.c.users.countDocuments({ email })).toBe(1);
    const user = await srv.database.c.users.findOne({ email });
    expect(await srv.database.c.workspaces.countDocuments({ ownerId: user?._id })).toBe(1);
  });

  it("refuses a wrong code without opening a session", async () => {
    const b = new Browser(srv.url);
    const email = freshEmail();
    const code = await requestCode(b, email);
    const wrong = code === "000000" ? "111111" : "000000";
    const res = await b.mutation("auth.verifyCode", { email, code: wrong });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { data: { appCode: string } } };
    expect(body.error.data.appCode).toBe("invalid_otp");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await srv.database.c.users.countDocuments({ email })).toBe(0);
    expect((await b.query("me.get")).status).toBe(401);
  });

  it("refuses an expired code", async () => {
    const b = new Browser(srv.url);
    const email = freshEmail();
    const code = await requestCode(b, email);
    advanceClock(601);
    const res = await b.mutation("auth.verifyCode", { email, code });
    expect(res.status).toBe(400);
    expect(await srv.database.c.users.countDocuments({ email })).toBe(0);
  });

  it("accepts a code once only", async () => {
    const email = freshEmail();
    const code = await requestCode(new Browser(srv.url), email);
    expect((await new Browser(srv.url).mutation("auth.verifyCode", { email, code })).status).toBe(200);
    const again = new Browser(srv.url);
    expect((await again.mutation("auth.verifyCode", { email, code })).status).toBe(400);
    expect(again.cookie).toBe("");
  });

  it("lets exactly one of two simultaneous verifications of one code win", async () => {
    const email = freshEmail();
    const code = await requestCode(new Browser(srv.url), email);
    const results = await Promise.all([0, 1, 2, 3].map(() => new Browser(srv.url).mutation("auth.verifyCode", { email, code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
  });

  it("burns the code after five wrong tries: the right code fails on the sixth", async () => {
    const b = new Browser(srv.url);
    const email = freshEmail();
    const code = await requestCode(b, email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await b.mutation("auth.verifyCode", { email, code: wrong })).status).toBe(400);
    const sixth = await b.mutation("auth.verifyCode", { email, code });
    expect(sixth.status).toBe(400);
    expect(b.cookie).toBe("");
    // A new code works again.
    const fresh = await requestCode(b, email);
    expect((await b.mutation("auth.verifyCode", { email, code: fresh })).status).toBe(200);
  });

  it("limits codes sent to one address per hour with 429 and Retry-After", async () => {
    const b = new Browser(srv.url);
    const email = freshEmail();
    for (let i = 0; i < 5; i++) expect((await b.mutation("auth.requestCode", { email })).status).toBe(200);
    const before = srv.smtp.messages.length;
    const sixth = await b.mutation("auth.requestCode", { email });
    expect(sixth.status).toBe(429);
    const retryAfter = Number(sixth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const body = (await sixth.json()) as { error: { data: { appCode: string } } };
    expect(body.error.data.appCode).toBe("rate_limited");
    await new Promise((r) => setTimeout(r, 100));
    expect(srv.smtp.messages.length).toBe(before);
    // Another address is not affected.
    expect((await b.mutation("auth.requestCode", { email: freshEmail() })).status).toBe(200);
  });

  it("refuses cross-site POSTs with 403 and sends nothing", async () => {
    const email = freshEmail();
    const before = srv.smtp.messages.length;
    const evil = new Browser(srv.url, "https://evil.example");
    expect((await evil.mutation("auth.requestCode", { email })).status).toBe(403);
    const fetchMeta = await new Browser(srv.url).mutation("auth.requestCode", { email }, { "sec-fetch-site": "cross-site" });
    expect(fetchMeta.status).toBe(403);
    expect(await fetchMeta.json()).toMatchObject({ error: "forbidden" });
    await new Promise((r) => setTimeout(r, 100));
    expect(srv.smtp.messages.length).toBe(before);
    expect(await srv.database.c.loginCodes.countDocuments({ subject: email })).toBe(0);
  });

  it.each([
    [{ email: "not-an-address" }, "email"],
    [{ email: 42 }, "email"],
    [{}, "email"],
    [{ email: `${"a".repeat(250)}@example.com` }, "email"],
  ])("answers malformed input %j with 400 naming the field, writing nothing", async (input, field) => {
    const before = await srv.database.c.loginCodes.countDocuments({});
    const res = await new Browser(srv.url).mutation("auth.requestCode", input);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; data: { appCode: string } } };
    expect(body.error.message).toMatch(new RegExp(`^${field}: `));
    expect(body.error.data.appCode).toBe("invalid_request");
    expect(await srv.database.c.loginCodes.countDocuments({})).toBe(before);
  });

  it("answers a code that is not six digits with 400 naming the field", async () => {
    const res = await new Browser(srv.url).mutation("auth.verifyCode", { email: freshEmail(), code: "12ab" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^code: must be six digits/);
  });

  it("answers a body that is not JSON with 400", async () => {
    const res = await new Browser(srv.url).request("/api/trpc/auth.requestCode", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
  });

  it("ends every session with sign-out-everywhere", async () => {
    const email = freshEmail();
    const browsers = [new Browser(srv.url), new Browser(srv.url)];
    for (const b of browsers) {
      const code = await requestCode(b, email);
      expect((await b.mutation("auth.verifyCode", { email, code })).status).toBe(200);
    }
    const first = browsers[0];
    const second = browsers[1];
    if (!first || !second) throw new Error("unreachable");
    const out = await first.mutation("auth.signOutEverywhere");
    expect(((await out.json()) as { result: { data: { sessionsEnded: number } } }).result.data.sessionsEnded).toBe(2);
    expect((await second.query("me.get")).status).toBe(401);
  });

  it("keeps codes and session ids out of the database and the logs", async () => {
    const b = new Browser(srv.url);
    const email = freshEmail();
    const code = await requestCode(b, email);
    expect((await b.mutation("auth.verifyCode", { email, code })).status).toBe(200);
    const sessionId = decodeURIComponent(b.cookie.split("=")[1] ?? "");
    expect(sessionId.length).toBeGreaterThan(30);
    expect((await b.query("me.get")).status).toBe(200);

    const dump: string[] = [];
    for (const name of await srv.database.db.listCollections().toArray()) {
      dump.push(JSON.stringify(await srv.database.db.collection(name.name).find().toArray()));
    }
    const all = dump.join("\n");
    expect(all).toContain(email);
    expect(all).not.toContain(sessionId);
    expect(all).not.toMatch(new RegExp(`\\b${code}\\b`));
    const logs = srv.logLines.join("");
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(sessionId);
    expect(logs).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});
