// Rendering on write (DESIGN §3): Markdown becomes sanitized HTML inside a standalone,
// readable document; an HTML page is kept as given. A read is then a lookup. The Markdown
// pipeline itself (sanitizer, highlighting) is markdown.ts, shared with the app's preview.
import type { PartDoc } from "../db/index";
import { sha256 } from "../ids";
import { markdownToHtml } from "./markdown";

export { markdownToHtml };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

// The document's stylesheet, in parts: a page carries the rules for code only when it has a
// code block, and those for live tables only when it shows one (rendered documents count
// toward a workspace's usage, so a plain page stays as small as it was).
const STYLE_BASE = `
:root{color-scheme:light dark;--fg:#1c1d21;--bg:#fffefb;--muted:#5f636b;--line:#e4e3dc;--code:#f3f2ec;--accent:#2f4fc9}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8eb;--bg:#141518;--muted:#a2a5ad;--line:#2d2f35;--code:#1f2126;--accent:#94a7ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.65 Charter,"Iowan Old Style",Georgia,Cambria,serif;-webkit-text-size-adjust:100%}
main{max-width:44rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
header.atelier-head{margin-bottom:2rem;border-bottom:1px solid var(--line);padding-bottom:1.25rem}
h1,h2,h3,h4{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.25;margin:2rem 0 .75rem}
header.atelier-head h1{font-size:2.1rem;margin:0 0 .5rem}
.atelier-body>:first-child{margin-top:0}
.atelier-summary{color:var(--muted);font-size:1.1rem;margin:0}
a{color:var(--accent)}
img,video{max-width:100%;height:auto}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
code{background:var(--code);padding:.1em .3em;border-radius:4px}
pre{background:var(--code);padding:1rem;border-radius:8px;overflow:auto;line-height:1.45}
pre code{background:none;padding:0;font-size:inherit}
blockquote{margin:1.25rem 0;padding:.25rem 1rem;border-left:3px solid var(--line);color:var(--muted)}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto;font-size:.95em}
th,td{border:1px solid var(--line);padding:.45rem .7rem;text-align:left;vertical-align:top}
th{background:var(--code)}
th[align=center],td[align=center]{text-align:center}th[align=right],td[align=right]{text-align:right}
hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
@media (max-width:600px){body{font-size:16px}main{padding:1.5rem 1rem 3rem}header.atelier-head h1{font-size:1.7rem}}
`.trim();

/** Highlighted code (light and dark) and the Copy button the app's embedded view adds. */
const STYLE_CODE = `
:root{--hl-keyword:#cf222e;--hl-string:#0a3069;--hl-number:#0550ae;--hl-comment:#5f636b;--hl-title:#6639ba;--hl-builtin:#953800;--hl-name:#116329;--hl-del-bg:#ffebe9;--hl-add-bg:#dafbe1}
@media (prefers-color-scheme:dark){:root{--hl-keyword:#ff7b72;--hl-string:#a5d6ff;--hl-number:#79c0ff;--hl-comment:#a2a5ad;--hl-title:#d2a8ff;--hl-builtin:#ffa657;--hl-name:#7ee787;--hl-del-bg:#4a1f22;--hl-add-bg:#1c3a25}}
.hljs-comment,.hljs-quote,.hljs-meta{color:var(--hl-comment)}.hljs-comment,.hljs-quote{font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-doctag,.hljs-template-tag{color:var(--hl-keyword)}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string{color:var(--hl-string)}
.hljs-number,.hljs-literal,.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-template-variable,.hljs-symbol,.hljs-selector-attr,.hljs-selector-class,.hljs-selector-id,.hljs-link{color:var(--hl-number)}
.hljs-title,.hljs-section{color:var(--hl-title)}.hljs-section{font-weight:700}
.hljs-built_in,.hljs-type,.hljs-params{color:var(--hl-builtin)}
.hljs-name,.hljs-selector-pseudo,.hljs-bullet{color:var(--hl-name)}
.hljs-addition{color:var(--hl-name);background:var(--hl-add-bg)}.hljs-deletion{color:var(--hl-keyword);background:var(--hl-del-bg)}
.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:700}
.atelier-code{position:relative}.atelier-code pre{padding-top:2.25rem}
.atelier-copy{position:absolute;top:.4rem;right:.4rem;padding:.2rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);font:600 .8rem/1.4 system-ui,sans-serif;cursor:pointer}
.atelier-copy:hover{border-color:var(--muted)}.atelier-copy:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
`.trim();

