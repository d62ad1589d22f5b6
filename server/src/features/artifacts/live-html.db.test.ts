// HTML artifacts that update themselves (docs/decisions.md#html-artifacts-and-live-updates-issue-25):
// a public page that is exactly one HTML part, opened as a page (Sec-Fetch-Dest: document),
// is answered with our small wrapper (its own strict policy, a sandboxed frame of the page,
// the page stream); every other request, the frame's included, gets the author's bytes as
// given under the sandbox policy, through the lean path too; composed pages are unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startTestServer, trpcData, type Browser, type TestServer } from "../../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

describe("HTML artifacts opened as a page", () => {
  let srv: TestServer;
  let owner: Browser;
  let ws: string;
  const given = '<!doctype html><html><head><title>Raw "one"</title></head><body><script>document.title="x"</script><p>mine</p></body></html>';

  beforeAll(async () => {
    srv = await startTestServer({}, "livehtml");
    owner = await signIn(srv, `${uniq("owner")}@example.com`);
    ws = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug: ws, name: "W" }));
    await trpcData(await owner.mutation("workspaces.setVisibility", { slug: ws, visibility: "public" }));
  });
  afterAll(async () => srv.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${srv.url}${path}`, { headers });

  it("a navigation gets the wrapper; the frame, scripts and machines get the author's document, twice (the lean path too)", async () => {
    const slug = uniq("html");
    await trpcData(await owner.mutation("pages.create", { slug, title: "Raw", body_html: given, workspace: ws }));
    for (let i = 0; i < 2; i++) {
      const page = await get(`/a/${slug}`, { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" });
      expect(page.status).toBe(200);
      const wrapper = await page.text();
      expect(wrapper).not.toContain("<p>mine</p>");
      expect(wrapper).toContain(`<iframe id="atelier-doc" title="Raw &quot;one&quot;" sandbox="allow-scripts allow-popups`);
      expect(wrapper).toContain(`src="/a/${slug}"`);
      expect(wrapper).not.toMatch(/sandbox="[^"]*allow-same-origin/);
      expect(wrapper).toContain("/api/events/page?a=");
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-/);
      expect(csp).toContain("connect-src 'self'; frame-src 'self'");
      expect(page.headers.get("vary")).toBe("Accept, Accept-Encoding, Sec-Fetch-Dest");
      expect(page.headers.get("etag")).toMatch(/-live"$/);

      for (const headers of [{ "sec-fetch-dest": "iframe" }, {}] as Record<string, string>[]) {
        const doc = await get(`/a/${slug}`, headers);
        expect(await doc.text()).toBe(given);
        expect(doc.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts/);
        expect(doc.headers.get("vary")).toBe("Accept, Accept-Encoding, Sec-Fetch-Dest");
        expect(doc.headers.get("etag")).not.toMatch(/-live"$/);
      }
      // The frame's reload after a change (?v=) is the document too.
      expect(await (await get(`/a/${slug}?v=abc`, { "sec-fetch-dest": "iframe" })).text()).toBe(given);
    }
  });

  it("a composed page, and an HTML page that is not public, are answered as before", async () => {
    const md = uniq("md");
    await trpcData(await owner.mutation("pages.create", { slug: md, title: "Notes", body_markdown: "hello", workspace: ws }));
    const composed = await get(`/a/${md}`, { "sec-fetch-dest": "document" });
    expect(await composed.text()).toContain("<script data-atelier-live>");
    expect(composed.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts/);
    expect(composed.headers.get("vary")).toBe("Accept, Accept-Encoding");

    const priv = uniq("ws");
    await trpcData(await owner.mutation("workspaces.create", { slug: priv, name: "P" }));
    const slug = uniq("html");
    await trpcData(await owner.mutation("pages.create", { slug, title: "Raw", body_html: given, workspace: priv }));
    const own = await owner.request(`/a/${slug}`, { headers: { "sec-fetch-dest": "document" } });
    expect(await own.text()).toBe(given);
    expect(own.headers.get("content-security-policy")).toMatch(/^sandbox allow-scripts/);
  });
});
