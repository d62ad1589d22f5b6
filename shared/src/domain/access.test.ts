// The access function on the documents a process may hold, including the two sides of a
// sandbox claim (one of which may come from a cache a moment old).
import { describe, expect, it } from "vitest";
import type { TokenDoc, WorkspaceDoc } from "../db/index";
import { can, type Principal } from "./access";

const t0 = new Date("2026-11-01T00:00:00Z");

function sandbox(state: "unclaimed" | "claimed" | "expired", ownerId: string | null): WorkspaceDoc {
  return {
    _id: "ws_sandbox",
    slug: "anonymous-sandbox-x",
    name: "x",
    visibility: "private",
    ownerId,
    members: ownerId ? [{ userId: ownerId, role: "owner", addedAt: t0 }] : [],
    membersVersion: 0,
    sandbox: { registrationId: "reg", state, hiddenAt: state === "expired" ? t0 : null, deleteAfter: null },
    capped: state === "unclaimed",
    blockedTokenIds: [],
    usage: { pages: 0, bytes: 0 },
    usageDirtyAt: null,
    visibilitySyncAt: null,
    createdAt: t0,
    updatedAt: t0,
  };
}

function token(kind: TokenDoc["kind"], ownerId: string | null, workspaceIds: string[] | null = ["ws_sandbox"]): Principal {
  return {
    kind: "token",
    token: {
      _id: "tok_1",
      hash: "h",
      hint: "",
      ownerId,
      kind,
      scopes: ["mcp:read", "mcp:write"],
      workspaceIds,
      label: "bot",
      agentLabel: "bot",
      createdAt: t0,
      expiresAt: new Date("2027-01-01T00:00:00Z"),
      revokedAt: null,
      lastUsedAt: null,
    },
  };
}

describe("a sandbox's own token around its claim", () => {
  it("writes before the claim and after it", () => {
    expect(can(token("anonymous", null), sandbox("unclaimed", null), "write")).toBe(true);
    expect(can(token("claimed_anonymous", "usr_p"), sandbox("claimed", "usr_p"), "write")).toBe(true);
  });

  it("decides the same from either side of the claim (one document newer than the other)", () => {
    // The token as it was, the workspace as it is now.
    expect(can(token("anonymous", null), sandbox("claimed", "usr_p"), "write")).toBe(true);
    // The token as it is now, the workspace as it was.
    expect(can(token("claimed_anonymous", "usr_p"), sandbox("unclaimed", null), "write")).toBe(true);
  });

  it("never manages while anonymous, and never reaches another workspace or a hidden sandbox", () => {
    expect(can(token("anonymous", null), sandbox("unclaimed", null), "manage")).toBe(false);
    expect(can(token("anonymous", null, ["ws_other"]), sandbox("unclaimed", null), "read")).toBe(false);
    expect(can(token("anonymous", null), sandbox("expired", null), "read")).toBe(false);
    expect(can(token("claimed_anonymous", "usr_p"), sandbox("expired", null), "read")).toBe(false);
  });

  it("gives a person's ordinary token nothing in a sandbox it is not a member of", () => {
    expect(can(token("user", "usr_q", null), sandbox("unclaimed", null), "read")).toBe(false);
    expect(can(token("user", "usr_q", null), sandbox("claimed", "usr_p"), "read")).toBe(false);
  });
});