/** Live tables (table_view parts): figures, numbers, dates and choices as in the app's grid. */
const STYLE_TABLES = `
:root{--tone-ok:#1f6f30;--tone-ok-bg:#e6f4e9;--tone-info:#2f4ac0;--tone-info-bg:#e5eaff;--tone-warn:#8a3a06;--tone-warn-bg:#fdf0e4;--tone-muted:#5d6169;--tone-muted-bg:#efeee9;
--tone-violet:#5b3cc4;--tone-violet-bg:#efe9fd;--tone-teal:#0b6e7e;--tone-teal-bg:#e3f4f6;--tone-slate:#3f5168;--tone-slate-bg:#e8edf3;--tone-olive:#5c6410;--tone-olive-bg:#f1f3df}
@media (prefers-color-scheme:dark){:root{--tone-ok:#8ce99a;--tone-ok-bg:#1f3325;--tone-info:#a8b7ff;--tone-info-bg:#262d4d;--tone-warn:#ffc078;--tone-warn-bg:#3a2a1a;--tone-muted:#b4b7be;--tone-muted-bg:#2a2d33;
--tone-violet:#c7b5ff;--tone-violet-bg:#2f2748;--tone-teal:#7fdbe6;--tone-teal-bg:#173338;--tone-slate:#b8c7da;--tone-slate-bg:#283039;--tone-olive:#d8e08a;--tone-olive-bg:#2f321a}}
.atelier-table{margin:1.5rem 0}caption{text-align:left;font-weight:600;padding:.4rem 0;font-family:system-ui,sans-serif}
.atelier-table table{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:.88rem;font-variant-numeric:tabular-nums}
.atelier-table th,.atelier-table td{white-space:nowrap}
.atelier-table .num{text-align:right}
.atelier-table td.text{white-space:normal;min-width:12rem;max-width:28rem}
.atelier-table td.url{white-space:normal;overflow-wrap:anywhere;min-width:10rem}
.atelier-choice{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.8rem;font-weight:650;white-space:nowrap;color:var(--tone-muted);background:var(--tone-muted-bg)}
.atelier-choice[data-tone=ok]{color:var(--tone-ok);background:var(--tone-ok-bg)}.atelier-choice[data-tone=info]{color:var(--tone-info);background:var(--tone-info-bg)}
.atelier-choice[data-tone=warn]{color:var(--tone-warn);background:var(--tone-warn-bg)}.atelier-choice[data-tone=violet]{color:var(--tone-violet);background:var(--tone-violet-bg)}
.atelier-choice[data-tone=teal]{color:var(--tone-teal);background:var(--tone-teal-bg)}.atelier-choice[data-tone=slate]{color:var(--tone-slate);background:var(--tone-slate-bg)}
.atelier-choice[data-tone=olive]{color:var(--tone-olive);background:var(--tone-olive-bg)}
.atelier-more,.atelier-missing{color:var(--muted);font-size:.9em}
`.trim();

/** The stylesheet a composed document needs. */
function styleFor(body: string, hasTables: boolean): string {
  return [STYLE_BASE, body.includes("<pre") ? STYLE_CODE : "", hasTables ? STYLE_TABLES : ""].filter(Boolean).join("\n");
}

export interface RenderInput {
  title: string;
  summary: string;
  parts: Pick<PartDoc, "id" | "kind" | "body" | "position">[];
  /** Absolute URL of the artifact, for social previews. */
  url: string;
  /** The rendered HTML of each table_view part, by part id. */
  tables?: Record<string, string>;
}

/**
 * The standalone document for a page. A page that is exactly one HTML part is served as
 * given (it is the author's document); anything else is composed into our template.
 */
