// Issue 23, items 1, 2, 3, 9 and 10 (the server's part): share links that outlived their
// maker's access, invitations and sign-in codes as a mail cannon, share-link paths in other
// letter cases. Each test here failed before its fix (docs/reliability.md, "The abuse corpus").
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { advanceClock, nowMs, resetClock } from "@atelier/shared/domain/clock";
import { addMemberByEmail } from "@atelier/shared/domain/members";
import { createShareLink } from "@atelier/shared/domain/share-links";
import { authenticateBearer } from "@atelier/shared/domain/tokens";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@atelier/shared/devtools/embedded-db";
import { renderNginxConf } from "../../../e2e/src/nginx";
import { connect, registerPublicClient } from "../features/oauth/oauth-testing";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

type Link = { link_id: string; url: string; created_by: string; created_at: string; last_used_at: string | null; expires_at: string | null };

describe("item 1: a share link lives no longer than its maker's right to share", () => {
  let srv: TestServer;
  let owner: Browser;
  let coOwner: Browser;
  let coOwnerEmail: string;
  let coOwnerId: string;

  beforeAll(async () => {
    srv = await startTestServer({}, "abuselinks");
    owner = await signIn(srv, `${uniq("owner")}@example.com`);
    coOwnerEmail = `${uniq("coowner")}@example.com`;
    coOwner = await signIn(srv, coOwnerEmail);
    coOwnerId = (await trpcData<{ id: string }>(await coOwner.query("me.get"))).id;
  });
  afterAll(async () => {
    await srv.close();
  });
  afterEach(() => resetClock());

  async function sharedWorkspace(): Promise<string> {
    const slug = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug, name: "Private" }));
    await trpcData(await owner.mutation("pages.create", { slug: uniq("p"), title: "Secret plans", body_markdown: "x", workspace: slug }));
    await trpcData(await owner.mutation("workspaces.members.add", { slug, email: coOwnerEmail, role: "owner" }));
    return slug;
  }
  const opens = async (url: string) => (await new Browser(srv.url).request(new URL(url).pathname)).status;
  const listed = async (slug: string) => (await trpcData<Link[]>(await owner.query("workspaces.shareLinks.list", { slug }))).map((l) => l.link_id);

  it("a co-owner removed: their links stop, stay stopped when they are added back, and leave the owner's list", async () => {
    const ws = await sharedWorkspace();
    const link = await trpcData<Link>(await coOwner.mutation("workspaces.shareLinks.create", { slug: ws }));
    const ownLink = await trpcData<Link>(await owner.mutation("workspaces.shareLinks.create", { slug: ws }));
    expect(await opens(link.url)).toBe(200);
    await trpcData(await owner.mutation("workspaces.members.remove", { slug: ws, user_id: coOwnerId }));
    expect(await opens(link.url)).toBe(404);
    expect(await listed(ws)).toEqual([ownLink.link_id]);
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email: coOwnerEmail, role: "owner" }));
    expect(await opens(link.url)).toBe(404);
    // The owner's own link is untouched.
    expect(await opens(ownLink.url)).toBe(200);
  });

  it("a co-owner made an editor: their links stop", async () => {
    const ws = await sharedWorkspace();
    const link = await trpcData<Link>(await coOwner.mutation("workspaces.shareLinks.create", { slug: ws }));
    await trpcData(await owner.mutation("workspaces.members.setRole", { slug: ws, user_id: coOwnerId, role: "editor" }));
    expect(await opens(link.url)).toBe(404);
    expect(await listed(ws)).toEqual([]);
  });

  it("an agent token revoked, or cut off the workspace: its links stop", async () => {
    const ws = await sharedWorkspace();
    const issue = async (label: string) => {
      const tok = await trpcData<{ token_id: string; credential: string }>(await coOwner.mutation("tokens.create", { label, scopes: ["mcp:write"] }));
      return { id: tok.token_id, principal: { kind: "token" as const, token: await authenticateBearer(srv.deps, tok.credential) } };
    };
    const revoked = await issue("Revoked bot");
    const cut = await issue("Cut-off bot");
    // What the MCP tool create_share_link calls.
    const byRevoked = await createShareLink(srv.deps, revoked.principal, { workspace: ws });
    const byCut = await createShareLink(srv.deps, cut.principal, { workspace: ws });
    expect(await opens(byRevoked.url)).toBe(200);
    expect(await opens(byCut.url)).toBe(200);
    await trpcData(await coOwner.mutation("tokens.revoke", { token_id: revoked.id }));
    expect(await opens(byRevoked.url)).toBe(404);
    await trpcData(await owner.mutation("workspaces.blockAgent", { slug: ws, token_id: cut.id }));
    expect(await opens(byCut.url)).toBe(404);
    await trpcData(await owner.mutation("workspaces.unblockAgent", { slug: ws, token_id: cut.id }));
    expect(await opens(byCut.url)).toBe(404);
  });

  it("an OAuth grant revoked in the app: the links its agent made stop", async () => {
    const ws = await sharedWorkspace();
    const redirect = "http://127.0.0.1:53682/cb";
    const client = await registerPublicClient(srv, redirect, "Connected agent");
    const tokens = await connect(srv, coOwner, client, redirect);
    const token = await authenticateBearer(srv.deps, tokens.access_token);
    const link = await createShareLink(srv.deps, { kind: "token", token }, { workspace: ws });
    expect(await opens(link.url)).toBe(200);
    await trpcData(await coOwner.mutation("tokens.revoke", { token_id: token._id }));
    expect(await opens(link.url)).toBe(404);
  });

  it("links end on their end date (30 days unless chosen, or none), and the list says who made each and when it was last used", async () => {
    const ws = await sharedWorkspace();
    const byDefault = await trpcData<Link>(await owner.mutation("workspaces.shareLinks.create", { slug: ws }));
    const oneDay = await trpcData<Link>(await owner.mutation("workspaces.shareLinks.create", { slug: ws, expires_in_days: 1 }));
    const never = await trpcData<Link>(await owner.mutation("workspaces.shareLinks.create", { slug: ws, expires_in_days: null }));
    const days = (l: Link) => Math.round((Date.parse(l.expires_at ?? "") - Date.parse(l.created_at)) / 86_400_000);
    expect(days(byDefault)).toBe(30);
    expect(days(oneDay)).toBe(1);
    expect(never.expires_at).toBeNull();
    expect((await owner.mutation("workspaces.shareLinks.create", { slug: ws, expires_in_days: 0 })).status).toBe(400);

    expect(await opens(oneDay.url)).toBe(200);
    const list = await trpcData<Link[]>(await owner.query("workspaces.shareLinks.list", { slug: ws }));
    const row = list.find((l) => l.link_id === oneDay.link_id);
    expect(row?.created_by).toMatch(/^owner-.*@example\.com$/);
    expect(row?.last_used_at).not.toBeNull();

    advanceClock(86_400 + 60);
    expect(await opens(oneDay.url)).toBe(404);
    expect(await opens(byDefault.url)).toBe(200);
    expect((await listed(ws)).sort()).toEqual([byDefault.link_id, never.link_id].sort());
    advanceClock(30 * 86_400);
    expect(await opens(byDefault.url)).toBe(404);
    expect(await opens(never.url)).toBe(200);
  });
});

