// The pages the authorization server shows on its own origin when it will not go on: an
// authorization request refused, one that expired, too many requests. Plain HTML with the
// app's colours in both themes; every string that came from a request is escaped.

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function refusalPage(p: { title: string; heading: string; message: string; error?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(p.title)} · Atelier</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1.25rem;color:#1c1d21;background:#fffefb}@media (prefers-color-scheme:dark){body{color:#e8e8eb;background:#141518}a{color:#9db7ff}}code{font:14px ui-monospace,monospace;overflow-wrap:anywhere}p{overflow-wrap:anywhere}</style></head>
<body><main><h1>${esc(p.heading)}</h1><p>${esc(p.message)}</p>${p.error ? `<p>Error: <code>${esc(p.error)}</code></p>` : ""}<p>Go back to the app that sent you here and connect again. The guide: <a href="/docs/connect/agents">connecting an agent</a>.</p></main></body></html>`;
}
