import { describe, expect, it } from "vitest";
import { markdownToHtml, renderPage } from "./render";

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