/** A mail's quoted-printable text, decoded. */
function decodeQp(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}
const subjectOf = (raw: string) => /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";

/** Moves the test clock to a minute past the start of a day, so no hourly or daily window ends mid-test. */
function startOfWindows(): void {
  resetClock();
  const day = 86_400_000;
  advanceClock((day - (nowMs() % day) + 60_000) / 1000);
}

describe("item 2: invitations are not a mail cannon or a phishing channel", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer(
      { INVITES_PER_INVITER_PER_HOUR: "4", INVITES_PER_INVITER_PER_DAY: "6", INVITES_PER_WORKSPACE_PER_HOUR: "3", INVITES_PER_WORKSPACE_PER_DAY: "5" },
      "abuseinvites",
    );
  });
  afterAll(async () => {
    await srv.close();
  });
  afterEach(() => resetClock());

  const invite = (b: Browser, slug: string, email: string, role = "editor") => b.mutation("workspaces.members.add", { slug, email, role });
  async function workspaceOf(b: Browser, name = "Notes"): Promise<string> {
    const slug = uniq("ws");
    await trpcData(await b.mutation("workspaces.create", { slug, name }));
    return slug;
  }
  /** A refused invitation left no account, no membership and no mail for its address. */
  async function leftNothing(slug: string, email: string, mailsBefore: number): Promise<void> {
    expect(await srv.database.c.users.countDocuments({ email })).toBe(0);
    const ws = await srv.database.c.workspaces.findOne({ slug });
    expect(ws?.members.length).toBeGreaterThan(0);
    expect(await srv.database.c.events.countDocuments({ workspaceId: ws?._id ?? "", type: "member.added", "target.label": email })).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(srv.smtp.messages.slice(mailsBefore).filter((m) => m.to.includes(email))).toEqual([]);
  }

  it("caps invitations per workspace and per inviter, per hour and per day; a refusal writes and sends nothing", async () => {
    startOfWindows();
    const inviter = await signIn(srv, `${uniq("inviter")}@example.com`);
    const ws1 = await workspaceOf(inviter);
    const ws2 = await workspaceOf(inviter);
    for (let i = 0; i < 3; i++) expect((await invite(inviter, ws1, `${uniq("a")}@example.com`)).status).toBe(200);
    // The workspace's hourly cap (3).
    let mails = srv.smtp.messages.length;
    let email = `${uniq("over-ws")}@example.com`;
    let res = await invite(inviter, ws1, email);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.text()).toContain("This workspace has invited too many people this hour");
    await leftNothing(ws1, email, mails);
    // Changing a member's role is not an invitation.
    const members = await trpcData<{ user_id: string; role: string }[]>(await inviter.query("workspaces.members.list", { slug: ws1 }));
    const editor = members.find((m) => m.role === "editor");
    expect((await inviter.mutation("workspaces.members.setRole", { slug: ws1, user_id: editor?.user_id, role: "viewer" })).status).toBe(200);

    // The inviter's hourly cap (4), across workspaces: the refused one above counted too.
    mails = srv.smtp.messages.length;
    email = `${uniq("over-inviter")}@example.com`;
    res = await invite(inviter, ws2, email);
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("You have invited too many people this hour");
    await leftNothing(ws2, email, mails);

    // An hour later, the inviter's daily cap (6) still holds: 4 counted so far (a refusal by the hourly cap counts no further).
    advanceClock(3600);
    for (let i = 0; i < 2; i++) expect((await invite(inviter, ws2, `${uniq("b")}@example.com`)).status).toBe(200);
    mails = srv.smtp.messages.length;
    email = `${uniq("over-day")}@example.com`;
    res = await invite(inviter, ws2, email);
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("You have invited too many people today");
    await leftNothing(ws2, email, mails);
  });

  it("caps invitations in all, per hour", async () => {
    const all = await startTestServer({ INVITES_GLOBAL_PER_HOUR: "2" }, "abuseinvitesall");
    try {
      startOfWindows();
      const a = await signIn(all, `${uniq("a")}@example.com`);
      const b = await signIn(all, `${uniq("b")}@example.com`);
      const wsA = uniq("ws");
      const wsB = uniq("ws");
      await trpcData(await a.mutation("workspaces.create", { slug: wsA, name: "A" }));
      await trpcData(await b.mutation("workspaces.create", { slug: wsB, name: "B" }));
      expect((await a.mutation("workspaces.members.add", { slug: wsA, email: `${uniq("x")}@example.com`, role: "viewer" })).status).toBe(200);
      expect((await b.mutation("workspaces.members.add", { slug: wsB, email: `${uniq("y")}@example.com`, role: "viewer" })).status).toBe(200);
      const res = await b.mutation("workspaces.members.add", { slug: wsB, email: `${uniq("z")}@example.com`, role: "viewer" });
      expect(res.status).toBe(429);
      expect(await res.text()).toContain("too many invitations");
    } finally {
      await all.close();
    }
  });

  it("keeps what the inviter chose out of the subject and inert in the body, and names the inviter's verified address", async () => {
    startOfWindows();
    const inviterEmail = `${uniq("sender")}@example.com`;
    const inviter = await signIn(srv, inviterEmail);
    const ws = await workspaceOf(inviter, "URGENT: verify at https://evil.example/login \u202Emoc.live\u202C now");
    const to = `${uniq("target")}@example.com`;
    let before = srv.smtp.messages.length;
    expect((await invite(inviter, ws, to)).status).toBe(200);
    let raw = (await srv.smtp.waitFor(to, before)).raw;
    let body = decodeQp(raw);
    expect(subjectOf(raw)).toBe("You were added to a workspace on Atelier");
    expect(body).toContain(inviterEmail);
    expect(body).toContain("verify at https[:]//evil[.]example/login");
    expect(body).not.toMatch(/evil\.example/);
    expect(body).not.toContain("\u202E");

    // An agent's label: out of the subject, inert in the body, its person's address named.
    const tok = await trpcData<{ credential: string }>(
      await inviter.mutation("tokens.create", { label: "Security team at https://evil.example", scopes: ["mcp:write"] }),
    );
    const token = await authenticateBearer(srv.deps, tok.credential);
    const to2 = `${uniq("target2")}@example.com`;
    before = srv.smtp.messages.length;
    // What the MCP tool add_collaborator calls.
    await addMemberByEmail(srv.deps, { kind: "token", token }, { workspace: ws, email: to2, role: "viewer" });
    raw = (await srv.smtp.waitFor(to2, before)).raw;
    body = decodeQp(raw);
    expect(subjectOf(raw)).toBe("You were added to a workspace on Atelier");
    expect(body).toContain(`An AI agent (“Security team at https[:]//evil[.]example”) acting for ${inviterEmail}`);
    expect(body).not.toMatch(/evil\.example/);
  });
});

