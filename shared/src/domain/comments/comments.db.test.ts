// Comments on the embedded database: anchored on a passage, a page or a row; threads,
// resolve/reopen, edit/delete own; who may; limits; bytes in the usage and a change on the
// feed for each change; gone with their page, table or workspace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../db/index";
import { AppError } from "../../errors";
import { testDatabase, testDeps, type TestDatabase, type TestDeps } from "../../testing/index";
import type { Principal } from "../access";
import { addSeconds, now } from "../clock";
import { readChanges } from "../changes/feed";
import { countUsage } from "../limits";
import { createPage } from "../pages/create-page";
import { deletePage } from "../pages/delete-page";
import { updatePage } from "../pages/update-page";
import { createCollection } from "../tables/create-collection";
import { insertRows } from "../tables/insert-rows";
import { issueToken } from "../tokens";
import { findOrCreateConfirmedUser } from "../users";
import { addComment, deleteComment, editComment, listComments, resolveComment } from "./comments";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let owner: Principal;
let wsId: string;
let wsSlug: string;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${n++}`;

async function person(email: string, role: Role | null): Promise<Principal> {
  const user = await findOrCreateConfirmedUser(deps, email);
  if (role) {
    const ws = await database.c.workspaces.findOne({ _id: wsId });
    await database.c.workspaces.updateOne(
      { _id: wsId },
      { $set: { members: [...(ws?.members ?? []), { userId: user._id, role, addedAt: now() }] }, $inc: { membersVersion: 1 } },
    );
  }
  deps.cache.delete(`ws:${wsId}`);
  return { kind: "user", user };
}

async function agent(of: Principal, scopes: ("mcp:read" | "mcp:write")[]): Promise<Principal> {
  const ownerId = of.kind === "user" ? of.user._id : null;
  const { token } = await issueToken(deps, { ownerId, kind: "user", scopes, workspaceIds: null, label: "Claude", expiresAt: addSeconds(now(), 3600) });
  return { kind: "token", token };
}

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return "ok";
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
};

beforeAll(async () => {
  database = await testDatabase("comments");
  deps = testDeps(database);
  const user = await findOrCreateConfirmedUser(deps, "comment-owner@example.com");
  owner = { kind: "user", user };
  wsId = user.defaultWorkspaceId ?? "";
  wsSlug = (await database.c.workspaces.findOne({ _id: wsId }))?.slug ?? "";
});
afterAll(async () => {
  await database.drop();
});

const BODY = "# Plan\n\nThe migration starts on the first Monday of March.\n\nEvery customer keeps their **current plan** until the end of their contract.\n";

describe("comments", () => {
  it("anchor on a passage, follow it when the page is reworded, and say when it is gone", async () => {
    const slug = uniq("plan");
    await createPage(deps, owner, { slug, title: "Plan", body_markdown: BODY });
    const t = await addComment(deps, owner, { page: slug, quote: "starts on the first Monday of March", body: "Is that a holiday?" });
    expect(t.anchor).toMatchObject({ kind: "quote", attached: true, version: 1, current_quote: "starts on the first Monday of March" });
    // A selection of the rendered text (no Markdown markup) anchors too.
    const sel = await addComment(deps, owner, { page: slug, quote: "keeps their current plan", body: "Even on annual plans?" });
    expect(sel.anchor).toMatchObject({ kind: "quote", attached: true, current_quote: "keeps their **current plan**" });
    await updatePage(deps, owner, {
      slug,
      body_markdown: "# Plan\n\nA new intro.\n\nThe migration begins on the first Monday of March.\n\nSomething else entirely.\n",
    });
    const list = await listComments(deps, owner, { page: slug });
    expect(list.version).toBe(2);
    const [moved, gone] = list.threads;
    expect(moved?.anchor).toMatchObject({ kind: "quote", attached: true, current_quote: "begins on the first Monday of March" });
    expect(gone?.anchor).toMatchObject({ kind: "quote", attached: false, quote: "keeps their **current plan**", version: 1, start: null });
    expect(await code(addComment(deps, owner, { page: slug, quote: "not in the page", body: "x" }))).toBe("invalid_request");
  });

  it("threads: replies, resolve and reopen, edit and delete one's own; every change is on the feed and in the usage", async () => {
    const slug = uniq("thread");
    await createPage(deps, owner, { slug, title: "Thread", body_markdown: "Hello there." });
    const before = (await readChanges(deps, wsId, 0, 500)).changes.length;
    const editor = await person(`${uniq("ed")}@example.com`, "editor");
    const bot = await agent(editor, ["mcp:write"]);
    const root = await addComment(deps, owner, { page: slug, body: "Whole page: <script>alert(1)</script> **ok**" });
    expect(root.anchor).toEqual({ kind: "page" });
    expect(root.body_html).not.toContain("<script");
    expect(root.body_html).toContain("<strong>ok</strong>");
    const reply = await addComment(deps, bot, { reply_to: root.comment_id, body: "Agreed, fixing." });
    expect(reply.replies).toHaveLength(1);
    expect(reply.replies[0]?.author).toMatchObject({ kind: "agent", label: "Claude" });
    expect(reply.replies[0]?.mine).toBe(true);
    const replyId = reply.replies[0]?.comment_id ?? "";
    expect(await code(editComment(deps, owner, { comment_id: replyId, body: "hijack" }))).toBe("forbidden");
    expect((await editComment(deps, bot, { comment_id: replyId, body: "Agreed, fixed." })).replies[0]?.body).toBe("Agreed, fixed.");
    expect((await resolveComment(deps, bot, { comment_id: replyId })).resolved).toBe(true);
    expect((await listComments(deps, owner, { page: slug })).threads).toHaveLength(0);
    expect((await listComments(deps, owner, { page: slug, include_resolved: true })).threads).toHaveLength(1);
    expect((await resolveComment(deps, owner, { comment_id: root.comment_id, reopen: true })).resolved).toBe(false);
    // The first comment deleted keeps its replies in a thread; the last reply takes it along.
    await deleteComment(deps, owner, { comment_id: root.comment_id });
    const kept = (await listComments(deps, owner, { page: slug })).threads[0];
    expect(kept).toMatchObject({ deleted: true, body: "" });
    await deleteComment(deps, bot, { comment_id: replyId });
    expect((await listComments(deps, owner, { page: slug, include_resolved: true })).threads).toHaveLength(0);
    expect(await database.c.comments.countDocuments({ threadId: root.comment_id })).toBe(0);
    const types = (await readChanges(deps, wsId, 0, 500)).changes.slice(before).map((c) => c.type);
    expect(types).toEqual(["comment.added", "comment.added", "comment.edited", "comment.resolved", "comment.reopened", "comment.deleted", "comment.deleted"]);
    const ws = await database.c.workspaces.findOne({ _id: wsId });
    expect(ws?.usage).toEqual(await countUsage({ database }, wsId));
  });

  it("who may: members of every role and agents with the scope; outsiders, public visitors and read-only agents may not write", async () => {
    const slug = uniq("who");
    await createPage(deps, owner, { slug, title: "Who", body_markdown: "Text." });
    const viewer = await person(`${uniq("v")}@example.com`, "viewer");
    const outsider = await person(`${uniq("o")}@example.com`, null);
    const reader = await agent(viewer, ["mcp:read"]);
    const t = await addComment(deps, viewer, { page: slug, body: "A viewer may comment." });
    expect((await listComments(deps, reader, { page: slug })).threads).toHaveLength(1);
    expect(await code(addComment(deps, reader, { page: slug, body: "no" }))).toBe("forbidden");
    expect(await code(listComments(deps, outsider, { page: slug }))).toBe("not_found");
    expect(await code(resolveComment(deps, outsider, { comment_id: t.comment_id }))).toBe("not_found");
    expect(await code(listComments(deps, { kind: "nobody" }, { page: slug }))).toBe("not_found");
    // Public: visitors read the page, never its comments.
    await database.c.workspaces.updateOne({ _id: wsId }, { $set: { visibility: "public" } });
    deps.cache.delete(`ws:${wsId}`);
    try {
      expect(await code(listComments(deps, outsider, { page: slug }))).toBe("forbidden");
      expect(await code(listComments(deps, { kind: "nobody" }, { page: slug }))).toBe("forbidden");
      expect(await code(addComment(deps, outsider, { page: slug, body: "spam" }))).toBe("forbidden");
    } finally {
      await database.c.workspaces.updateOne({ _id: wsId }, { $set: { visibility: "private" } });
      deps.cache.delete(`ws:${wsId}`);
    }
    // Removed: no longer a member, no longer sees them.
    const ws = await database.c.workspaces.findOne({ _id: wsId });
    if (viewer.kind !== "user") throw new Error("person");
    await database.c.workspaces.updateOne({ _id: wsId }, { $set: { members: (ws?.members ?? []).filter((m) => m.userId !== viewer.user._id) } });
    deps.cache.delete(`ws:${wsId}`);
    expect(await code(listComments(deps, viewer, { page: slug }))).toBe("not_found");
  });

  it("rows: comment on a row, list a table's comments; limits are clear errors; gone with page, table and workspace", async () => {
    const table = uniq("tasks");
    await createCollection(deps, owner, { workspace: wsSlug, slug: table, name: "Tasks", kind: "table", columns: [{ name: "title", type: "text" }] });
    const rows = await insertRows(deps, owner, { workspace: wsSlug, collection: table, rows: [{ title: "Write docs" }] });
    const rowId = rows.row_ids[0] ?? "";
    const t = await addComment(deps, owner, { workspace: wsSlug, table, row_id: rowId, body: "Who owns this?" });
    expect(t.anchor).toEqual({ kind: "row", table, row_id: rowId });
    expect((await listComments(deps, owner, { workspace: wsSlug, table })).threads).toHaveLength(1);
    expect(await code(addComment(deps, owner, { workspace: wsSlug, table, row_id: "row_nope", body: "x" }))).toBe("not_found");
    const slug = uniq("limit");
    await createPage(deps, owner, { slug, title: "Limit", body_markdown: "Short." });
    await addComment(deps, owner, { page: slug, body: "one" });
    expect(await code(addComment({ ...deps, config: { ...deps.config, WORKSPACE_MAX_BYTES: 1 } }, owner, { page: slug, body: "over the cap" }))).toBe(
      "limit_exceeded",
    );
    await deletePage(deps, owner, slug);
    const { deleteTable } = await import("../tables/delete-table");
    await deleteTable(deps, owner, { workspace: wsSlug, collection: table });
    expect(await database.c.comments.countDocuments({ rowId })).toBe(0);
    const ws = await database.c.workspaces.findOne({ _id: wsId });
    expect(ws?.usage).toEqual(await countUsage({ database }, wsId));
  });
});
