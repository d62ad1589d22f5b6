import { describe, expect, it } from "vitest";
import { closeToTitle, HIGHLIGHT_BUDGET_CHARS, renderTitled } from "./markdown";
import { embeddedDocument, embeddedEtag, markdownToHtml, notFoundDocument, renderPage } from "./render";

/** A document without the live script (issue 25), for the size budgets set before it. */
// The live script (issue 25), the view beacon and the footer saying how views are counted (issue 32).
const withoutLive = (doc: string) =>
  doc
    .replace(/<script data-atelier-live>[\s\S]*?<\/script>\n/, "")
    .replace(/<script data-atelier-count>[\s\S]*?<\/script>\n/, "")
    .replace(/<footer class="atelier-foot">.*<\/footer>\n/, "")
    .replace(/footer\.atelier-foot\{[^}]*\}footer\.atelier-foot a\{[^}]*\}\n/, "");

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

  it("prints the title once when the Markdown opens with the same heading, as the author wrote it", () => {
    const doc = page("# Release  *plan*\n\nWhat ships.");
    expect(h1s(doc)).toBe(1);
    expect(doc).toContain('<header class="atelier-head"><h1>Release  <em>plan</em></h1>');
    expect(doc).toContain("<title>Release plan</title>");
    expect(doc).toContain("<p>What ships.</p>");
  });

  it("keeps a first heading that says something else, and a later one that repeats the title", () => {
    expect(h1s(page("# Release notes\n\nText"))).toBe(2);
    expect(h1s(page("Intro first.\n\n# Release plan"))).toBe(2);
    expect(page("## Release plan\n\nText")).toContain("<h2>Release plan</h2>");
  });

  it("compares titles by their words, whatever the spacing, punctuation or case", () => {
    expect(closeToTitle(" Release\tPLAN ", "release plan")).toBe(true);
    expect(closeToTitle("Release plan:", "Release — plan")).toBe(true);
    expect(closeToTitle("Release", "Planning")).toBe(false);
    expect(closeToTitle("", "")).toBe(false);
  });

  it("keeps a column's alignment, and the stylesheet lets it through", () => {
    const html = markdownToHtml("| Item | Cost | Note |\n|:--|--:|:-:|\n| Paper | 12.50 | ok |");
    expect(html).toContain('<th align="right">Cost</th>');
    expect(html).toContain('<td align="right">12.50</td>');
    expect(html).toContain('<td align="center">ok</td>');
    expect(page("| a |\n|--:|\n| 1 |")).toMatch(/td\[align=right\]\{text-align:right\}/);
    // Unmarked columns start where the text starts (right-to-left cells on the right); marked ones as marked.
    expect(page("| a |\n|--:|\n| 1 |")).toMatch(/td\[align=left\]\{text-align:left\}/);
  });

  it("highlights fenced code that names its language, with classes only, and leaves the rest plain", () => {
    const html = markdownToHtml("```ts\nconst n: number = 1; // one\n```\n\n```\nplain text\n```\n\n```klingon\nqapla'\n```");
    expect(html).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(html).toContain('<span class="hljs-comment">// one</span>');
    expect(html).toContain('<pre tabindex="0" role="group" aria-label="Code"><code>plain text\n</code></pre>');
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
    // The budget less the live script every composed page carries (issue 25).
    expect(withoutLive(plain).length).toBeLessThan(3500);
  });

  it("carries only the live script unless embedded in the app, and the embedded form only adds ours and hides the header the app prints", () => {
    const doc = page("```js\nx()\n```");
    expect(doc.match(/<script/gi)).toHaveLength(1);
    expect(doc).toMatch(/<script data-atelier-live>[\s\S]*new EventSource\("\/api\/events\/page\?"\+q\)[\s\S]*<\/script>\n<\/body>/);
    // No beacon (issue 32): views are counted where the page is served, or from nginx's log; nothing in the page reports.
    expect(doc).not.toContain("sendBeacon");
    expect(doc).toContain('<footer class="atelier-foot"><a href="/privacy#reading-figures">Views are counted without cookies</a></footer>');
    const embedded = embeddedDocument(doc);
    expect(embedded.match(/<script>/g)).toHaveLength(1);
    expect(embedded.indexOf("<script>")).toBeGreaterThan(embedded.indexOf("</article>"));
    expect(embedded).toMatch(/<\/script>\n?<\/body>/);
    expect(embedded).toContain('parent.postMessage({type:"atelier:height"');
    expect(embedded).toContain("<style>header.atelier-head{display:none}</style></head>");
    expect(embedded.replace(/<script>[\s\S]*<\/script>/, "").replace("<style>header.atelier-head{display:none}</style>", "")).toBe(doc);
    // An author's document without a body tag gets it at the end, and nothing hidden.
    expect(embeddedDocument("<p>hi")).toMatch(/^<p>hi<script>/);
    expect(embeddedDocument("<html><head></head><body><header class=x>mine</header></body></html>")).not.toContain("display:none");
    expect(embeddedEtag('"abc"')).toBe('"abc-embed"');
  });
});

