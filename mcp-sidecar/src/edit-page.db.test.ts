// edit_page and diff_page_versions through the real MCP client over HTTP and the real database
// (issue 26 items 1 and 2): small edits, their refusals, racing edits, and conflicts that carry
// the current version and the diff from the caller's base.
import { applyUnifiedDiff } from "@atelier/shared/domain/text-diff";
import type { UserDoc } from "@atelier/shared/db";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "./testing";

let sc: TestSidecar;
let owner: UserDoc;
let credential: string;
let client: Client;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  sc = await startTestSidecar({}, "edit");
  owner = await makeUser(sc, `edit-${Date.now()}@example.com`);
  credential = (await makeToken(sc, owner, { label: "Editor bot" })).credential;
  client = await connectClient(sc, credential);
});
afterAll(async () => {
  await client.close();
  await sc.close();
});

type Structured = Record<string, unknown>;
async function call(c: Client, name: string, args: Record<string, unknown>) {
  const r = await c.callTool({ name, arguments: args });
  const text = (r.content as { text: string }[])[0]?.text ?? "";
  return {
    isError: r.isError === true,
    data: r.structuredContent as Structured,
    error: JSON.parse(text) as { error: string; message: string; details?: Structured },
  };
}

async function body(slug: string): Promise<{ text: string; version: number }> {
  const r = await call(client, "get_page", { slug });
  const page = r.data.page as { version: number; parts: { kind: string; body: string }[] };
  return { text: page.parts.find((p) => p.kind === "markdown")?.body ?? "", version: page.version };
}

async function makePage(text: string): Promise<string> {
  const slug = uniq("doc");
  const r = await call(client, "create_page", { slug, title: "Doc", body_markdown: text });
  expect(r.isError).toBe(false);
  return slug;
}

const DOC = [
  "# Guide",
  "",
  "Intro text.",
  "",
  "## Install",
  "",
  "Run the installer.",
  "",
  "```sh",
  "## not a heading",
  "```",
  "",
  "## Usage",
  "",
  "Call it.",
  "",
].join("\n");