export function renderPage(input: RenderInput): string {
  const parts = [...input.parts].sort((a, b) => a.position - b.position);
  const only = parts[0];
  if (parts.length === 1 && only?.kind === "html") return only.body;
  const body = parts
    .map((p, i) => {
      switch (p.kind) {
        case "markdown":
          // The header prints the title: a body that opens with the same heading doesn't repeat it.
          return markdownToHtml(p.body, { title: i === 0 ? input.title : undefined });
        case "html":
          return p.body;
        case "table_view":
          return input.tables?.[p.id] ?? "";
      }
    })
    .join("\n");
  const title = escapeHtml(input.title);
  const summary = escapeHtml(input.summary);
  const url = escapeHtml(input.url);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${summary ? `<meta name="description" content="${summary}">\n` : ""}<meta property="og:type" content="article">
<meta property="og:title" content="${title}">
${summary ? `<meta property="og:description" content="${summary}">\n` : ""}<meta property="og:url" content="${url}">
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${title}">
${summary ? `<meta name="twitter:description" content="${summary}">\n` : ""}<link rel="canonical" href="${url}">
<style>${styleFor(
    body,
    parts.some((p) => p.kind === "table_view"),
  )}</style>
</head>
<body>
<main>
<header class="atelier-head"><h1>${title}</h1>${summary ? `<p class="atelier-summary">${summary}</p>` : ""}</header>
<article class="atelier-body">
${body}
</article>
</main>
</body>
</html>
`;
}

export function etagOf(html: string): string {
  return `"${sha256(html).slice(0, 32)}"`;
}

/**
 * The script a document gets when the app shows it in its page view (`?embed=1`), never on
 * the published page. Inside the sandboxed frame (an opaque origin: it cannot reach the
 * app), it tells the app how tall the document is, whenever that changes, so the frame is
 * sized to its content and nothing scrolls inside a scroll; and in our own template it adds
 * a "Copy" button to each code block and opens links in a new tab.
 */
const EMBED_SCRIPT = `<script>(function(){
if(window.parent===window)return;
var sent=-1,d=document;
function measure(){var b=d.body,e=d.documentElement;if(!b)return 0;var s=getComputedStyle(b);var h=Math.ceil(b.getBoundingClientRect().bottom+window.scrollY+(parseFloat(s.marginBottom)||0));return e.scrollHeight>e.clientHeight?Math.max(h,e.scrollHeight):h;}
function post(){var h=measure();if(h>0&&h!==sent){sent=h;parent.postMessage({type:"atelier:height",height:h},"*");}}
function copy(text,button){function done(ok){button.textContent=ok?"Copied":"Press Ctrl+C";status.textContent=ok?"Copied to the clipboard.":"";setTimeout(function(){button.textContent="Copy";},2000);}
function fallback(){var t=d.createElement("textarea");t.value=text;t.setAttribute("readonly","");t.style.position="fixed";t.style.opacity="0";d.body.appendChild(t);t.select();var ok=false;try{ok=d.execCommand("copy");}catch(e){}t.remove();done(ok);}
if(navigator.clipboard&&navigator.clipboard.writeText)navigator.clipboard.writeText(text).then(function(){done(true);},fallback);else fallback();}
var status=d.createElement("p");
function decorate(){var body=d.querySelector("article.atelier-body");if(!body)return;
status.setAttribute("role","status");status.style.cssText="position:absolute;top:0;left:0;margin:0;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)";d.body.appendChild(status);
body.querySelectorAll("pre").forEach(function(pre){var code=pre.querySelector("code")||pre;var box=d.createElement("div");box.className="atelier-code";pre.parentNode.insertBefore(box,pre);box.appendChild(pre);
var b=d.createElement("button");b.type="button";b.className="atelier-copy";b.textContent="Copy";b.title="Copy the code";b.addEventListener("click",function(){copy(code.textContent||"",b);});box.appendChild(b);});
d.querySelectorAll("main a[href]").forEach(function(a){var h=a.getAttribute("href")||"";if(h.charAt(0)!=="#"&&!a.target){a.target="_blank";a.rel="noopener noreferrer";}});}
function start(){decorate();post();if(window.ResizeObserver){var r=new ResizeObserver(post);r.observe(d.documentElement);if(d.body)r.observe(d.body);}window.addEventListener("load",post);if(d.fonts&&d.fonts.ready)d.fonts.ready.then(post);}
if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",start);else start();
})();</script>`;

/** A stored document as the app's page view embeds it: with EMBED_SCRIPT, before `</body>` when there is one. */
export function embeddedDocument(html: string): string {
  const at = html.toLowerCase().lastIndexOf("</body>");
  return at < 0 ? html + EMBED_SCRIPT : html.slice(0, at) + EMBED_SCRIPT + html.slice(at);
}

/** The ETag of the embedded form of a document whose own ETag is `etag` (a different representation). */
export function embeddedEtag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-embed"` : `${etag}-embed`;
}
