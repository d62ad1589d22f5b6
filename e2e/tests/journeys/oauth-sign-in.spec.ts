// Journey: an MCP client connects by signing in (issue 12), driven by the MCP SDK's own
// client-side auth through nginx, once identified by a client ID metadata document and once
// by dynamic registration. A person without a session signs in with the e-mail code on the
// way, reads the consent screen (kept at desktop and phone width, light and dark, checked
// with axe-core) and allows it; the client exchanges the code, creates a page through /mcp,
// the page's history shows the client's name acting for the person, and after the person
// revokes the grant in the app the client's next call answers 401.
import { auth, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test, type Page } from "@playwright/test";
import { uniqueEmail, uniqueSlug } from "../support/api";
import { DESKTOP, keepScreens, keepScreenshot, PHONE } from "../support/browser";
import { waitForCode } from "../support/mail";
import { callTool, mcpPost, toolCall } from "../support/mcp";
import { expectNoSeriousA11yViolations, MemoryOAuthProvider, startCallback, startClientSite } from "../support/oauth";
import { stack, withinCacheBound } from "../support/stack";

const serverUrl = `${stack.baseUrl}/mcp`;

async function signInOnTheSpot(page: Page, email: string): Promise<void> {
  // The consent screen needs a session: the app's sign-in shows in its place.
  await page.getByLabel("E-mail address").fill(email);
  const since = Date.now();
  await page.getByRole("button", { name: "Send me a code" }).click();
  await page.getByLabel("Six-digit code").fill(await waitForCode(email, since));
}

/**
 * The consent screen uses the app's own controls (issue 27): no browser-default fieldset, the
 * radio's text in its own block, a full-height select under its label, buttons apart, and no
 * focus ring on the heading that takes the focus.
 */
async function expectConsentLaidOut(page: Page): Promise<void> {
  const fieldset = page.locator("fieldset.choice-group");
  expect(await fieldset.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe("none");
  const choice = page.locator("label.choice").first();
  expect(await choice.evaluate((el) => getComputedStyle(el).display)).toBe("flex");
  const select = page.getByLabel("For how long");
  const box = await select.boundingBox();
  const label = await page.locator("label", { hasText: "For how long" }).boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
  expect((box?.y ?? 0) - ((label?.y ?? 0) + (label?.height ?? 0))).toBeGreaterThanOrEqual(4);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    const deny = await page.getByRole("button", { name: "Deny", exact: true }).boundingBox();
    const allow = await page.getByRole("button", { name: "Allow", exact: true }).boundingBox();
    if (!deny || !allow) throw new Error("no buttons");
    const apart = Math.max(
      allow.x - (deny.x + deny.width),
      deny.x - (allow.x + allow.width),
      allow.y - (deny.y + deny.height),
      deny.y - (allow.y + allow.height),
    );
    expect(apart, `Deny and Allow at ${size.width} px`).toBeGreaterThanOrEqual(8);
  }
  await page.setViewportSize(DESKTOP);
  const heading = page.getByRole("heading", { level: 1 });
  expect(await heading.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await heading.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("none");
}

/** Presses Tab until the named button has the focus (at most 40 times), then Enter. */
async function pressWithKeyboard(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => (document.activeElement instanceof HTMLButtonElement ? document.activeElement.textContent?.trim() : null));
    if (focused === name) {
      await page.keyboard.press("Enter");
      return;
    }
  }
  throw new Error(`the ${name} button cannot be reached with Tab`);
}

