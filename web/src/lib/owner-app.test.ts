import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { describeActor, describeEvent, EMPTY_DIRECTORY, type Directory } from "./actors";
import { changedFields, draftOf, editableKind, isEmptyUpdate, keepMine, updateInputFor, type EditablePage } from "./draft";
import { describeError, fieldIssue, isMissingProcedure, isVersionConflict } from "./errors";
import { formatBytes, plural, relativeTime } from "./format";
import { isValidSlug, slugify, slugProblem } from "./slug";

function serverError(
  httpStatus: number,
  appCode: string | null,
  message = "from the server",
  issues: { path: string; code: string; message: string }[] | null = null,
) {
  return TRPCClientError.from(
    { error: { code: -32600, message, data: { code: "BAD_REQUEST", httpStatus, path: "x", appCode, issues } } },
    { meta: { response: new Response(null, { status: httpStatus }) } },
  );
}

describe("slugs", () => {
  it("suggests a slug from a name, folding accents and punctuation", () => {
    expect(slugify("Q3 Research — Notes!")).toBe("q3-research-notes");
    expect(slugify("Café Ünïcode")).toBe("cafe-unicode");
    expect(slugify("  --  ")).toBe("");
    expect(slugify("a".repeat(70))).toHaveLength(64);
    expect(slugify(`${"a".repeat(63)} b`)).toBe("a".repeat(63));
  });

  it("says what is wrong with a slug in words", () => {
    expect(slugProblem("good-slug-2")).toBeNull();
    expect(slugProblem("")).toMatch(/Choose/);
    expect(slugProblem("Bad")).toMatch(/lower-case/);
    expect(slugProblem("no spaces")).toMatch(/only letters/);
    expect(slugProblem("-edge")).toMatch(/start or end/);
    expect(slugProblem("a".repeat(65))).toMatch(/64/);
    expect(isValidSlug("a")).toBe(true);
    expect(isValidSlug("a-")).toBe(false);
  });
});

describe("formatting", () => {
  it("reads times relative to now, and treats a slightly fast server clock as now", () => {
    const now = Date.parse("2025-03-12T12:00:00Z");
    expect(relativeTime("2025-03-12T11:59:50Z", now)).toBe("just now");
    expect(relativeTime("2025-03-12T12:01:00Z", now)).toBe("just now");
    expect(relativeTime("2025-03-12T11:55:00Z", now)).toBe("5 minutes ago");
    expect(relativeTime("2025-03-11T12:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2025-03-20T12:00:00Z", now)).toBe("in 8 days");
  });

  it("sizes and counts", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB");
    expect(plural(1, "page")).toBe("1 page");
    expect(plural(3, "page")).toBe("3 pages");
  });
});

describe("the editor's model", () => {
  const page: EditablePage = {
    slug: "plan",
    version: 7,
    title: "Plan",
    summary: "",
    parts: [
      { kind: "table_view", body: "<table></table>", position: 1 },
      { kind: "markdown", body: "# Plan", position: 0 },
    ],
  };

  it("edits the first Markdown part, else HTML, and sends only what changed", () => {
    expect(editableKind(page)).toBe("markdown");
    expect(editableKind({ parts: [{ kind: "html", body: "", position: 0 }] })).toBe("html");
    expect(editableKind({ parts: [{ kind: "table_view", body: "", position: 0 }] })).toBeNull();
    const input = updateInputFor(page, { ...draftOf(page), body: "# Plan\n\nmore" });
    expect(input).toEqual({ slug: "plan", expected_version: 7, body_markdown: "# Plan\n\nmore" });
    expect(isEmptyUpdate(updateInputFor(page, draftOf(page)))).toBe(true);
  });

  it("keeps the other side's unrelated changes when saving over them", () => {
    const base = { title: "Plan", summary: "", body: "one", tables: "[]" };
    const mine = { title: "Plan", summary: "", body: "one, two", tables: "[]" };
    const theirs = { title: "Plan (agent)", summary: "", body: "one!", tables: "[]" };
    expect(keepMine(base, mine, theirs)).toEqual({ title: "Plan (agent)", summary: "", body: "one, two", tables: "[]" });
    expect(changedFields(base, theirs)).toEqual(["title", "body"]);
  });
});

