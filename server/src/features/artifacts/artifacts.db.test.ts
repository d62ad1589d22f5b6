import { syncArtifactVisibility } from "@atelier/shared/domain/artifacts";
import { addMemberByEmail } from "@atelier/shared/domain/members";
import { now } from "@atelier/shared/domain/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signIn, startTestServer, trpcData, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let ownerEmail: string;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "artifacts");
  ownerEmail = `${uniq("owner")}@example.com`;
  owner = await signIn(srv, ownerEmail);
});
afterAll(async () => {
  await srv.close();
});

function post(b: Browser, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return b.request("/api/artifacts/pages", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function createPage(b: Browser, slug = uniq("page"), extra: Record<string, unknown> = {}) {
  const res = await post(b, { title: "Launch notes", slug, body_markdown: "# Hello\n\nSome **bold** text.", summary: "What shipped", ...extra });
  expect(res.status).toBe(201);
  return {
    slug,
    body: (await res.json()) as { part: { id: string; kind: string; body: string }; collection: { slug: string; kind: string }; artifact_url: string },
  };
}

async function defaultWorkspaceSlug(b: Browser): Promise<string> {
  return (await trpcData<{ defaultWorkspace: string }>(await b.query("me.get"))).defaultWorkspace;
}

const pageCount = () => srv.database.c.pages.countDocuments({});

describe("POST /api/artifacts/pages", () => {
  it("creates a Markdown page in the default workspace and answers 201 with part, collection, artifact_url", async () => {
    const { slug, body } = await createPage(owner);
    expect(body.part).toMatchObject({ kind: "markdown", body: "# Hello\n\nSome **bold** text." });
    expect(body.collection).toMatchObject({ slug: "pages", kind: "pages" });
    expect(body.artifact_url).toBe(`${srv.config.BASE_URL}/a/${slug}`);
    const stored = await srv.database.c.pages.findOne({ slug });
    expect(stored?.version).toBe(1);
    expect(stored?.createdBy).toMatchObject({ kind: "user", label: ownerEmail });
    expect((await srv.database.c.artifacts.findOne({ _id: slug }))?.html).toContain("<strong>bold</strong>");
    expect(await srv.database.c.revisions.countDocuments({ pageId: stored?._id })).toBe(1);
  });

  it("answers 409 when the slug is taken, and writes nothing", async () => {
    const { slug } = await createPage(owner);
    const before = await pageCount();
    const res = await post(owner, { title: "Again", slug, body_markdown: "x" });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "conflict" });
    expect(await pageCount()).toBe(before);
  });

  it("answers 401 without a session, even with a bearer token", async () => {
    const anon = new Browser(srv.url);
    const res = await post(anon, { title: "t", slug: uniq("p"), body_markdown: "x" }, { authorization: "Bearer service_mcp_abcdef" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "unauthorized" });
  });

  it("answers 403 to a cross-site request, and writes nothing", async () => {
    const before = await pageCount();
    const evil = new Browser(srv.url, "https://evil.example");
    evil.cookie = owner.cookie;
    expect((await post(evil, { title: "t", slug: uniq("p"), body_markdown: "x" })).status).toBe(403);
    expect((await post(owner, { title: "t", slug: uniq("p"), body_markdown: "x" }, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(await pageCount()).toBe(before);
  });

  it("answers 404 when the default workspace does not exist", async () => {
    const email = `${uniq("nows")}@example.com`;
    const b = await signIn(srv, email);
    const user = await srv.database.c.users.findOne({ email });
    await srv.database.c.workspaces.deleteOne({ _id: user?.defaultWorkspaceId ?? "" });
    const res = await post(b, { title: "t", slug: uniq("p"), body_markdown: "x" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  const bad: [string, unknown][] = [
    ["title of the wrong type", { title: 5, slug: "ok-slug", body_markdown: "x" }],
    ["missing title", { slug: "ok-slug", body_markdown: "x" }],
    ["missing slug", { title: "t", body_markdown: "x" }],
    ["missing body_markdown", { title: "t", slug: "ok-slug" }],
    ["empty title", { title: "  ", slug: "ok-slug", body_markdown: "x" }],
    ["a slug with /", { title: "t", slug: "a/b", body_markdown: "x" }],
    ["a slug with ..", { title: "t", slug: "..", body_markdown: "x" }],
    ["an upper-case slug", { title: "t", slug: "Hello", body_markdown: "x" }],
    ["a unicode slug", { title: "t", slug: "café", body_markdown: "x" }],
    ["a slug of 65 characters", { title: "t", slug: "a".repeat(65), body_markdown: "x" }],
    ["a NUL in the title", { title: "a\u0000b", slug: "ok-slug", body_markdown: "x" }],
    ["an unknown field", { title: "t", slug: "ok-slug", body_markdown: "x", owner: "me" }],
    ["an array body", [1, 2]],
    ["a body over 1 MiB of Markdown", { title: "t", slug: "ok-slug", body_markdown: "x".repeat(1024 * 1024 + 1) }],
  ];
  it.each(bad)("answers 400 to %s and writes nothing", async (_name, body) => {
    const before = await pageCount();
    const res = await post(owner, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
    expect(await pageCount()).toBe(before);
  });

  it("answers 400 to malformed JSON, a 10 MB body, invalid UTF-8 and a non-JSON content type", async () => {
    const before = await pageCount();
    expect((await post(owner, "{not json")).status).toBe(400);
    expect((await post(owner, JSON.stringify({ title: "t", slug: "big", body_markdown: "x".repeat(10 * 1024 * 1024) }))).status).toBe(400);
    const invalidUtf8 = Buffer.concat([Buffer.from('{"title":"t","slug":"utf","body_markdown":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const r = await owner.request("/api/artifacts/pages", { method: "POST", headers: { "content-type": "application/json" }, body: invalidUtf8 });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ error: "invalid_request", error_description: "The request body is not valid UTF-8." });
    const form = await owner.request("/api/artifacts/pages", { method: "POST", headers: { "content-type": "text/plain" }, body: "title=t" });
    expect(form.status).toBe(400);
    expect(await pageCount()).toBe(before);
  });

  it("gives exactly one 201 and 49 × 409 for fifty concurrent creates of one slug", async () => {
    const slug = uniq("race");
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post(owner, { title: `Racer ${i}`, slug, body_markdown: `body ${i}` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await srv.database.c.pages.countDocuments({ slug })).toBe(1);
    const page = await srv.database.c.pages.findOne({ slug });
    expect(await srv.database.c.revisions.countDocuments({ pageId: page?._id })).toBe(1);
  });
});

describe("GET /a/{slug} and /artifacts/{pageId}", () => {
  it("serves a private page to its owner with the security headers and no caching", async () => {
    const { slug } = await createPage(owner);
    const res = await owner.request(`/a/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/^sandbox /);
    expect(csp).toContain("allow-scripts");
    expect(csp).not.toContain("allow-same-origin");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("etag")).toBeNull();
    const html = await res.text();
    expect(html).toContain("<title>Launch notes</title>");
    expect(html).toContain('<meta name="description" content="What shipped">');
    const page = await srv.database.c.pages.findOne({ slug });
    expect((await owner.request(`/artifacts/${page?._id}`)).status).toBe(200);
  });

  it("answers the same 404 for a private page to a stranger, to nobody, and for a missing page", async () => {
    const { slug } = await createPage(owner);
    const page = await srv.database.c.pages.findOne({ slug });
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    const nobody = new Browser(srv.url);
    const answers = [
      await stranger.request(`/a/${slug}`),
      await nobody.request(`/a/${slug}`),
      await nobody.request(`/artifacts/${page?._id}`),
      await nobody.request("/a/no-such-page-here"),
      await nobody.request("/artifacts/00000000-0000-4000-8000-000000000000"),
      await nobody.request("/artifacts/not-a-uuid"),
      await nobody.request("/a/Not_A_Slug"),
    ];
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    // The page differs only in the address sign-in comes back to (the one asked for), never in what exists.
    expect(new Set(bodies.map((b) => b.replace(/\?next=[^"]*"/, '"'))).size).toBe(1);
    expect(bodies[1]).toBe(bodies[0]);
    expect(answers[0]?.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("serves private pages to members of every role, and public pages to anyone with an ETag and 304", async () => {
    const { slug } = await createPage(owner);
    const wsSlug = await defaultWorkspaceSlug(owner);
    const viewerEmail = `${uniq("viewer")}@example.com`;
    const ownerUser = await srv.database.c.users.findOne({ email: ownerEmail });
    if (!ownerUser) throw new Error("no owner");
    await addMemberByEmail(srv.deps, { kind: "user", user: ownerUser }, { workspace: wsSlug, email: viewerEmail, role: "viewer" });
    const viewer = await signIn(srv, viewerEmail);
    expect((await viewer.request(`/a/${slug}`)).status).toBe(200);

    const nobody = new Browser(srv.url);
    expect((await nobody.request(`/a/${slug}`)).status).toBe(404);
    const pub = await owner.mutation("workspaces.setVisibility", { slug: wsSlug, visibility: "public" });
    expect(pub.status).toBe(200);

    const res = await nobody.request(`/a/${slug}`);
    expect(res.status).toBe(200);
    const etag = res.headers.get("etag");
    // Weak: fetch takes gzip, and the compressed copy's tag is the document's, weak (identity gets it strong).
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect((await nobody.request(`/a/${slug}`, { headers: { "accept-encoding": "identity" } })).headers.get("etag")).toBe(etag?.slice(2));
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1, stale-while-revalidate=1");
    expect(res.headers.get("content-security-policy")).not.toContain("allow-same-origin");
    const again = await nobody.request(`/a/${slug}`, { headers: { "if-none-match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const stale = await nobody.request(`/a/${slug}`, { headers: { "if-none-match": '"other"' } });
    expect(stale.status).toBe(200);

    // An edit changes the ETag.
    const upd = await owner.mutation("pages.update", { slug, body_markdown: "changed" });
    expect(upd.status).toBe(200);
    const changed = await nobody.request(`/a/${slug}`, { headers: { "if-none-match": etag ?? "" } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("changed");

    await owner.mutation("workspaces.setVisibility", { slug: wsSlug, visibility: "private" });
    expect((await nobody.request(`/a/${slug}`)).status).toBe(404);
  });

  it("lets a shared cache keep only public answers: public pages for a second, private pages and share links never, nothing with a cookie", async () => {
    const { slug } = await createPage(owner);
    const wsSlug = await defaultWorkspaceSlug(owner);
    const nobody = new Browser(srv.url);
    const headersOf = (res: Response) => ({
      status: res.status,
      cacheControl: res.headers.get("cache-control"),
      etag: res.headers.get("etag") !== null,
      setCookie: res.headers.get("set-cookie"),
      vary: res.headers.get("vary"),
    });
    const privateAnswer = { status: 200, cacheControl: "private, no-store", etag: false, setCookie: null, vary: null };
    expect(headersOf(await owner.request(`/a/${slug}`))).toEqual(privateAnswer);
    expect(headersOf(await nobody.request(`/a/${slug}`))).toEqual({ ...privateAnswer, status: 404, cacheControl: "no-store" });
    const link = await trpcData<{ url: string }>(await owner.mutation("workspaces.shareLinks.create", { slug: wsSlug, page: slug }));
    expect(headersOf(await nobody.request(new URL(link.url).pathname))).toEqual(privateAnswer);

    await owner.mutation("workspaces.setVisibility", { slug: wsSlug, visibility: "public" });
    // Vary: Accept, since `Accept: text/markdown` asks the same address for the Markdown; and
    // Accept-Encoding, since a client that takes gzip gets the document compressed.
    const publicAnswer = {
      status: 200,
      cacheControl: "public, max-age=0, s-maxage=1, stale-while-revalidate=1",
      etag: true,
      setCookie: null,
      vary: "Accept, Accept-Encoding",
    };
    expect(headersOf(await nobody.request(`/a/${slug}`))).toEqual(publicAnswer);
    expect(headersOf(await nobody.request(`/a/${slug}`, { method: "HEAD" }))).toEqual(publicAnswer);
    // The same bytes whoever asks: the owner's cookie changes nothing in a public answer.
    const asOwner = await owner.request(`/a/${slug}`);
    expect(headersOf(asOwner)).toEqual(publicAnswer);
    expect(await asOwner.text()).toBe(await (await nobody.request(`/a/${slug}`)).text());
    // A share link stays private even to a public page: its secret is the credential.
    expect(headersOf(await nobody.request(new URL(link.url).pathname))).toEqual(privateAnswer);
  });

  it("hides a hidden sandbox's pages from everyone, even when public", async () => {
    const email = `${uniq("sandboxed")}@example.com`;
    const b = await signIn(srv, email);
    const { slug } = await createPage(b);
    const wsSlug = await defaultWorkspaceSlug(b);
    await b.mutation("workspaces.setVisibility", { slug: wsSlug, visibility: "public" });
    expect((await new Browser(srv.url).request(`/a/${slug}`)).status).toBe(200);
    // What the sweeper's expiry step does to a sandbox: hide it, then copy that to its pages.
    await srv.database.c.workspaces.updateOne(
      { slug: wsSlug },
      { $set: { sandbox: { registrationId: "reg_x", state: "expired", hiddenAt: now(), deleteAfter: null } } },
    );
    const hidden = await srv.database.c.workspaces.findOne({ slug: wsSlug });
    if (hidden) await syncArtifactVisibility(srv.deps, hidden);
    expect((await new Browser(srv.url).request(`/a/${slug}`)).status).toBe(404);
    expect((await b.request(`/a/${slug}`)).status).toBe(404);
  });

  it("renders an HTML page as given, under the sandbox policy", async () => {
    const slug = uniq("html");
    const given = "<!doctype html><html><body><script>fetch('/api/trpc/me.get')</script><p>mine</p></body></html>";
    const res = await owner.mutation("pages.create", { slug, title: "Raw", body_html: given });
    expect(res.status).toBe(200);
    const got = await owner.request(`/a/${slug}`);
    expect(await got.text()).toBe(given);
    expect(got.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts/);
  });
});

describe("GET /b/…", () => {
  it("redirects with 308 to the app", async () => {
    const nobody = new Browser(srv.url);
    const a = await nobody.request("/b/team-notes");
    expect(a.status).toBe(308);
    expect(a.headers.get("location")).toBe("/app/buckets/team-notes");
    const b = await nobody.request("/b/team-notes/launch-plan");
    expect(b.status).toBe(308);
    expect(b.headers.get("location")).toBe("/app/buckets/team-notes/launch-plan");
  });
});

describe("updates with expected_version", () => {
  it("accepts one of two concurrent updates from the same version and records exactly the accepted versions", async () => {
    const { slug } = await createPage(owner);
    const results = await Promise.all(
      ["first edit", "second edit"].map((text) => owner.mutation("pages.update", { slug, body_markdown: text, expected_version: 1 })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409);
    const loserBody = (await loser?.json()) as { error: { data: { appCode: string } } };
    expect(loserBody.error.data.appCode).toBe("version_conflict");

    const history = await trpcData<{ version: number; actor: { kind: string; label: string } }[]>(await owner.query("pages.history", { slug }));
    expect(history.map((h) => h.version)).toEqual([2, 1]);
    expect(history.every((h) => h.actor.kind === "user" && h.actor.label === ownerEmail)).toBe(true);
    const page = await trpcData<{ version: number; parts: { body: string }[] }>(await owner.query("pages.get", { slug }));
    expect(page.version).toBe(2);
    expect(["first edit", "second edit"]).toContain(page.parts[0]?.body);
  });

  it("refuses a stale expected_version without changing the page", async () => {
    const { slug } = await createPage(owner);
    expect((await owner.mutation("pages.update", { slug, title: "v2", expected_version: 1 })).status).toBe(200);
    const stale = await owner.mutation("pages.update", { slug, title: "lost?", expected_version: 1 });
    expect(stale.status).toBe(409);
    const page = await trpcData<{ version: number; title: string }>(await owner.query("pages.get", { slug }));
    expect(page).toMatchObject({ version: 2, title: "v2" });
  });

  it("edits part of a page on tRPC, and answers a stale edit with the same coded details as MCP: current version, base and diff", async () => {
    const { slug } = await createPage(owner);
    const edited = await trpcData<{ version: number; diff: string }>(
      await owner.mutation("pages.edit", { slug, expected_version: 1, edits: [{ op: "replace", find: "Some **bold** text.", replace: "Some text." }] }),
    );
    expect(edited.version).toBe(2);
    expect(edited.diff).toContain("+Some text.");
    const stale = await owner.mutation("pages.edit", { slug, expected_version: 1, edits: [{ op: "append_to_section", heading: "Hello", text: "More." }] });
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { error: { data: { appCode: string; currentVersion: number; details: Record<string, unknown> } } };
    expect(body.error.data).toMatchObject({
      appCode: "version_conflict",
      currentVersion: 2,
      details: { current_version: 2, base_version: 1, diff_truncated: false },
    });
    expect(body.error.data.details.diff).toContain("-Some **bold** text.");
    const diff = await trpcData<{ from: number; to: number; diff: string }>(await owner.query("pages.diff", { slug, from: 1 }));
    expect(diff).toMatchObject({ from: 1, to: 2, diff: body.error.data.details.diff });
  });

  it("lets a viewer read but not edit", async () => {
    const { slug } = await createPage(owner);
    const wsSlug = await defaultWorkspaceSlug(owner);
    const email = `${uniq("ro")}@example.com`;
    const ownerUser = await srv.database.c.users.findOne({ email: ownerEmail });
    if (!ownerUser) throw new Error("no owner");
    await addMemberByEmail(srv.deps, { kind: "user", user: ownerUser }, { workspace: wsSlug, email, role: "viewer" });
    const viewer = await signIn(srv, email);
    expect((await viewer.query("pages.get", { slug })).status).toBe(200);
    const res = await viewer.mutation("pages.update", { slug, title: "nope" });
    expect(res.status).toBe(403);
    expect((await trpcData<{ title: string }>(await owner.query("pages.get", { slug }))).title).toBe("Launch notes");
  });
});
