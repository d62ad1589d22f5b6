// Issue 29: an agent's image in a page, through nginx and in Chromium. push_image over the
// real MCP client, the public page shows it sized and lazy; a private page shows its image to
// its member (the sandboxed document's requests carry no SameSite cookie: a grant does it);
// what would run is refused or served inert, and no script runs.
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { Api, uniqueEmail, uniqueSlug } from "../support/api";
import { callTool, mcpClient } from "../support/mcp";
import { stack } from "../support/stack";

async function png(w: number, h: number): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 11) % 256;
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

test("an image pushed by an agent shows in public and private pages; files that would run are refused or inert", async ({ page, context }) => {
  const api = new Api();
  await api.signIn(uniqueEmail("painter"));
  const pub = uniqueSlug("pics");
  const priv = uniqueSlug("secret-pics");
  await api.mutation("workspaces.create", { slug: pub, name: "Pictures" });
  await api.mutation("workspaces.setVisibility", { slug: pub, visibility: "public" });
  await api.mutation("workspaces.create", { slug: priv, name: "Private pictures" });
  const { credential } = await api.mutation<{ credential: string }>("tokens.create", {
    label: "Painter bot",
    scopes: ["mcp:read", "mcp:write"],
    expiresInDays: 1,
  });
  const agent = await mcpClient(credential);

  const pushed = (await callTool(agent, "push_image", { workspace: pub, data: (await png(320, 200)).toString("base64"), alt: "A striped test card" })) as {
    markdown: string;
    url: string;
  };
  expect(pushed.url).toMatch(new RegExp(`^${stack.baseUrl}/files/ws_[^/]+/[0-9a-f]{64}-320x200\\.png$`));
  const slug = uniqueSlug("card");
  await callTool(agent, "create_page", { workspace: pub, slug, title: "Test card", body_markdown: `Below:\n\n${pushed.markdown}\n` });

  await test.step("the public page shows the image, sized and lazy, to a visitor without an account", async () => {
    await page.goto(`/a/${slug}`);
    const img = page.getByRole("img", { name: "A striped test card" });
    await expect(img).toHaveAttribute("width", "320");
    await expect(img).toHaveAttribute("height", "200");
    await expect(img).toHaveAttribute("loading", "lazy");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(320);
    const res = await fetch(pushed.url);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toContain("immutable");
  });

  await test.step("a private page shows its image to its member, and nobody else gets the file", async () => {
    const secret = (await callTool(agent, "push_image", { workspace: priv, data: (await png(64, 64)).toString("base64"), alt: "A private square" })) as {
      markdown: string;
      url: string;
    };
    const privSlug = uniqueSlug("private-card");
    await callTool(agent, "create_page", { workspace: priv, slug: privSlug, title: "Private card", body_markdown: secret.markdown });
    expect((await fetch(secret.url)).status).toBe(404);
    const { hostname } = new URL(stack.baseUrl);
    await context.addCookies(
      api.cookie.split("; ").map((pair) => {
        const [name = "", value = ""] = pair.split("=");
        return { name, value, domain: hostname, path: "/", httpOnly: true, sameSite: "Lax" as const };
      }),
    );
    await page.goto(`/a/${privSlug}`);
    const img = page.getByRole("img", { name: "A private square" });
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(64);
    await context.clearCookies();
  });

  await test.step("HTML claiming to be PNG and SVG with a script are refused; a polyglot is a plain image in which nothing runs", async () => {
    const put = async (body: Buffer, type: string) => {
      const target = (await callTool(agent, "create_upload_url", { workspace: pub })) as { upload_url: string; upload_id: string };
      const res = await fetch(target.upload_url, { method: "PUT", body: new Uint8Array(body), headers: { "content-type": type } });
      return { res, upload_id: target.upload_id };
    };
    expect((await put(Buffer.from("<!doctype html><script>alert('html')</script>"), "image/png")).res.status).toBe(415);
    expect((await put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert("svg")</script></svg>'), "image/svg+xml")).res.status).toBe(415);
    const polyglot = Buffer.concat([await png(16, 16), Buffer.from("<html><body><script>alert('polyglot');document.title='ran'</script></body></html>")]);
    const { res, upload_id } = await put(polyglot, "text/html");
    expect(res.status).toBe(201);
    const done = (await callTool(agent, "finish_upload", { upload_id, alt: "A tiny square" })) as { url: string; file: { type: string } };
    expect(done.file.type).toBe("image/png");
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const shown = await page.goto(done.url);
    expect(shown?.headers()["content-type"]).toBe("image/png");
    expect(shown?.headers()["x-content-type-options"]).toBe("nosniff");
    expect(shown?.headers()["content-security-policy"]).toContain("sandbox");
    expect(await page.title()).not.toBe("ran");
    const body = await (await fetch(done.url)).arrayBuffer();
    expect(Buffer.from(body).toString("latin1")).not.toContain("<script");
    expect(dialogs).toEqual([]);
  });
  await agent.close();
});
