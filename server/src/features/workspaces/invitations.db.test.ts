// Invitations by e-mail through tRPC (issue 17 item 4): pending until the person signs in,
// withdrawing one, and refusals that send and write nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createTeamWorkspace, signIn, startTestServer, trpcData, trpcErrorOf, type TestServer } from "../../testing";

let srv: TestServer;
let owner: Browser;
let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  srv = await startTestServer({}, "invitations");
  owner = await signIn(srv, `${uniq("owner")}@example.com`);
});
afterAll(async () => {
  await srv.close();
});

const newWorkspace = (by: Browser = owner) => createTeamWorkspace(by, uniq("ws"));

const errorCode = trpcErrorOf;

/** A mail's quoted-printable text, decoded. */
function decodeQp(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

describe("invitations", () => {
  type MemberRow = { user_id: string; email: string; role: string; confirmed: boolean };

  it("e-mails a new person a link; they are pending until they sign in, then a member", async () => {
    const { slug: ws } = await newWorkspace();
    await trpcData(await owner.mutation("workspaces.rename", { slug: ws, name: "Field notes" }));
    const email = `${uniq("New.Person")}@Example.com`;
    const before = srv.smtp.messages.length;
    const added = await trpcData<{ user_id: string; pending: boolean; mailed: boolean }>(
      await owner.mutation("workspaces.members.add", { slug: ws, email, role: "editor" }),
    );
    expect(added).toMatchObject({ pending: true, mailed: true });
    const mail = decodeQp((await srv.smtp.waitFor(email.toLowerCase(), before)).raw);
    expect(mail).toContain("added you to the Atelier workspace “Field notes” as an editor");
    expect(mail).toContain(`${srv.config.BASE_URL}/app/sign-in?next=${encodeURIComponent(`/buckets/${ws}`)}`);

    let members = await trpcData<MemberRow[]>(await owner.query("workspaces.members.list", { slug: ws }));
    expect(members.find((m) => m.email === email.toLowerCase())).toMatchObject({ confirmed: false, role: "editor" });
    // Nothing secret is stored for it: the account holds the address and nothing else.
    const account = await srv.database.c.users.findOne({ email: email.toLowerCase() });
    expect(account).toMatchObject({ confirmedAt: null, defaultWorkspaceId: null });

    const invitee = await signIn(srv, email.toLowerCase());
    const theirs = await trpcData<{ slug: string; role: string }[]>(await invitee.query("workspaces.list"));
    expect(theirs).toEqual(expect.arrayContaining([expect.objectContaining({ slug: ws, role: "editor" })]));
    members = await trpcData<MemberRow[]>(await owner.query("workspaces.members.list", { slug: ws }));
    expect(members.find((m) => m.email === email.toLowerCase())?.confirmed).toBe(true);
  });

  it("tells someone with an account that they were added, and mails nobody for a role change", async () => {
    const { slug: ws } = await newWorkspace();
    const email = `${uniq("known")}@example.com`;
    await signIn(srv, email);
    const before = srv.smtp.messages.length;
    const added = await trpcData<{ pending: boolean; mailed: boolean }>(await owner.mutation("workspaces.members.add", { slug: ws, email, role: "viewer" }));
    expect(added).toMatchObject({ pending: false, mailed: true });
    const mail = decodeQp((await srv.smtp.waitFor(email, before)).raw);
    expect(mail).toContain(`${srv.config.BASE_URL}/app/buckets/${ws}`);
    const count = srv.smtp.messages.length;
    expect(await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email, role: "editor" }))).toMatchObject({ mailed: false });
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.smtp.messages.length).toBe(count);
  });

  it("lets the owner withdraw a pending invitation: the address is forgotten and sign-in finds no workspace", async () => {
    const { slug: ws, id } = await newWorkspace();
    const email = `${uniq("withdrawn")}@example.com`;
    const added = await trpcData<{ user_id: string }>(await owner.mutation("workspaces.members.add", { slug: ws, email, role: "editor" }));
    expect((await owner.mutation("workspaces.members.remove", { slug: ws, user_id: added.user_id })).status).toBe(200);
    expect(await srv.database.c.users.findOne({ email })).toBeNull();
    const events = await trpcData<{ events: { type: string }[] }>(await owner.query("workspaces.activity", { slug: ws }));
    expect(events.events[0]?.type).toBe("member.invitation_withdrawn");
    const person = await signIn(srv, email);
    const theirs = await trpcData<{ slug: string }[]>(await person.query("workspaces.list"));
    expect(theirs.map((w) => w.slug)).not.toContain(ws);
    expect((await srv.database.c.workspaces.findOne({ _id: id }))?.members.length).toBe(1);
  });

  it("keeps an invited account that another workspace still invites", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const email = `${uniq("twice")}@example.com`;
    const added = await trpcData<{ user_id: string }>(await owner.mutation("workspaces.members.add", { slug: a.slug, email, role: "editor" }));
    await trpcData(await owner.mutation("workspaces.members.add", { slug: b.slug, email, role: "viewer" }));
    await trpcData(await owner.mutation("workspaces.members.remove", { slug: a.slug, user_id: added.user_id }));
    expect(await srv.database.c.users.findOne({ email })).not.toBeNull();
  });

  it("refuses bad input and non-owners, and sends and writes nothing", async () => {
    const { slug: ws, id } = await newWorkspace();
    const editorEmail = `${uniq("editor")}@example.com`;
    await trpcData(await owner.mutation("workspaces.members.add", { slug: ws, email: editorEmail, role: "editor" }));
    const editor = await signIn(srv, editorEmail);
    const stranger = await signIn(srv, `${uniq("stranger")}@example.com`);
    const mails = srv.smtp.messages.length;
    const snapshot = async () => JSON.stringify([await srv.database.c.workspaces.findOne({ _id: id }), await srv.database.c.users.countDocuments({})]);
    const before = await snapshot();
    const target = `${uniq("target")}@example.com`;

    const bad = await errorCode(await owner.mutation("workspaces.members.add", { slug: ws, email: "not an address", role: "editor" }));
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bad.issues[0]?.path).toBe("email");
    expect((await owner.mutation("workspaces.members.add", { slug: ws, email: target, role: "boss" })).status).toBe(400);
    expect(await errorCode(await editor.mutation("workspaces.members.add", { slug: ws, email: target, role: "editor" }))).toMatchObject({
      status: 403,
      code: "forbidden",
    });
    expect((await stranger.mutation("workspaces.members.add", { slug: ws, email: target, role: "editor" })).status).toBe(404);
    expect((await new Browser(srv.url).mutation("workspaces.members.add", { slug: ws, email: target, role: "editor" })).status).toBe(401);
    const members = await trpcData<MemberRow[]>(await owner.query("workspaces.members.list", { slug: ws }));
    const ownerId = members.find((m) => m.role === "owner")?.user_id;
    expect((await editor.mutation("workspaces.members.remove", { slug: ws, user_id: ownerId })).status).toBe(403);

    expect(await snapshot()).toBe(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.smtp.messages.slice(mails).filter((m) => m.to.includes(target))).toEqual([]);
  });
});