describe("reading, third pass (issue 27)", () => {
  const page = (body: string, title = "Release plan", extra: Parameters<typeof renderPage>[0]["parts"] = []) =>
    renderPage({ title, summary: "", parts: [{ id: "p1", kind: "markdown", body, position: 0 }, ...extra], url: "https://atelier.example/a/x" });
  const h1s = (doc: string) => doc.match(/<h1[\s>]/g)?.length ?? 0;

  it("takes a heading close to the title as the page's heading: a few words more, a typo, punctuation", () => {
    for (const heading of ["Release plan for Q3", "The release plan", "Release plna", "RELEASE PLAN!", "Release plan (draft)"]) {
      const doc = page(`# ${heading}\n\nText.`);
      expect(h1s(doc), heading).toBe(1);
      expect(doc).toContain(`<header class="atelier-head"><h1>${heading.replace("!", "!")}</h1>`);
    }
    expect(closeToTitle("Release plan for the whole company in 2027 and beyond", "Release plan")).toBe(false);
    expect(closeToTitle("Introduction", "Release plan")).toBe(false);
    expect(closeToTitle("Plan", "Release plan")).toBe(true);
    expect(closeToTitle("", "Release plan")).toBe(false);
    // A heading that says something else stays where it is, under the title.
    expect(h1s(page("# Introduction\n\nText."))).toBe(2);
  });

  it("gives the same heading and body to every view of a page (the app's preview and history use renderTitled)", () => {
    const start = renderTitled("# Release *plan* for Q3\n\nWhat ships.", "Release plan");
    expect(start.heading).toBe("Release <em>plan</em> for Q3");
    expect(start.html).toBe("<p>What ships.</p>");
    const doc = page("# Release *plan* for Q3\n\nWhat ships.");
    expect(doc).toContain(`<h1>${start.heading}</h1>`);
    expect(doc).toContain(start.html);
    // Without a matching heading, the title is the heading, escaped.
    expect(renderTitled("Text", "A <b> & c").heading).toBe("A &lt;b&gt; &amp; c");
    // A sanitized heading stays sanitized when it moves up.
    expect(renderTitled('# Release plan <img src=x onerror="alert(1)">', "Release plan").heading).not.toMatch(/onerror/);
  });

  it("makes code blocks and tables keyboard stops that scroll inside themselves, with a name", () => {
    const html = markdownToHtml("```\nlong\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    expect(html).toContain('<pre tabindex="0" role="group" aria-label="Code">');
    expect(html).toMatch(/<div class="atelier-scroll" tabindex="0" role="group" aria-label="Table"><table>[\s\S]*<\/table><\/div>/);
    const doc = page("```\nlong\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    // Each scrolls in itself, with shadows at the edge where more is out of sight, and a ring on focus.
    expect(doc).toMatch(/pre,\.atelier-scroll\{[^}]*overflow:auto;background:linear-gradient/);
    expect(doc).toContain("pre:focus-visible,.atelier-scroll:focus-visible{outline:");
    // The header row stays in sight while the table scrolls in its frame.
    expect(doc).toMatch(/th\{[^}]*position:sticky;top:0/);
  });

  it("labels task boxes with their text and drops the bullets, in tight and loose lists", () => {
    const tight = markdownToHtml("- [x] Count the geese\n- [ ] Write up the **cranes**\n  - [ ] nested");
    expect(tight).toContain('<li class="task-list-item"><label><input type="checkbox" checked disabled> Count the geese</label></li>');
    expect(tight).toContain('<label><input type="checkbox" disabled> Write up the <strong>cranes</strong></label>\n<ul class="contains-task-list">');
    const loose = markdownToHtml("- [x] First\n\n- [ ] Second\n\n  more text");
    expect(loose).toContain('<p><label><input type="checkbox" checked disabled> First</label></p>');
    expect(page("- [x] a")).toContain(".task-list-item{list-style:none}");
  });

  it("wraps long words and links, keeps right-to-left paragraphs right-to-left, fits images, and prints", () => {
    const doc = page("a");
    expect(doc).toMatch(/body\{[^}]*overflow-wrap:break-word/);
    expect(doc).toContain("unicode-bidi:plaintext");
    expect(doc).toContain("img,video{max-width:100%;height:auto}");
    // A measure of about 70 characters, and dark colours on screens only.
    expect(doc).toMatch(/main\{max-width:calc\(55ch \+ 2\.5rem\)/);
    expect(doc).toContain("@media screen and (prefers-color-scheme:dark)");
    expect(doc).toMatch(/@media print\{[^\n]*a\[href\^=http\]::after/);
  });

  it("keeps a plain page small: the rules for code and tables come only with code and tables", () => {
    const plain = page("Just words.");
    expect(plain).not.toContain("atelier-scroll");
    expect(plain).not.toContain("hljs");
    expect(withoutLive(plain).length).toBeLessThan(3000);
    // The live script under 900 bytes, the footer saying how views are counted (issue 32) under 700 more.
    const live = /<script data-atelier-live>[\s\S]*?<\/script>\n/.exec(plain)?.[0] ?? "";
    expect(live.length).toBeGreaterThan(0);
    expect(live.length).toBeLessThan(900);
    expect(plain.length - withoutLive(plain).length - live.length).toBeLessThan(700);
    expect(page("| a |\n|---|\n| 1 |")).toContain(".atelier-scroll{--s:var(--bg)");
    expect(page("| a |\n|---|\n| 1 |")).not.toContain("hljs");
  });

  it("lets readers sort and filter live tables with a script only pages with one carry", () => {
    const table =
      '<figure class="atelier-table"><figcaption>Tasks</figcaption><div class="atelier-scroll"><table><thead><tr><th scope="col">a</th></tr></thead><tbody>\n<tr><td>1</td></tr>\n</tbody></table></div></figure>';
    const doc = renderPage({
      title: "t",
      summary: "",
      parts: [
        { id: "p1", kind: "markdown", body: "x", position: 0 },
        { id: "p2", kind: "table_view", body: '{"collection":"tasks"}', position: 1 },
      ],
      url: "u",
      tables: { p2: table },
    });
    expect(doc.match(/<script>/g)).toHaveLength(1);
    expect(doc).toMatch(
      /<\/main>\n<script>\(function\(\)\{[\s\S]*figure\.atelier-table[\s\S]*<\/script>\n<script data-atelier-live>[\s\S]*<\/script>\n<\/body>/,
    );
    // It fails closed: everything it does is inside a try, per table.
    expect(doc).toMatch(/forEach\(function\(fig\)\{try\{[\s\S]*\}catch\(e\)\{\}\}\)/);
    expect(page("| a |\n|---|\n| 1 |")).not.toMatch(/<script>/);
  });

  it("answers a missing page with a branded page in both themes that signs in and comes back, and a dead share link without sign-in", () => {
    const doc = notFoundDocument({ next: "/a/release-plan" });
    expect(doc).toContain('<a class="button" href="/app/sign-in?next=%2Fa%2Frelease-plan">Sign in</a>');
    expect(doc).toContain("<h1>This page isn’t here</h1>");
    expect(doc).toContain("@media screen and (prefers-color-scheme:dark)");
    expect(doc).toContain('<meta name="robots" content="noindex">');
    expect(doc).toContain("<svg");
    expect(notFoundDocument({ next: null })).toContain('href="/app/sign-in"');
    const link = notFoundDocument({ shareLink: true });
    expect(link).not.toContain("sign-in");
    expect(link).toContain("This link doesn’t open anything");
  });
});
