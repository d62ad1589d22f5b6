// Mentions in comments on the embedded database, with mail over real SMTP captured in this
// process: which `@handles` name members and agents (and which name nobody); a person's
// mentions within the delay go in one mail with links to the threads; two processes sending
// at once send each mail once; a queued mention survives a restart; a removed member's,
// a deleted comment's and a non-member's mentions send nothing; an edit mails only those it
// newly mentions; an agent lists the threads that mention it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../db/index";
import { startSmtpCapture, testDatabase, testDeps, type SmtpCapture, type TestDatabase, type TestDeps } from "../../testing/index";
import type { Principal } from "../access";
import { addSeconds, advanceClock, now, resetClock } from "../clock";
import { createMailer, type Mailer } from "../mail";
import { removeMember } from "../members";
import { createPage } from "../pages/create-page";
import { createCollection } from "../tables/create-collection";
import { insertRows } from "../tables/insert-rows";
import { issueToken } from "../tokens";
import { findOrCreateConfirmedUser } from "../users";
import { addComment, deleteComment, editComment, listComments } from "./comments";
import { agentHandle, listMentionables, mentionedHandles, sendMentionMails } from "./mentions";

let database: TestDatabase;
let deps: TestDeps<TestDatabase>;
let smtp: SmtpCapture;
const mailers: Mailer[] = [];
let owner: Principal;
let wsId: string;
let wsSlug: string;
let n = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36)}${n++}`;
const DELAY = 300;

/** A server process's view: the same database, its own SMTP mailer. */
function aProcess() {
  const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: "Atelier <no-reply@atelier.test>", DATA_DIR: "/nonexistent" });
  mailers.push(mailer);
  return { database, config: deps.config, mailer };
}

async function member(local: string, role: Role = "editor"): Promise<Principal & { kind: "user" }> {
  const user = await findOrCreateConfirmedUser(deps, `${local}@example.com`);
  const ws = await database.c.workspaces.findOne({ _id: wsId });
  await database.c.workspaces.updateOne(
    { _id: wsId },
    { $set: { members: [...(ws?.members ?? []), { userId: user._id, role, addedAt: now() }], membersVersion: (ws?.membersVersion ?? 0) + 1 } },
  );
  deps.cache.delete(`ws:${wsId}`);
  return { kind: "user", user };
}

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email.toLowerCase()));
/** The text part of a captured message, quoted-printable soft breaks joined. */
const textOf = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

beforeAll(async () => {
  database = await testDatabase("mentions");
  deps = testDeps(database, { MENTION_MAIL_DELAY_SECONDS: String(DELAY), BASE_URL: "https://atelier.test" });
  smtp = await startSmtpCapture();
  const user = await findOrCreateConfirmedUser(deps, "mention-owner@example.com");
  owner = { kind: "user", user };
  wsId = user.defaultWorkspaceId ?? "";
  wsSlug = (await database.c.workspaces.findOne({ _id: wsId }))?.slug ?? "";
});
afterAll(async () => {
  resetClock();
  for (const m of mailers) m.close();
  await smtp.close();
  await database.drop();
});

describe("mentions", () => {
  it("reads handles: after a space or punctuation, whole addresses, not inside words, addresses or code", () => {
    expect(mentionedHandles("Hi @alice, and (@bob.smith). Also @carol@example.com!")).toEqual(["alice", "bob.smith", "carol@example.com"]);
    expect(mentionedHandles("mail dave@example.com, `@code` and\n```\n@block\n```\nnot@this")).toEqual([]);
    expect(mentionedHandles("@Alice and @alice.")).toEqual(["alice"]);
    expect(agentHandle("Claude (desktop)")).toBe("claude-desktop");
  });

  it("records the members and agents a comment mentions, and nobody else; the composer offers the same handles", async () => {
    const ann = await member(uniq("ann"));
    const annHandle = ann.user.email.split("@")[0] ?? "";
    const outsider = await findOrCreateConfirmedUser(deps, `${uniq("out")}@example.com`);
    const outHandle = outsider.email.split("@")[0] ?? "";
    const { token } = await issueToken(deps, {
      ownerId: ann.user._id,
      kind: "user",
      scopes: ["mcp:read", "mcp:write"],
      workspaceIds: null,
      label: "Review Bot",
      expiresAt: addSeconds(now(), 3600),
    });
    const bot: Principal = { kind: "token", token };
    const slug = uniq("p");
    await createPage(deps, owner, { slug, title: "Plan", body_markdown: "Text." });
    const t = await addComment(deps, owner, { page: slug, body: `@${annHandle} and @review-bot please check; @${outHandle} cannot see this` });
    expect(t.mentions).toEqual([
      { kind: "member", handle: annHandle, me: false },
      { kind: "agent", handle: "review-bot", me: false },
    ]);
    const offered = await listMentionables(deps, owner, wsSlug);
    expect(offered.map((m) => m.handle)).toEqual(expect.arrayContaining([annHandle, "review-bot"]));
    expect(offered.map((m) => m.handle)).not.toContain(outHandle);
    // The agent finds the threads that mention it.
    await addComment(deps, owner, { page: slug, body: "nobody here" });
    const mine = await listComments(deps, bot, { page: slug, mentioning: "me" });
    expect(mine.threads.map((x) => x.comment_id)).toEqual([t.comment_id]);
    expect(mine.threads[0]?.mentions.find((m) => m.kind === "agent")?.me).toBe(true);
    // The outsider is never queued for a mail.
    expect(await database.c.mentionMails.countDocuments({ userId: outsider._id })).toBe(0);
    await sendMentionMails(aProcess());
    advanceClock(DELAY + 1);
    await sendMentionMails(aProcess());
    expect(mailsTo(outsider.email)).toHaveLength(0);
    expect(mailsTo(ann.user.email)).toHaveLength(1);
  });

  it("batches a person's mentions into one mail with links, sent once by two processes, and kept across a restart", async () => {
    const bea = await member(uniq("bea"));
    const h = bea.user.email.split("@")[0] ?? "";
    const slug = uniq("p");
    await createPage(deps, owner, { slug, title: "Launch plan", body_markdown: "Text." });
    const table = uniq("t");
    await createCollection(deps, owner, { workspace: wsSlug, slug: table, name: "Tasks", kind: "table", columns: [{ name: "title", type: "text" }] });
    const rowId = (await insertRows(deps, owner, { workspace: wsSlug, collection: table, rows: [{ title: "one" }] })).row_ids[0] ?? "";
    const first = await addComment(deps, owner, { page: slug, body: `@${h} first look` });
    advanceClock(60);
    const second = await addComment(deps, owner, { workspace: wsSlug, table, row_id: rowId, body: `second, @${h}` });
    // Not due yet: nothing goes.
    expect(await sendMentionMails(aProcess())).toBe(0);
    expect(mailsTo(bea.user.email)).toHaveLength(0);
    // A "restart": new processes on the same database, once the first mention is due; two send at once.
    advanceClock(DELAY);
    const sent = await Promise.all([sendMentionMails(aProcess()), sendMentionMails(aProcess())]);
    expect(sent[0] + sent[1]).toBe(1);
    const mails = mailsTo(bea.user.email);
    expect(mails).toHaveLength(1);
    const text = textOf(mails[0]?.raw ?? "");
    expect(text).toContain("You were mentioned in 2 comments on Atelier");
    expect(text).toContain(`https://atelier.test/app/buckets/${wsSlug}/${slug}?comments=1#comment-${first.comment_id}`);
    expect(text).toContain(`https://atelier.test/app/buckets/${wsSlug}/tables/${table}?comments=${rowId}#comment-${second.comment_id}`);
    expect(text).toContain("first look");
    // Nothing is left to send, by either process.
    advanceClock(DELAY + 1);
    expect(await sendMentionMails(aProcess())).toBe(0);
    expect(await database.c.mentionMails.countDocuments({ userId: bea.user._id })).toBe(0);
    // The lease is given back once the mail is sent.
    expect((await database.c.users.findOne({ _id: bea.user._id }))?.mentionMailLeaseUntil ?? null).toBeNull();
    expect(mailsTo(bea.user.email)).toHaveLength(1);
  });

  it("sends nothing to a member removed meanwhile, for a deleted comment, or to the author; an edit mails only new mentions", async () => {
    const cal = await member(uniq("cal"));
    const dan = await member(uniq("dan"));
    const eve = await member(uniq("eve"));
    const [hc, hd, he] = [cal, dan, eve].map((p) => p.user.email.split("@")[0] ?? "");
    const slug = uniq("p");
    await createPage(deps, owner, { slug, title: "Plan", body_markdown: "Text." });
    await addComment(deps, owner, { page: slug, body: `@${hc} have a look` });
    const gone = await addComment(deps, owner, { page: slug, body: `@${hd} have a look` });
    await deleteComment(deps, owner, { comment_id: gone.comment_id });
    const own = await addComment(deps, eve, { page: slug, body: `note to self @${he}, and @${hd}` });
    await removeMember(deps, owner, { workspace: wsSlug, userId: cal.user._id });
    advanceClock(DELAY + 1);
    await sendMentionMails(aProcess());
    expect(mailsTo(cal.user.email)).toHaveLength(0);
    expect(mailsTo(eve.user.email)).toHaveLength(0);
    expect(mailsTo(dan.user.email)).toHaveLength(1);
    // Edited: dan was mentioned already (no second mail); eve is the author; owner is new.
    await editComment(deps, eve, { comment_id: own.comment_id, body: `@${hd} and @mention-owner, see this` });
    advanceClock(DELAY + 1);
    await sendMentionMails(aProcess());
    expect(mailsTo(dan.user.email)).toHaveLength(1);
    expect(mailsTo("mention-owner@example.com")).toHaveLength(1);
    expect(await database.c.mentionMails.countDocuments({ workspaceId: wsId })).toBe(0);
  });
});
