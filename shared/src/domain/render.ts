// Rendering on write (docs/ARCHITECTURE.md#content): Markdown becomes sanitized HTML inside a standalone,
// readable document; an HTML page is kept as given. A read is then a lookup. The Markdown
// pipeline itself (sanitizer, highlighting, the title rule) is markdown.ts, shared with the
// app's preview and history.
// Longer than 300 lines on purpose: most of it is the standalone document's template and
// styles, which read best whole.
import type { PartDoc } from "../db/index";
import { createHash } from "node:crypto";
import { sha256 } from "../ids";
import { escapeHtml, markdownToHtml, renderTitled } from "./markdown";

export { escapeHtml, markdownToHtml };

/**
 * The version of what renderPage makes. Raise it when a change to the template or the
 * pipeline should reach documents already stored: a document made by an older renderer is
 * made again when it is next read (artifacts.ts, `refreshStale`). 2: issue 27 (reading). 3: the
 * Markdown alternate link (issue 26). 4: images load lazily, files sized (issue 29). 5: the
 * live script (issue 25). 6: the view beacon and the footer saying how views are counted (issue 32).
 * 7: no beacon (views are counted where the page is served, or from nginx's log).
 */
export const RENDERER_VERSION = 7;

// The document's stylesheet, in parts: a page carries the rules for code only when it has a
// code block, and those for live tables only when it shows one (rendered documents count
// toward a workspace's usage, and every read sends them). Dark colours apply on screens only,
// so a page prints dark on white whatever the reader's theme. The measure (about 70
// characters a line) and the scales are in docs/decisions.md (issue 27).
const STYLE_COLOURS = `
:root{color-scheme:light dark;--fg:#1c1d21;--bg:#fffefb;--muted:#5f636b;--line:#e4e3dc;--code:#f3f2ec;--accent:#2f4fc9;--edge:rgb(28 29 33/.28)}
@media screen and (prefers-color-scheme:dark){:root{--fg:#e8e8eb;--bg:#141518;--muted:#a2a5ad;--line:#2d2f35;--code:#1f2126;--accent:#94a7ff;--edge:rgb(232 232 235/.22)}}
*{box-sizing:border-box}
`.trim();

const STYLE_BASE = `
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.65 Charter,"Iowan Old Style",Georgia,Cambria,serif;-webkit-text-size-adjust:100%;overflow-wrap:break-word}
main{max-width:calc(55ch + 2.5rem);margin:0 auto;padding:2.5rem 1.25rem 4rem}
header.atelier-head{margin-bottom:2rem;border-bottom:1px solid var(--line);padding-bottom:1.25rem}
footer.atelier-foot{margin-top:3rem;border-top:1px solid var(--line);padding-top:.75rem;font-size:.85rem}footer.atelier-foot a{color:var(--muted)}
h1,h2,h3,h4,h5,h6{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.25;margin:2em 0 .6em;text-wrap:balance}
h1{font-size:1.9rem}h2{font-size:1.45rem}h3{font-size:1.2rem}h4,h5,h6{font-size:1rem}
header.atelier-head h1{font-size:2.1rem;margin:0 0 .5rem}
.atelier-body>:first-child{margin-top:0}
p,li,h1,h2,h3,h4,h5,h6,blockquote,th,td{unicode-bidi:plaintext}
.atelier-summary{color:var(--muted);font-size:1.1rem;margin:0}
a{color:var(--accent)}
img,video{max-width:100%;height:auto}
code{font:.88em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:.1em .3em;border-radius:4px}
blockquote{margin:1.25rem 0;padding:.25rem 1rem;border-left:3px solid var(--line);color:var(--muted)}
.contains-task-list{padding-left:1.6rem}.task-list-item{list-style:none}.task-list-item input{margin:0 .5rem 0 -1.5rem;vertical-align:-.1em}
hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
@media (max-width:600px){body{font-size:16px}main{padding:1.5rem 1rem 3rem}header.atelier-head h1{font-size:1.7rem}h1{font-size:1.6rem}h2{font-size:1.3rem}}
@media print{:root{color-scheme:light}body{font-size:11pt}main{max-width:none;padding:0}a{color:inherit}.atelier-body a[href^=http]::after{content:" (" attr(href) ")";color:var(--muted);font-size:.85em;overflow-wrap:anywhere}h1,h2,h3,h4{break-after:avoid}blockquote,img,figure{break-inside:avoid}}
`.trim();