for (const variant of ["metadata-document", "registration"] as const) {
  test(`an MCP client signs in with OAuth (${variant}), writes as the person, and stops at 401 once revoked`, async ({ page }) => {
    const person = uniqueEmail(`oauth-${variant}`);
    const clientName = variant === "metadata-document" ? "Claude (e2e, metadata document)" : "VS Code (e2e, registered)";
    const slug = uniqueSlug(`oauth-${variant.slice(0, 4)}`);
    const callback = await startCallback();
    const site =
      variant === "metadata-document"
        ? await startClientSite((clientId) => ({
            client_id: clientId,
            client_name: clientName,
            client_uri: "https://client.example/",
            redirect_uris: [callback.url],
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            token_endpoint_auth_method: "none",
          }))
        : null;
    const provider = new MemoryOAuthProvider(callback.url, clientName, site?.clientId);

    try {
      await test.step("the discovery documents come from the server through nginx, never the app", async () => {
        const asm = await fetch(`${stack.baseUrl}/.well-known/oauth-authorization-server`);
        expect(asm.headers.get("content-type")).toContain("application/json");
        expect(await asm.json()).toMatchObject({ authorization_endpoint: `${stack.baseUrl}/oauth/authorize`, client_id_metadata_document_supported: true });
        const prm = await fetch(`${stack.baseUrl}/.well-known/oauth-protected-resource/mcp`);
        expect(await prm.json()).toMatchObject({ resource: serverUrl, authorization_servers: [stack.baseUrl] });
        const bare = await fetch(`${stack.baseUrl}/oauth/authorize`, { headers: { accept: "application/json" } });
        expect(bare.status).toBe(400);
        expect(await bare.json()).toMatchObject({ error: "invalid_request" });
      });

      await test.step("a write without a token answers 401 naming the resource metadata", async () => {
        const res = await mcpPost(toolCall("create_page", { slug, title: "x", body_markdown: "x" }));
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${stack.baseUrl}/.well-known/oauth-protected-resource"`);
      });

      await test.step("the SDK discovers the authorization server and starts the authorization", async () => {
        expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
        const u = provider.authorizationUrl;
        expect(u?.origin + (u?.pathname ?? "")).toBe(`${stack.baseUrl}/oauth/authorize`);
        expect(u?.searchParams.get("code_challenge_method")).toBe("S256");
        expect(u?.searchParams.get("resource")).toBe(serverUrl);
        if (site) expect(u?.searchParams.get("client_id")).toBe(site.clientId);
        else expect(u?.searchParams.get("client_id")).toMatch(/^dcr_/);
      });

      await test.step("the person, not signed in, is told on the sign-in step which app wants to connect", async () => {
        await page.goto(provider.authorizationUrl?.href ?? "");
        await expect(page).toHaveURL(/\/app\/oauth\/consent\/[A-Za-z0-9_-]+$/);
        await expect(page.getByRole("heading", { name: `${clientName} wants to connect to Atelier` })).toBeVisible();
        await expect(page.getByText(site ? /^Verified: localhost:\d+$/ : /^Unverified$/)).toBeVisible();
        await expectNoSeriousA11yViolations(page, "sign-in step, light");
        await keepScreens(page, `oauth-sign-in-step-${variant}`);
        await page.emulateMedia({ colorScheme: "dark" });
        await expectNoSeriousA11yViolations(page, "sign-in step, dark");
        await keepScreens(page, `oauth-sign-in-step-${variant}-dark`);
        await page.emulateMedia({ colorScheme: "light" });
      });

      await test.step("signs in with the e-mail code and sees the consent screen", async () => {
        await signInOnTheSpot(page, person);
        await expect(page.getByRole("heading", { name: `Connect ${clientName} to your Atelier?` })).toBeVisible();
        if (site) {
          // An https metadata document: its host vouches for it; the name is still its own.
          await expect(page.getByText(/^Verified: localhost:\d+$/)).toBeVisible();
          await expect(page.getByText(/Its description is published by/)).toContainText("localhost");
        } else {
          await expect(page.getByText("Unverified", { exact: true })).toBeVisible();
          await expect(page.getByText(/It registered itself with this server (just now|.* ago)/)).toBeVisible();
        }
        await expect(page.getByText(/After you answer you go back to a program on this computer/)).toContainText("http://127.0.0.1:");
        await expect(page.getByText(/Create, change and delete pages/)).toBeVisible();
        await expect(page.getByRole("button", { name: "Allow", exact: true })).toBeEnabled();
      });

      await test.step("the consent screen at desktop and phone width, light and dark, has no serious accessibility problem and is laid out", async () => {
        // Loaded afresh, as a person already signed in arrives (the sign-in step's styles are then not on the page).
        await page.reload();
        await expect(page.getByRole("heading", { name: `Connect ${clientName} to your Atelier?` })).toBeFocused();
        await expectConsentLaidOut(page);
        await expectNoSeriousA11yViolations(page, "consent, light");
        await keepScreens(page, `oauth-consent-${variant}`);
        await page.emulateMedia({ colorScheme: "dark" });
        await expectNoSeriousA11yViolations(page, "consent, dark");
        await keepScreens(page, `oauth-consent-${variant}-dark`);
        await page.emulateMedia({ colorScheme: "light" });
      });

      let back: URL | null = null;
      await test.step("the person allows it; the browser goes back to the client with a code and the issuer", async () => {
        await page.getByLabel("For how long").selectOption("30");
        const arrived = callback.next();
        if (variant === "registration") await pressWithKeyboard(page, "Allow");
        else await page.getByRole("button", { name: "Allow", exact: true }).click();
        back = await arrived;
        expect(back.searchParams.get("iss")).toBe(stack.baseUrl);
        expect(back.searchParams.get("code")).toBeTruthy();
        await expect(page.getByText("You can close this window")).toBeVisible();
      });

      await test.step("the SDK exchanges the code", async () => {
        // RFC 9207: the SDK checks the authorization response's `iss` against the issuer it discovered.
        const callback = back as URL | null;
        const iss = callback?.searchParams.get("iss") ?? undefined;
        expect(iss).toBe(stack.baseUrl);
        expect(await auth(provider, { serverUrl, authorizationCode: callback?.searchParams.get("code") ?? "", ...(iss ? { iss } : {}) })).toBe("AUTHORIZED");
        expect(provider.saved?.access_token).toBeTruthy();
        expect(provider.saved?.refresh_token).toBeTruthy();
        if (site) expect(site.fetches()).toBeGreaterThan(0);
      });

      await test.step("the client creates a page through /mcp; its history shows the client acting for the person", async () => {
        const client = new Client({ name: "atelier-e2e-oauth", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }));
        const who = (await callTool(client, "whoami", {})) as Record<string, unknown>;
        expect(JSON.stringify(who)).toContain(person);
        const created = (await callTool(client, "create_page", {
          slug,
          title: "Signed in through OAuth",
          body_markdown: "# Hello\n\nFrom an app that signed in.",
        })) as {
          page: { created_by: { kind: string; label: string; user_id: string | null } };
        };
        expect(created.page.created_by).toMatchObject({ kind: "agent", label: clientName });
        const history = (await callTool(client, "get_page_history", { slug })) as {
          versions: { actor: { kind: string; label: string; user_id: string | null } }[];
        };
        const me = (await (await page.request.get("/api/trpc/me.get")).json()) as { result: { data: { id: string } } };
        expect(history.versions[0]?.actor).toMatchObject({ kind: "agent", label: clientName, user_id: me.result.data.id });
        await client.close();
      });

      await test.step("the person revokes it in the connected-agent settings; every process refuses it within the cache bound", async () => {
        await page.goto("/app/settings/agents");
        const item = page.getByRole("list", { name: "Your tokens" }).getByRole("listitem").filter({ hasText: clientName });
        await expect(item.getByText("Signed in", { exact: true })).toBeVisible();
        await expect(item.getByText(/Connected through sign-in/)).toBeVisible();
        await expect(item.getByRole("button", { name: "Rotate…" })).toHaveCount(0);
        await item.getByRole("button", { name: "Revoke…" }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Revoke", exact: true }).click();
        await expect(page.getByRole("dialog")).toBeHidden();
        // The revocation ran in a server process; each sidecar may hold the token's lookup for
        // at most CACHE_TTL_MS (docs/ARCHITECTURE.md#state). Every sidecar, asked directly, refuses it within that.
        const bearer = { authorization: `Bearer ${provider.saved?.access_token ?? ""}` };
        for (const sidecar of stack.sidecarUrls) {
          await withinCacheBound(`${sidecar} refuses the revoked grant`, async () => {
            const res = await fetch(`${sidecar}/mcp`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...bearer },
              body: JSON.stringify(toolCall("whoami")),
            });
            return res.status === 401 && (res.headers.get("www-authenticate") ?? "").includes('error="invalid_token"');
          });
        }
        expect((await mcpPost(toolCall("whoami"), bearer)).status).toBe(401);
        // Its refresh token is gone with the grant.
        const refresh = await fetch(`${stack.baseUrl}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: provider.saved?.refresh_token ?? "",
            client_id: String(provider.info?.client_id ?? ""),
          }).toString(),
        });
        expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
        await keepScreenshot(page, `journey-oauth-${variant}-revoked`);
      });
    } finally {
      await callback.close();
      await site?.close();
    }
  });
}

test("Deny on the consent screen sends access_denied back to the client", async ({ page }) => {
  const callback = await startCallback();
  try {
    const provider = new MemoryOAuthProvider(callback.url, "Denied app (e2e)");
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    await page.goto(provider.authorizationUrl?.href ?? "");
    await signInOnTheSpot(page, uniqueEmail("oauth-deny"));
    await expect(page.getByRole("heading", { name: "Connect Denied app (e2e) to your Atelier?" })).toBeVisible();
    const arrived = callback.next();
    await page.getByRole("button", { name: "Deny", exact: true }).click();
    const back = await arrived;
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("iss")).toBe(stack.baseUrl);
    expect(back.searchParams.get("code")).toBeNull();
  } finally {
    await callback.close();
  }
});