describe("edit_page", () => {
  it("makes a one-line edit of a 100 KB page sending under 1 KB, and answers with the new version and a short diff", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `Line ${i} of the long report, with some words to make it longer.`);
    const big = lines.join("\n");
    expect(big.length).toBeGreaterThan(100_000);
    const slug = await makePage(big);

    // A client of its own whose fetch counts the bytes it sends.
    const sent: number[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${sc.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${credential}` } },
      fetch: (url, init) => {
        sent.push(typeof init?.body === "string" ? Buffer.byteLength(init.body) : 0);
        return fetch(url, init);
      },
    });
    const counted = new Client({ name: "counted", version: "1.0.0" });
    await counted.connect(transport);
    sent.length = 0;
    const r = await call(counted, "edit_page", {
      slug,
      expected_version: 1,
      edits: [{ op: "replace", find: "Line 1234 of the long report", replace: "Line 1234 of the short report" }],
    });
    await counted.close();
    expect(r.isError).toBe(false);
    const request = sent.reduce((a, b) => a + b, 0);
    expect(request).toBeGreaterThan(0);
    expect(request).toBeLessThan(1024);
    expect(r.data).toMatchObject({ slug, version: 2, diff_truncated: false });
    const diff = r.data.diff as string;
    expect(diff).toContain("-Line 1234 of the long report");
    expect(diff).toContain("+Line 1234 of the short report");
    expect(diff.length).toBeLessThan(1024);
    const after = await body(slug);
    expect(after.version).toBe(2);
    expect(after.text).toBe(big.replace("Line 1234 of the long report", "Line 1234 of the short report"));
    expect(applyUnifiedDiff(big, diff)).toBe(after.text);
  });

  it("inserts before and after a heading and appends to a section, ignoring headings in code, all as one version", async () => {
    const slug = await makePage(DOC);
    const r = await call(client, "edit_page", {
      slug,
      expected_version: 1,
      edits: [
        { op: "insert_before_heading", heading: "Usage", text: "Needs Node 22." },
        { op: "insert_after_heading", heading: "## Install", text: "On Linux:" },
        { op: "append_to_section", heading: "Install", text: "Then restart." },
        { op: "append_to_section", heading: "# Guide", text: "The end." },
        { op: "replace", find: "Call it.", replace: "Call it twice." },
      ],
    });
    expect(r.isError, JSON.stringify(r.error)).toBe(false);
    expect(r.data.version).toBe(2);
    const after = await body(slug);
    expect(after.text).toBe(
      [
        "# Guide",
        "",
        "Intro text.",
        "",
        "## Install",
        "",
        "On Linux:",
        "",
        "Run the installer.",
        "",
        "```sh",
        "## not a heading",
        "```",
        "",
        // In order: "Needs Node 22." ended the Install section when its append came.
        "Needs Node 22.",
        "",
        "Then restart.",
        "",
        "## Usage",
        "",
        "Call it twice.",
        "",
        "The end.",
        "",
      ].join("\n"),
    );
  });

  it("refuses a find that matches several times or none, and a heading found twice, naming the edit, with nothing written", async () => {
    const slug = await makePage(DOC + "\n## Usage\n\nAgain.\n");
    const history = async () => ((await call(client, "get_page_history", { slug })).data.versions as unknown[]).length;
    const cases = [
      {
        edits: [
          { op: "replace", find: "## Usage", replace: "x" },
          { op: "replace", find: "Intro", replace: "y" },
        ],
        at: 0,
        field: "find",
        code: "ambiguous",
      },
      {
        edits: [
          { op: "replace", find: "Intro", replace: "y" },
          { op: "replace", find: "Missing words", replace: "z" },
        ],
        at: 1,
        field: "find",
        code: "no_match",
      },
      { edits: [{ op: "append_to_section", heading: "Usage", text: "More." }], at: 0, field: "heading", code: "ambiguous" },
      { edits: [{ op: "insert_after_heading", heading: "not a heading", text: "More." }], at: 0, field: "heading", code: "no_match" },
    ];
    for (const c of cases) {
      const r = await call(client, "edit_page", { slug, expected_version: 1, edits: c.edits });
      expect(r.isError).toBe(true);
      expect(r.error.error).toBe("invalid_request");
      expect(r.error.message).toMatch(new RegExp(`^Edit ${c.at + 1} \\(`));
      expect(r.error.details?.issues).toEqual([expect.objectContaining({ path: `edits.${c.at}.${c.field}`, code: c.code })]);
    }
    const after = await body(slug);
    expect(after.version).toBe(1);
    expect(after.text).toBe(DOC + "\n## Usage\n\nAgain.\n");
    expect(await history()).toBe(1);
  });

  it("lets one of racing edits on the same base win; the others get conflicts with the current version and the diff from their base", async () => {
    const slug = await makePage(DOC);
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectClient(sc, credential)));
    const results = await Promise.all(
      clients.map((c, i) =>
        call(c, "edit_page", { slug, expected_version: 1, edits: [{ op: "replace", find: "Intro text.", replace: `Intro by writer ${i}.` }] }),
      ),
    );
    await Promise.all(clients.map((c) => c.close()));
    const wins = results.filter((r) => !r.isError);
    const conflicts = results.filter((r) => r.isError);
    expect(wins).toHaveLength(1);
    expect(conflicts).toHaveLength(4);
    const head = await body(slug);
    expect(head.version).toBe(2);
    for (const c of conflicts) {
      expect(c.error.error).toBe("version_conflict");
      // A loser that met the winner's claim sees version 1 still being changed; one that came after sees 2 and the diff.
      const details = c.error.details ?? {};
      expect([1, 2]).toContain(details.current_version);
      if (details.current_version === 2) {
        expect(details.base_version).toBe(1);
        expect(applyUnifiedDiff(DOC, details.diff as string)).toBe(head.text);
      }
    }
    // A late writer on the stale base always gets the head and the diff.
    const late = await call(client, "edit_page", { slug, expected_version: 1, edits: [{ op: "replace", find: "Call it.", replace: "Late." }] });
    expect(late.error).toMatchObject({ error: "version_conflict", details: { current_version: 2, base_version: 1, diff_truncated: false } });
    expect(applyUnifiedDiff(DOC, late.error.details?.diff as string)).toBe(head.text);
  });

  it("carries the conflict's details as structuredContent on 2026-07-28, and the same in update_page's conflicts", async () => {
    const slug = await makePage(DOC);
    expect((await call(client, "update_page", { slug, body_markdown: DOC.replace("Call it.", "Call it now."), expected_version: 1 })).isError).toBe(false);
    const modern = await connectClient(sc, credential, "modern");
    const r = await modern.callTool({ name: "update_page", arguments: { slug, body_markdown: "Mine.", expected_version: 1 } });
    await modern.close();
    expect(r.isError).toBe(true);
    const s = r.structuredContent as { error: string; details: { current_version: number; base_version: number; diff: string } };
    expect(s).toMatchObject({ error: "version_conflict", details: { current_version: 2, base_version: 1 } });
    expect(applyUnifiedDiff(DOC, s.details.diff)).toBe(DOC.replace("Call it.", "Call it now."));
  });
});

describe("diff_page_versions", () => {
  it("diffs two kept versions or a version and the head, and refuses a version not kept", async () => {
    const slug = await makePage(DOC);
    const v2 = DOC.replace("Intro text.", "Intro, revised.");
    expect((await call(client, "update_page", { slug, body_markdown: v2, expected_version: 1 })).isError).toBe(false);
    const v3 = v2 + "\nA new line.\n";
    expect((await call(client, "update_page", { slug, body_markdown: v3, title: "Doc 3", expected_version: 2 })).isError).toBe(false);

    const head = await call(client, "diff_page_versions", { slug, from: 1 });
    expect(head.data).toMatchObject({ slug, from: 1, to: 3, title_from: "Doc", title_to: "Doc 3", lines_added: 3, lines_removed: 1 });
    expect(applyUnifiedDiff(DOC, head.data.diff as string)).toBe(v3);
    const back = await call(client, "diff_page_versions", { slug, from: 3, to: 2 });
    expect(applyUnifiedDiff(v3, back.data.diff as string)).toBe(v2);
    expect((await call(client, "diff_page_versions", { slug, from: 2, to: 2 })).data.diff).toBe("");

    const missing = await call(client, "diff_page_versions", { slug, from: 9 });
    expect(missing.isError).toBe(true);
    expect(missing.error.error).toBe("not_found");
  });
});