/**
 * What scrolls sideways (code blocks, tables) says so: a shadow at the edge where more is out
 * of sight (pure CSS: covers that scroll with the content over shadows that stay), and a ring
 * when it has the keyboard. Printed, nothing scrolls.
 */
const STYLE_SCROLL = `
pre,.atelier-scroll{--s:var(--code);overflow:auto;background:linear-gradient(90deg,var(--s) 40%,#0000) 0/2rem 100% no-repeat local,linear-gradient(270deg,var(--s) 40%,#0000) 100%/2rem 100% no-repeat local,radial-gradient(farthest-side at 0,var(--edge),#0000) 0/.8rem 100% no-repeat,radial-gradient(farthest-side at 100%,var(--edge),#0000) 100%/.8rem 100% no-repeat,var(--s)}
pre:focus-visible,.atelier-scroll:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
@media print{pre,.atelier-scroll{background:none;overflow:visible}}
`.trim();

/** Tables: in a frame of their own that scrolls, with the header row kept in sight. */
const STYLE_GRID = `
.atelier-scroll{--s:var(--bg);max-height:36rem;margin:1.25rem 0;border:1px solid var(--line);border-radius:8px}
table{border-collapse:separate;border-spacing:0;width:max-content;min-width:100%;font-size:.95em}
th,td{padding:.45rem .7rem;border-bottom:1px solid var(--line);text-align:start;vertical-align:top;max-width:22rem}
tr:last-child>td{border-bottom:0}
th{background:var(--code);position:sticky;top:0;z-index:1}
th[align=left],td[align=left]{text-align:left}th[align=center],td[align=center]{text-align:center}th[align=right],td[align=right]{text-align:right}
@media print{.atelier-scroll{max-height:none;border:0}table{width:auto}th{position:static}tr{break-inside:avoid}}
`.trim();