describe("item 3: sign-in codes are counted per requester and in all, each call of a batch", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ SIGNIN_CODES_PER_IP_PER_HOUR: "3", SIGNIN_CODES_GLOBAL_PER_HOUR: "5" }, "abusecodes");
  });
  afterAll(async () => {
    await srv.close();
  });
  afterEach(() => resetClock());

  /** One tRPC batch of `auth.requestCode` calls, one per address, from `ip` (the test client is a trusted proxy: loopback). */
  async function batch(emails: string[], ip: string): Promise<number[]> {
    const body = Object.fromEntries(emails.map((email, i) => [String(i), { email }]));
    const res = await fetch(`${srv.url}/api/trpc/${emails.map(() => "auth.requestCode").join(",")}?batch=1`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: srv.url, "x-forwarded-for": ip },
      body: JSON.stringify(body),
    });
    const items = (await res.json()) as ({ result: unknown } | { error: { data: { httpStatus: number } } })[];
    return items.map((r) => ("result" in r ? 200 : r.error.data.httpStatus));
  }

  it("a batch of ten codes to ten addresses from one requester sends only the requester's hourly allowance", async () => {
    startOfWindows();
    const before = srv.smtp.messages.length;
    const emails = Array.from({ length: 10 }, () => `${uniq("many")}@example.com`);
    const statuses = await batch(emails, "203.0.113.7");
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.smtp.messages.length - before).toBe(3);
    expect(await srv.database.c.loginCodes.countDocuments({ purpose: "sign_in", subject: { $in: emails } })).toBe(3);
    // The next call from there is refused too; another requester still gets its codes, until the global cap (5).
    expect(await batch([`${uniq("again")}@example.com`], "203.0.113.7")).toEqual([429]);
    // (A batch's calls run side by side: which of them is refused is not fixed, how many is.)
    const other = await batch([`${uniq("other")}@example.com`, `${uniq("other")}@example.com`, `${uniq("other")}@example.com`], "198.51.100.9");
    expect(other.sort()).toEqual([200, 200, 429]);
    expect(await batch([`${uniq("third")}@example.com`], "192.0.2.44")).toEqual([429]);
    expect(srv.smtp.messages.length - before).toBe(5);
  });
});

