// Journey 3: an HTML artifact's script tries to read the app's cookies and to call the app's
// API with the visitor's session from inside /a/{slug}; the sandbox CSP gives it nothing.
import { expect, test } from "@playwright/test";
import { Api, uniqueEmail, uniqueSlug } from "../support/api";
import { keepScreenshot } from "../support/browser";
import { callTool, mcpClient } from "../support/mcp";
import { stack } from "../support/stack";

// The probe writes what it got into the page and the console.
const PROBE = `<!doctype html><html><head><meta charset="utf-8"><title>Probe</title></head><body>
<h1>Cookie and API probe</h1>
<p id="cookie">cookie: pending</p>
<p id="fetch">fetch: pending</p>
<script>
  var cookie;
  try { cookie = "read [" + document.cookie + "]"; } catch (e) { cookie = "blocked (" + e.name + ")"; }
  document.getElementById("cookie").textContent = "cookie: " + cookie;
  console.log("probe-cookie: " + cookie);
  fetch("/api/trpc/me.get", { credentials: "include" })
    .then(function (r) { return r.text().then(function (t) { return "status " + r.status + " " + t; }); })
    .catch(function (e) { return "failed (" + e.name + ")"; })
    .then(function (s) {
      document.getElementById("fetch").textContent = "fetch: " + s;
      console.log("probe-fetch: " + s);
    });
</script></body></html>`;

test("an HTML artifact cannot read the app's cookies or call its API with the visitor's session", async ({ page, context }) => {
  const owner = uniqueEmail("prober");
  const slug = uniqueSlug("cookie-probe");

  // Seeded through the public API: a signed-in owner, a token, the artifact written over MCP.
  const api = new Api();
  const { user } = await api.signIn(owner);
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
    label: "probe writer",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });
  const agent = await mcpClient(credential);
  await callTool(agent, "create_page", { slug, title: "Probe", body_html: PROBE });
  await agent.close();

  // The browser carries the owner's session, plus a script-readable cookie as bait.
  const { hostname } = new URL(stack.baseUrl);
  const session = api.cookie.split("; ").map((pair) => pair.split("="));
  await context.addCookies([
    ...session.map(([name, value]) => ({ name: name ?? "", value: value ?? "", domain: hostname, path: "/", httpOnly: true, sameSite: "Lax" as const })),
    { name: "probe_bait", value: "visible-to-same-origin-scripts", domain: hostname, path: "/", sameSite: "Lax" },
  ]);

  await test.step("the session is live: the app's own page reads me.get and sees the bait cookie", async () => {
    await page.goto("/app/");
    const own = await page.evaluate(async () => {
      const r = await fetch("/api/trpc/me.get", { credentials: "include" });
      return { status: r.status, body: await r.text(), cookie: document.cookie };
    });
    expect(own.status).toBe(200);
    expect(own.body).toContain(user.email);
    expect(own.cookie).toContain("probe_bait=");
  });

  await test.step("inside /a/{slug} the artifact's script gets no cookie and no session", async () => {
    const logs: string[] = [];
    page.on("console", (m) => logs.push(m.text()));
    const res = await page.goto(`/a/${slug}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"] ?? "").toMatch(/sandbox allow-scripts/);
    expect(res?.headers()["content-security-policy"] ?? "").not.toContain("allow-same-origin");

    await expect(page.locator("#fetch")).not.toHaveText("fetch: pending", { timeout: 15_000 });
    const cookieText = (await page.locator("#cookie").textContent()) ?? "";
    const fetchText = (await page.locator("#fetch").textContent()) ?? "";
    // An opaque origin: reading document.cookie throws, or at most yields nothing.
    expect(cookieText).toMatch(/cookie: (blocked \(SecurityError\)|read \[\])/);
    expect(cookieText).not.toContain("probe_bait");
    expect(cookieText).not.toContain("atelier_session");
    // The API call fails (no CORS for an opaque origin) or, at the very least, carries no session.
    expect(fetchText).not.toContain(user.email);
    expect(fetchText).toMatch(/fetch: (failed \(TypeError\)|status 401)/);
    expect(logs.join("\n")).toContain("probe-fetch: ");
    await keepScreenshot(page, "journey-3-html-artifact-isolated");
  });
});