/** Highlighted code (light and dark) and the Copy button the app's embedded view adds. */
const STYLE_CODE = `
pre{font:.88em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;padding:1rem;border-radius:8px}
pre code{font:inherit;background:none;padding:0}
@media print{pre{white-space:pre-wrap;border:1px solid var(--line);break-inside:avoid}}
:root{--hl-keyword:#cf222e;--hl-string:#0a3069;--hl-number:#0550ae;--hl-comment:#5f636b;--hl-title:#6639ba;--hl-builtin:#953800;--hl-name:#116329;--hl-del-bg:#ffebe9;--hl-add-bg:#dafbe1}
@media screen and (prefers-color-scheme:dark){:root{--hl-keyword:#ff7b72;--hl-string:#a5d6ff;--hl-number:#79c0ff;--hl-comment:#a2a5ad;--hl-title:#d2a8ff;--hl-builtin:#ffa657;--hl-name:#7ee787;--hl-del-bg:#4a1f22;--hl-add-bg:#1c3a25}}
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
@media screen and (prefers-color-scheme:dark){:root{--tone-ok:#8ce99a;--tone-ok-bg:#1f3325;--tone-info:#a8b7ff;--tone-info-bg:#262d4d;--tone-warn:#ffc078;--tone-warn-bg:#3a2a1a;--tone-muted:#b4b7be;--tone-muted-bg:#2a2d33;
--tone-violet:#c7b5ff;--tone-violet-bg:#2f2748;--tone-teal:#7fdbe6;--tone-teal-bg:#173338;--tone-slate:#b8c7da;--tone-slate-bg:#283039;--tone-olive:#d8e08a;--tone-olive-bg:#2f321a}}
.atelier-table{margin:1.5rem 0}.atelier-table figcaption{font:600 1rem/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 0 .4rem}
.atelier-table .atelier-scroll{margin:0}
.atelier-table table{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:.88rem;font-variant-numeric:tabular-nums}
.atelier-table th,.atelier-table td{white-space:nowrap}
.atelier-table th button{font:inherit;color:inherit;background:none;border:0;padding:0;cursor:pointer;text-align:inherit}
.atelier-table th button::after{content:"↕"/"";padding-left:.3em;opacity:.45}.atelier-table th[aria-sort=ascending] button::after{content:"↑"/"";opacity:1}.atelier-table th[aria-sort=descending] button::after{content:"↓"/"";opacity:1}
.atelier-table th button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.atelier-filter{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;margin:0 0 .5rem;font:.88rem/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--muted)}
.atelier-filter input{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:.3rem .6rem;width:16rem;max-width:100%}
.atelier-table .num{text-align:right}
.atelier-table td.text{white-space:normal;min-width:12rem;max-width:28rem}
.atelier-table td.url{white-space:normal;overflow-wrap:anywhere}
.atelier-choice{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.8rem;font-weight:650;white-space:nowrap;color:var(--tone-muted);background:var(--tone-muted-bg)}
.atelier-choice[data-tone=ok]{color:var(--tone-ok);background:var(--tone-ok-bg)}.atelier-choice[data-tone=info]{color:var(--tone-info);background:var(--tone-info-bg)}
.atelier-choice[data-tone=warn]{color:var(--tone-warn);background:var(--tone-warn-bg)}.atelier-choice[data-tone=violet]{color:var(--tone-violet);background:var(--tone-violet-bg)}
.atelier-choice[data-tone=teal]{color:var(--tone-teal);background:var(--tone-teal-bg)}.atelier-choice[data-tone=slate]{color:var(--tone-slate);background:var(--tone-slate-bg)}
.atelier-choice[data-tone=olive]{color:var(--tone-olive);background:var(--tone-olive-bg)}
.atelier-more,.atelier-missing{color:var(--muted);font-size:.9em}
`.trim();

/** The stylesheet a composed document needs. */
function styleFor(body: string, hasTables: boolean): string {
  const code = body.includes("<pre");
  const grid = body.includes("<table");
  return [STYLE_COLOURS, STYLE_BASE, code || grid ? STYLE_SCROLL : "", code ? STYLE_CODE : "", grid ? STYLE_GRID : "", hasTables ? STYLE_TABLES : ""]
    .filter(Boolean)
    .join("\n");
}

/**
 * Readers sort a live table by any column (a button in each header, aria-sort says which way)
 * and, when it has more than five rows, filter it by a word. It fails closed: the table is
 * complete and readable as rendered, the script only reorders and hides rows, and any error
 * leaves it as it was. It runs in the document's opaque origin (the artifact CSP's sandbox)
 * and needs nothing from it: no storage, no network.
 */