describe("people and agents", () => {
  const directory: Directory = {
    meId: "usr_me",
    emails: new Map([
      ["usr_me", "me@example.com"],
      ["usr_ana", "ana@example.com"],
    ]),
    agentOwners: new Map([["tok_1", "ana@example.com"]]),
    agentLabels: new Map([["tok_1", "Research bot"]]),
  };

  it("names an agent with the person it acts for", () => {
    expect(
      describeActor({ kind: "agent", user_id: "usr_ana", token_id: "tok_1", label: "Research bot", withheld: false, unclaimed: false }, directory),
    ).toEqual({
      kind: "agent",
      name: "Research bot",
      forWhom: "for ana@example.com",
    });
    expect(describeActor({ kind: "agent", user_id: "usr_me", token_id: "tok_2", label: "CLI", withheld: false, unclaimed: false }, directory).forWhom).toBe(
      "for you",
    );
    // Written before its sandbox was claimed (no user then), now the signed-in person's agent.
    const claimed = { ...directory, agentOwners: new Map([["tok_9", "me@example.com"]]) };
    expect(describeActor({ kind: "agent", user_id: null, token_id: "tok_9", label: "Scout", withheld: false, unclaimed: false }, claimed).forWhom).toBe(
      "for you",
    );
    expect(describeActor({ kind: "agent", user_id: null, token_id: "tok_3", label: "Sandbox", withheld: false, unclaimed: true }).forWhom).toMatch(
      /not yet claimed/,
    );
    // An outsider reading a public page: a person's agent, with whom it acts for withheld.
    const outside = describeActor({ kind: "agent", user_id: null, token_id: null, label: "Scout", withheld: true, unclaimed: false });
    expect(outside).toEqual({ kind: "agent", name: "Scout", forWhom: null });
    // A member reading an old write of a sandbox claimed since: not "not yet claimed".
    expect(describeActor({ kind: "agent", user_id: null, token_id: "tok_4", label: "Sandbox", withheld: false, unclaimed: false }).forWhom).toBeNull();
    expect(describeActor({ kind: "user", user_id: "usr_me", token_id: null, label: "me@example.com", withheld: false, unclaimed: false }, directory).name).toBe(
      "You",
    );
  });

  it("tells what an event did, filling in names the event itself lacks", () => {
    expect(describeEvent({ type: "agent.blocked", target: { kind: "token", id: "tok_1", label: "" } }, directory)).toEqual({
      verb: "cut off",
      target: { text: "Research bot", kind: "agent" },
      suffix: "",
    });
    expect(describeEvent({ type: "member.role_changed", target: { kind: "member", id: "usr_ana", label: "viewer" } }, directory)).toEqual({
      verb: "made",
      target: { text: "ana@example.com", kind: "person" },
      suffix: " viewer",
    });
    expect(describeEvent({ type: "page.deleted", target: { kind: "page", id: "p", label: "old" } }).target?.kind).toBe("page-gone");
    expect(describeEvent({ type: "workspace.public", target: { kind: "workspace", id: "w", label: "ws" } }, EMPTY_DIRECTORY).target).toBeNull();
    expect(describeEvent({ type: "page.archived", target: { kind: "page", id: "p", label: "x" } }).verb).toBe("archived");
  });
});

describe("describing failures", () => {
  it("turns field issues into sentences and spots conflicts", () => {
    const invalid = serverError(400, "invalid_request", "slug: must be lower-case", [
      { path: "slug", code: "invalid_format", message: "must be lower-case letters" },
    ]);
    expect(fieldIssue(invalid, "slug")).toBe("The slug must be lower-case letters.");
    expect(describeError(invalid)).toBe("The slug must be lower-case letters.");
    expect(isVersionConflict(serverError(409, "version_conflict"))).toBe(true);
    expect(describeError(serverError(403, "forbidden", "Only the workspace owner can do that."))).toBe("Only the workspace owner can do that.");
  });

  it("recognises a server that lacks a procedure", () => {
    const missing = serverError(404, null, 'No procedure found on path "workspaces.nope"');
    expect(isMissingProcedure(missing)).toBe(true);
    expect(describeError(missing)).toMatch(/doesn’t offer that yet/);
    expect(isMissingProcedure(serverError(404, "not_found", "No such page."))).toBe(false);
  });
});