describe("item 9: a share link in another letter case or behind extra slashes is refused and never logged", () => {
  let srv: TestServer;
  let nginx: ChildProcess | null = null;
  let nginxUrl = "";
  let accessLog = "";
  let prefix = "";
  beforeAll(async () => {
    srv = await startTestServer({}, "abusecase");
    // The shipped deploy/nginx.conf in front of this server (both upstream slots), as the e2e stack runs it.
    prefix = mkdtempSync(path.join(tmpdir(), "atelier-nginx-"));
    const [port, upstream] = [await freePort(), Number(new URL(srv.url).port)];
    const conf = renderNginxConf({
      template: path.resolve(import.meta.dirname, "../../../deploy/nginx.conf"),
      prefix,
      port,
      serverPorts: [upstream, upstream],
      sidecarPorts: [upstream, upstream],
      viewLog: path.join(prefix, "views.log"),
    });
    accessLog = conf.accessLog;
    nginx = spawn(existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx", ["-p", prefix, "-c", conf.confFile, "-g", "daemon off;"], { stdio: "ignore" });
    nginxUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${nginxUrl}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await srv.close();
    rmSync(prefix, { recursive: true, force: true });
  });

  /** GET exactly this path (fetch would tidy `//s/…`), through `base`. */
  function rawGet(base: string, pathname: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const u = new URL(base);
      const req = httpRequest({ host: u.hostname, port: u.port, path: pathname, method: "GET" }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("answers 404 for /S/, //s/ and /%73/ forms, directly and through nginx, and neither log holds the secret", async () => {
    const owner = await signIn(srv, `${uniq("owner")}@example.com`);
    const ws = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug: ws, name: "Private" }));
    const link = await trpcData<{ url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: ws }));
    const secret = new URL(link.url).pathname.split("/")[2] ?? "";
    expect(secret.length).toBeGreaterThan(20);
    for (const base of [srv.url, nginxUrl]) {
      expect(await rawGet(base, `/s/${secret}`), base).toBe(200);
      for (const variant of [`/S/${secret}`, `//s/${secret}`, `//S/${secret}/x`, `/%73/${secret}`, `/%53/${secret}`]) {
        expect(await rawGet(base, variant), `${base}${variant}`).toBe(404);
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    const serverLog = srv.logLines.join("");
    expect(serverLog).toContain("/s/[redacted]");
    expect(serverLog).not.toContain(secret);
    // nginx writes its access log in 64 KB blocks, at least once a second (deploy/nginx.conf): wait for the six lines.
    const redacted = () =>
      readFileSync(accessLog, "utf8")
        .split("\n")
        .filter((l) => l.includes("[redacted]")).length;
    for (let t = 0; redacted() < 6 && t < 100; t++) await new Promise((r) => setTimeout(r, 50));
    const nginxLog = readFileSync(accessLog, "utf8");
    expect(nginxLog).toContain("/s/[redacted]");
    expect(nginxLog).not.toContain(secret);
  });
});