const TABLE_SCRIPT = `<script>(function(){var d=document;
function key(c){if(!c)return"";var t=c.querySelector("time");if(t)return t.getAttribute("datetime")||"";var s=(c.textContent||"").trim();if(s&&c.className==="num"){var n=Number(s.replace(/,/g,""));if(!isNaN(n))return n;}return s;}
function cmp(a,b,desc){if(a===b)return 0;if(a==="")return 1;if(b==="")return -1;var c=typeof a==="number"&&typeof b==="number"?a-b:String(a).localeCompare(String(b),undefined,{numeric:true,sensitivity:"base"});return desc?-c:c;}
d.querySelectorAll("figure.atelier-table").forEach(function(fig){try{var table=fig.querySelector("table"),body=table&&table.tBodies[0],head=table&&table.tHead;if(!body||!head||!head.rows[0])return;
var rows=[].slice.call(body.rows),heads=[].slice.call(head.rows[0].cells),name=(fig.querySelector("figcaption")||{}).textContent||"the table";
heads.forEach(function(th,col){var b=d.createElement("button");b.type="button";while(th.firstChild)b.appendChild(th.firstChild);th.appendChild(b);
b.addEventListener("click",function(){var was=th.getAttribute("aria-sort"),dir=was==="ascending"?"descending":"ascending",keys=rows.map(function(r){return key(r.cells[col]);});
heads.forEach(function(h){h.removeAttribute("aria-sort");});th.setAttribute("aria-sort",dir);
rows.map(function(r,i){return i;}).sort(function(i,j){return cmp(keys[i],keys[j],dir==="descending")||i-j;}).forEach(function(i){body.appendChild(rows[i]);});});});
if(rows.length<6)return;var box=d.createElement("div"),input=d.createElement("input"),note=d.createElement("span"),texts=rows.map(function(r){return(r.textContent||"").toLowerCase();});
box.className="atelier-filter";input.type="search";input.placeholder="Filter rows";input.setAttribute("aria-label","Filter "+name);note.setAttribute("role","status");
input.addEventListener("input",function(){var q=input.value.trim().toLowerCase(),n=0;rows.forEach(function(r,i){var on=!q||texts[i].indexOf(q)>=0;r.hidden=!on;if(on)n++;});note.textContent=q?n+" of "+rows.length+" rows":"";});
box.appendChild(input);box.appendChild(note);fig.insertBefore(box,fig.querySelector(".atelier-scroll"));}catch(e){}});})();</script>`;

/**
 * Keeps an open page current (docs/events.md#live-streams): listens to the page's public
 * stream (only "the document changed" and "gone") and loads the page again when it changes,
 * at an address of that state (`?v=`) so that no shared cache answers with the old copy.
 * Only in our template: an author's own HTML document is served as given, without it.
 * Inert inside a frame (the app's page view refreshes itself), at a pinned version, and
 * where EventSource is missing. Fails closed: all of it is in a try.
 */
const LIVE_SCRIPT = `<script data-atelier-live>(function(){try{
if(window.parent!==window||typeof EventSource!=="function")return;
var p=location.pathname,m,q;
if((m=/^\\/a\\/([a-z0-9][a-z0-9-]*)$/.exec(p)))q="a="+m[1];
else if((m=/^\\/artifacts\\/([0-9a-f-]{36})$/.exec(p)))q="id="+m[1];
else if((m=/^\\/s\\/([A-Za-z0-9_-]{20,64})(?:\\/([a-z0-9][a-z0-9-]*))?$/.exec(p)))q="s="+m[1]+(m[2]?"&page="+m[2]:"");
else return;
var es=new EventSource("/api/events/page?"+q),seen=null;
function load(v){es.close();location.replace(p+"?v="+encodeURIComponent(v));}
es.addEventListener("ready",function(e){var v=JSON.parse(e.data).state;if(seen===null)seen=v;else if(v!==seen)load(v);});
es.addEventListener("change",function(e){load(JSON.parse(e.data).state);});
es.addEventListener("gone",function(){es.close();location.replace(p);});
}catch(e){}})();</script>`;

/**
 * The scripts a composed document carries, each only where it is needed (every read sends
 * them). The one place to add another: they go in this order before `</body>`.
 */
function scriptsFor(features: { liveTables: boolean }): string[] {
  return features.liveTables ? [TABLE_SCRIPT, LIVE_SCRIPT] : [LIVE_SCRIPT];
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
  // The title shows once: a first Markdown part that opens with it (or close to it) gives the heading (markdown.ts).
  let heading = escapeHtml(input.title);
  const body = parts
    .map((p, i) => {
      switch (p.kind) {
        case "markdown": {
          if (i !== 0) return markdownToHtml(p.body);
          const titled = renderTitled(p.body, input.title);
          heading = titled.heading;
          return titled.html;
        }
        case "html":
          return p.body;
        case "table_view":
          return input.tables?.[p.id] ?? "";
      }
    })
    .join("\n");
  const liveTables = parts.some((p) => p.kind === "table_view");
  return composeDocument({
    title: input.title,
    summary: input.summary,
    url: input.url,
    heading,
    body,
    style: styleFor(body, liveTables),
    scripts: scriptsFor({ liveTables }),
  });
}

