import { z } from "zod";
import { defineTool, READ } from "./define";

export const whoami = defineTool({
  name: "whoami",
  title: "Who am I",
  description: "Tells who this connection acts as: the token (its label, scopes, expiry, workspace restriction) and the person it acts for, or that no token was sent (public reads only).",
  access: "read",
  input: z.object({}).strict(),
  output: z.object({
    authenticated: z.boolean(),
    token: z
      .object({
        token_id: z.string(),
        label: z.string(),
        kind: z.string(),
        scopes: z.array(z.string()),
        expires_at: z.string(),
        workspaces: z.array(z.string()).nullable(),
      })
      .nullable(),
    acting_for: z.object({ email: z.string() }).nullable(),
  }),
  annotations: READ,
  async run({ database, principal }) {
    if (principal.kind !== "token") return { authenticated: false, token: null, acting_for: null };
    const t = principal.token;
    const owner = t.ownerId ? await database.c.users.findOne({ _id: t.ownerId }, { projection: { email: 1 } }) : null;
    const slugs = t.workspaceIds
      ? (await database.c.workspaces.find({ _id: { $in: t.workspaceIds } }, { projection: { slug: 1 } }).toArray()).map((w) => w.slug)
      : null;
    return {
      authenticated: true,
      token: { token_id: t._id, label: t.agentLabel ?? t.label, kind: t.kind, scopes: t.scopes, expires_at: t.expiresAt.toISOString(), workspaces: slugs },
      acting_for: owner ? { email: owner.email } : null,
    };
  },
});
