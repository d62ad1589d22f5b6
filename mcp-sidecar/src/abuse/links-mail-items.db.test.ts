// Issue 23 item 10, the part an agent reaches through /mcp: a cut-off agent asking for a page
// of that workspace is told why (`forbidden`, the reason), as docs/security.md promises,
// while a stranger's token still learns nothing (`not_found`). Failed before its fix.
import { setAgentBlocked } from "@atelier/shared/domain/agents";
import { createPage } from "@atelier/shared/domain/pages/create-page";
import type { UserDoc } from "@atelier/shared/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, makeToken, makeUser, startTestSidecar, type TestSidecar } from "../testing";

let n = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;

describe("item 10: a cut-off agent's get_page says forbidden, with the reason", () => {
  let sc: TestSidecar;
  let owner: UserDoc;
  let ws: string;
  beforeAll(async () => {
    sc = await startTestSidecar({}, "abusecutoff");
    owner = await makeUser(sc, `${uniq("owner")}@example.com`);
    ws = (await sc.database.c.workspaces.findOne({ _id: owner.defaultWorkspaceId ?? "" }))?.slug ?? "";
  });
  afterAll(async () => {
    await sc.close();
  });

  it("by slug and by id; a token of someone else gets not_found for the same page", async () => {
    const slug = uniq("plans");
    const page = await createPage(sc.deps, { kind: "user", user: owner }, { slug, title: "Plans", body_markdown: "x", workspace: ws });
    const cut = await makeToken(sc, owner, { label: "Cut bot" });
    await setAgentBlocked(sc.deps, { kind: "user", user: owner }, { workspace: ws, tokenId: cut.tokenId, blocked: true });
    const stranger = await makeToken(sc, await makeUser(sc, `${uniq("stranger")}@example.com`));

    const errorOf = async (credential: string, args: Record<string, unknown>) => {
      const client = await connectClient(sc, credential);
      const r = await client.callTool({ name: "get_page", arguments: args });
      await client.close();
      expect(r.isError).toBe(true);
      return JSON.parse((r.content as { text: string }[])[0]?.text ?? "{}") as { error: string; message: string };
    };
    for (const args of [{ slug }, { page_id: page.page.page_id }]) {
      expect(await errorOf(cut.credential, args)).toMatchObject({ error: "forbidden", message: expect.stringContaining("cut this agent off") });
      expect(await errorOf(stranger.credential, args)).toMatchObject({ error: "not_found" });
    }
  });
});