/** Our template: head (title, description, social tags, stylesheet), the page's header, its body, then its scripts. */
function composeDocument(d: { title: string; summary: string; url: string; heading: string; body: string; style: string; scripts: string[] }): string {
  const title = escapeHtml(d.title);
  const summary = escapeHtml(d.summary);
  const url = escapeHtml(d.url);
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
<link rel="alternate" type="text/markdown" href="${url}.md">
<style>${d.style}</style>
</head>
<body>
<main>
<header class="atelier-head"><h1>${d.heading}</h1>${summary ? `<p class="atelier-summary">${summary}</p>` : ""}</header>
<article class="atelier-body">
${d.body}
</article>
<footer class="atelier-foot"><a href="/privacy#reading-figures">Views are counted without cookies</a></footer>
</main>
${d.scripts.map((s) => `${s}\n`).join("")}</body>
</html>
`;
}

/** The Atelier mark (the app's brand.tsx), in the document's colours. */
const BRAND_MARK = `<svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true"><rect x="3" y="7" width="18" height="22" rx="3" fill="var(--soft)"/><path d="M11 3h12l6 6v16a3 3 0 0 1-3 3H11a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3Z" fill="var(--accent)"/><path d="M23 3v4a2 2 0 0 0 2 2h4M13 15h10M13 19h10M13 23h6" fill="none" stroke="var(--bg)" stroke-width="1.7" stroke-linecap="round"/></svg>`;

const STYLE_NOT_FOUND = `
:root{--soft:#dde4ff}@media screen and (prefers-color-scheme:dark){:root{--soft:#28305a}}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:34rem;margin:0 auto;padding:12vh 1.25rem 3rem}
.brand{display:inline-flex;align-items:center;gap:.5rem;color:var(--fg);font-weight:650;text-decoration:none}
h1{font-size:1.9rem;line-height:1.25;margin:2.5rem 0 .75rem}p{margin:0 0 1.25rem;color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem 1.25rem;align-items:center}a{color:var(--accent)}
.button{display:inline-block;padding:.6rem 1.1rem;border-radius:8px;background:var(--accent);color:var(--bg);font-weight:650;text-decoration:none}
a:focus-visible{outline:2px solid var(--accent);outline-offset:3px}
`.trim();

/**
 * What a published address answers when there is nothing to show: the page is missing, or it
 * is in a private workspace the visitor may not read (the same answer, so nothing is given
 * away). Branded, in both themes. For a page's address, `next` is the path to come back to
 * after signing in (a path on this origin, never an address elsewhere); a share link that
 * opens nothing gets no sign-in (signing in would not help).
 */
export function notFoundDocument(options: { next: string | null } | { shareLink: true }): string {
  const page = !("shareLink" in options);
  const signIn = page ? `/app/sign-in${options.next ? `?next=${encodeURIComponent(options.next)}` : ""}` : null;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Not found · Atelier</title>
<style>${STYLE_COLOURS}\n${STYLE_NOT_FOUND}</style>
</head>
<body>
<main>
<a class="brand" href="/app/">${BRAND_MARK}Atelier</a>
${
  signIn
    ? `<h1>This page isn’t here</h1>
<p>It may have been deleted or moved, or it’s in a private workspace. If you’re a member, sign in and you’ll come straight back to it.</p>
<p class="actions"><a class="button" href="${escapeHtml(signIn)}">Sign in</a><a href="/app/">Go to Atelier</a></p>`
    : `<h1>This link doesn’t open anything</h1>
<p>It may have been revoked, or what it shared was deleted. Ask whoever sent it for a new one.</p>
<p class="actions"><a class="button" href="/app/">Go to Atelier</a></p>`
}
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
function copy(text,button){function done(ok){button.textContent=ok?"Copied":"Press Ctrl+C";status.textContent=ok?"Copied to the clipboard.":"Could not copy: select the code and press Ctrl+C.";setTimeout(function(){button.textContent="Copy";},2000);}
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

/**
 * The app's page view prints the title and the summary itself: in our template, the
 * document's own header is hidden there, so the title shows once in the app too.
 */
const EMBED_STYLE = "<style>header.atelier-head{display:none}</style>";

/** A stored document as the app's page view embeds it: with EMBED_SCRIPT, before `</body>` when there is one. */
export function embeddedDocument(html: string): string {
  const at = html.toLowerCase().lastIndexOf("</body>");
  const scripted = at < 0 ? html + EMBED_SCRIPT : html.slice(0, at) + EMBED_SCRIPT + html.slice(at);
  const head = scripted.indexOf("</head>");
  return head >= 0 && scripted.includes('<header class="atelier-head">') ? scripted.slice(0, head) + EMBED_STYLE + scripted.slice(head) : scripted;
}

/** The ETag of the embedded form of a document whose own ETag is `etag` (a different representation). */
export function embeddedEtag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-embed"` : `${etag}-embed`;
}

// ---------------------------------------------------------------------------------------
// A live view of an HTML artifact (docs/decisions.md#html-artifacts-and-live-updates-issue-25):
// a page that is exactly one HTML part is its author's document, served as given; a browser
// opening it as a page (a top-level navigation) gets this small wrapper instead, which frames
// the author's document (sandboxed, an opaque origin, as ever) and reloads the frame when the
// page changes. No script of ours ever goes into the author's document.

/** Whether a rendered document is composed from our template (it then keeps itself current). */
export function isComposedDocument(html: string): boolean {
  return html.includes("<script data-atelier-live>");
}

const WRAP_STYLE = "html,body{margin:0;height:100%}iframe{display:block;border:0;width:100%;height:100%}";
const WRAP_SCRIPT = `(function(){try{
var f=document.getElementById("atelier-doc"),p=location.pathname,m=/^\\/a\\/([a-z0-9][a-z0-9-]*)$/.exec(p);
if(!f||!m||typeof EventSource!=="function")return;
var es=new EventSource("/api/events/page?a="+m[1]),seen=null;
function load(v){seen=v;f.src=p+"?v="+encodeURIComponent(v);}
es.addEventListener("ready",function(e){var v=JSON.parse(e.data).state;if(seen===null)seen=v;else if(v!==seen)load(v);});
es.addEventListener("change",function(e){load(JSON.parse(e.data).state);});
es.addEventListener("gone",function(){es.close();location.replace(p);});
}catch(e){}})();`;
const cspHash = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;

/**
 * The wrapper's policy: our one script and style by hash, the page stream, frames of this
 * origin; nothing else. Not sandboxed itself: the author's document refuses (frame-ancestors
 * 'self') to be framed by an opaque origin; the frame's sandbox attribute and the document's
 * own CSP keep the author's scripts in an opaque origin.
 */
export const LIVE_WRAPPER_CSP = `default-src 'none'; script-src ${cspHash(WRAP_SCRIPT)}; style-src ${cspHash(WRAP_STYLE)}; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;

/** The frame's sandbox: the same rights as the document's own CSP sandbox (never allow-same-origin). */
const FRAME_SANDBOX = "allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms allow-modals allow-downloads";

/** The live wrapper of the HTML artifact at `/a/{slug}`. */
export function liveWrapperDocument(input: { slug: string; title: string }): string {
  const title = escapeHtml(input.title);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${WRAP_STYLE}</style></head><body><iframe id="atelier-doc" title="${title}" sandbox="${FRAME_SANDBOX}" src="/a/${escapeHtml(input.slug)}"></iframe><script>${WRAP_SCRIPT}</script></body></html>`;
}

/** The wrapper's ETag beside its document's (another representation of the same state). */
export function wrapperEtag(etag: string): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-live"` : `${etag}-live`;
}
