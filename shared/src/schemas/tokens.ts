import { z } from "zod";
import { LabelSchema, SlugSchema } from "./common";
import { TokenIdSchema } from "./workspaces";

export const ScopeSchema = z.enum(["mcp:read", "mcp:write"]);

export const CreateTokenInputSchema = z
  .object({
    label: LabelSchema(100),
    scopes: z.array(ScopeSchema).min(1, "choose mcp:read, mcp:write or both").max(2),
    expiresInDays: z.number().int().min(1).max(365).default(90),
    workspaces: z.array(SlugSchema).max(50).optional(),
  })
  .strict();

export const TokenViewSchema = z.object({
  token_id: z.string(),
  label: z.string(),
  agent_label: z.string().nullable(),
  kind: z.enum(["user", "anonymous", "claimed_anonymous", "verified_email", "oauth"]),
  hint: z.string(),
  scopes: z.array(ScopeSchema),
  workspaces: z.array(z.string()).nullable(),
  status: z.enum(["active", "revoked", "expired"]),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** A connected agent that signed in through OAuth: the client it is (null for pasted tokens). */
  oauth: z
    .object({
      client_id: z.string(),
      client_name: z.string(),
      client_uri: z.string().nullable(),
      via: z.enum(["metadata_document", "registration"]),
    })
    .nullable()
    .default(null),
});

export const IssuedTokenViewSchema = z.object({
  token_id: z.string(),
  credential: z.string(),
  scopes: z.array(ScopeSchema),
  expires_at: z.string(),
});

/** Who a connection acts as (the whoami tool). */
export const WhoamiViewSchema = z.object({
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
});
export type WhoamiView = z.infer<typeof WhoamiViewSchema>;

export const TokenRefInputSchema = z.object({ token_id: TokenIdSchema });