describe("item 10: the server's part", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ OAUTH_ALLOW_LOOPBACK_CLIENTS: "false" }, "abuseitem10");
  });
  afterAll(async () => {
    await srv.close();
  });

  it("a client document on an IPv6 address that carries a loopback or private IPv4 one is never fetched", async () => {
    const browser = new Browser(srv.url);
    for (const host of ["[::7f00:1]", "[::127.0.0.1]", "[::a00:8]", "[::ffff:7f00:1]", "[::ffff:0:7f00:1]", "[64:ff9b:1::7f00:1]"]) {
      const params = new URLSearchParams({
        response_type: "code",
        client_id: `https://${host}:9/client.json`,
        redirect_uri: "http://127.0.0.1:53682/cb",
        code_challenge: "x".repeat(43),
        code_challenge_method: "S256",
        state: "s",
      });
      const res = await browser.request(`/oauth/authorize?${params}`, { headers: { accept: "application/json" } });
      expect(res.status, host).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body, host).toMatchObject({ error: "invalid_client", error_description: expect.stringContaining("loopback or private address") });
    }
  });

  it("removeColumn without expected_values is refused and drops nothing", async () => {
    const owner = await signIn(srv, `${uniq("owner")}@example.com`);
    const ws = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug: ws, name: "T" }));
    const ref = { workspace: ws, collection: "tasks" };
    await trpcData(
      await owner.mutation("collections.create", {
        workspace: ws,
        slug: "tasks",
        name: "Tasks",
        kind: "table",
        columns: [
          { name: "title", type: "text" },
          { name: "notes", type: "text" },
        ],
      }),
    );
    await trpcData(await owner.mutation("rows.insert", { ...ref, rows: [{ title: "a", notes: "keep me" }] }));
    const res = await owner.mutation("collections.removeColumn", { ...ref, column: "notes" });
    expect(res.status).toBe(400);
    const table = await srv.database.c.collections.findOne({ slug: "tasks" });
    expect(table?.columns.map((c) => c.name)).toEqual(["title", "notes"]);
    expect((await srv.database.c.rows.findOne({ collectionId: table?._id ?? "" }))?.values).toMatchObject({ notes: "keep me" });
    // With the count the person was shown, it goes.
    expect((await owner.mutation("collections.removeColumn", { ...ref, column: "notes", expected_values: 1 })).status).toBe(200);
  });
});
