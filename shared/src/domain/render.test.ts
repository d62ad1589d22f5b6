import { describe, expect, it } from "vitest";
import { HIGHLIGHT_BUDGET_CHARS, sameTitle } from "./markdown";
import { embeddedDocument, embeddedEtag, markdownToHtml, renderPage } from "./render";

describe("markdown rendering", () => {
  it("renders GitHub-flavoured Markdown", () => {
    const html = markdownToHtml("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~gone~~");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<table>");
    expect(html).toContain("<del>gone</del>");
  });

  it("strips scripts, event handlers and javascript: links", () => {
    const html = markdownToHtml('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1))\n\n<iframe src="https://x"></iframe>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<iframe/i);
  });

  it("builds a standalone document with title, description and social tags, escaping both", () => {
    const doc = renderPage({
      title: 'Q3 <plan> & "goals"',
      summary: "What we ship <b>next</b>",
      parts: [{ id: "p1", kind: "markdown", body: "Hello **world**", position: 0 }],
      url: "https://atelier.example/a/q3",
    });
    expect(doc).toMatch(/^<!doctype html>/);
    expect(doc).toContain("<title>Q3 &lt;plan&gt; &amp; &quot;goals&quot;</title>");
    expect(doc).toContain('<meta name="description" content="What we ship &lt;b&gt;next&lt;/b&gt;">');
    expect(doc).toContain('<meta property="og:title"');
    expect(doc).toContain('<meta name="viewport"');
    expect(doc).toContain("<strong>world</strong>");
  });

  it("keeps a page that is one HTML part exactly as given", () => {
    const given = "<!doctype html><html><body><script>document.title='mine'</script></body></html>";
    expect(renderPage({ title: "t", summary: "", parts: [{ id: "p1", kind: "html", body: given, position: 0 }], url: "u" })).toBe(given);
  });
});

describe("reading a published page (issue 17 item 6)", () => {
  const page = (body: string, title = "Release plan") =>
    renderPage({ title, summary: "", parts: [{ id: "p1", kind: "markdown", body, position: 0 }], url: "https://atelier.example/a/x" });
  const h1s = (doc: string) => doc.match(/<h1[\s>]/g)?.length ?? 0;

  it("prints the title once when the Markdown opens with the same heading", () => {
    const doc = page("# Release  *plan*\n\nWhat ships.");
    expect(h1s(doc)).toBe(1);
    expect(doc).toContain('<header class="atelier-head"><h1>Release plan</h1>');
    expect(doc).toContain("<p>What ships.</p>");
  });

  it("keeps a first heading that says something else, and a later one that repeats the title", () => {
    expect(h1s(page("# Release notes\n\nText"))).toBe(2);
    expect(h1s(page("Intro first.\n\n# Release plan"))).toBe(2);
    expect(page("## Release plan\n\nText")).toContain("<h2>Release plan</h2>");
  });

  it("compares titles by their words, whatever the spacing or case", () => {
    expect(sameTitle(" Release\tPLAN ", "release plan")).toBe(true);
    expect(sameTitle("Release plan", "Release plans")).toBe(false);
    expect(sameTitle("", "")).toBe(false);
  });

  it("keeps a column's alignment, and the stylesheet lets it through", () => {
    const html = markdownToHtml("| Item | Cost | Note |\n|:--|--:|:-:|\n| Paper | 12.50 | ok |");
    expect(html).toContain('<th align="right">Cost</th>');
    expect(html).toContain('<td align="right">12.50</td>');
    expect(html).toContain('<td align="center">ok</td>');
    expect(page("x")).toMatch(/td\[align=right\]\{text-align:right\}/);
  });

  it("highlights fenced code that names its language, with classes only, and leaves the rest plain", () => {
    const html = markdownToHtml("```ts\nconst n: number = 1; // one\n```\n\n```\nplain text\n```\n\n```klingon\nqapla'\n```");
    expect(html).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(html).toContain('<span class="hljs-comment">// one</span>');
    expect(html).toContain("<pre><code>plain text\n</code></pre>");
    expect(html).toContain("qapla'");
    expect(html).not.toMatch(/style=/);
  });

  it("highlights code that tries to break out of its block as text", () => {
    const html = markdownToHtml('```html\n<script>alert(1)</script><img src=x onerror="alert(2)">\n```');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('<span class="hljs-tag">&#x3C;<span class="hljs-name">script</span>></span>alert(1)');
  });

  it("stops highlighting past the document's budget", () => {
    const block = `\`\`\`js\n${"let a = 1;\n".repeat(Math.ceil(HIGHLIGHT_BUDGET_CHARS / 11) + 10)}\`\`\``;
    const html = markdownToHtml(`\`\`\`js\nlet first = 1;\n\`\`\`\n\n${block}`);
    expect(html).toContain('<code class="hljs language-js"><span class="hljs-keyword">let</span> first');
    expect(html).toContain('<code class="language-js no-highlight">let a = 1;');
  });

  it("has colours for highlighted code in the light and the dark theme, only where there is code", () => {
    const doc = page("```js\nx()\n```");
    expect(doc).toMatch(/:root\{[^}]*--hl-keyword:#/);
    expect(doc).toMatch(/prefers-color-scheme:dark\)\{:root\{[^}]*--hl-keyword:#/);
    expect(doc).toContain(".hljs-keyword,");
    // A page without code or live tables carries neither stylesheet: rendered documents count toward usage.
    const plain = page("Just words.");
    expect(plain).not.toContain("hljs");
    expect(plain).not.toContain("atelier-choice");
    expect(plain.length).toBeLessThan(3500);
  });

  it("carries no script unless embedded in the app, and the embedded form only adds ours", () => {
    const doc = page("```js\nx()\n```");
    expect(doc).not.toMatch(/<script/i);
    const embedded = embeddedDocument(doc);
    expect(embedded.match(/<script>/g)).toHaveLength(1);
    expect(embedded.indexOf("<script>")).toBeGreaterThan(embedded.indexOf("</article>"));
    expect(embedded).toMatch(/<\/script>\n?<\/body>/);
    expect(embedded).toContain('parent.postMessage({type:"atelier:height"');
    expect(embedded.replace(/<script>[\s\S]*<\/script>/, "")).toBe(doc);
    // An author's document without a body tag gets it at the end.
    expect(embeddedDocument("<p>hi")).toMatch(/^<p>hi<script>/);
    expect(embeddedEtag('"abc"')).toBe('"abc-embed"');
  });
});
