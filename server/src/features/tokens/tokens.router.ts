import { revokeConnectedAgent } from "@atelier/shared/domain/oauth-grants";
import { createUserToken, listUserTokens, rotateToken, tokenView } from "@atelier/shared/domain/tokens";
import { CreateTokenInputSchema, IssuedTokenViewSchema, TokenViewSchema } from "@atelier/shared/schemas/tokens";
import { z } from "zod";
import { protectedProcedure, router } from "../../trpc";

const TokenIdSchema = z.object({ token_id: z.string().regex(/^tok_[A-Za-z0-9_-]{10,40}$/, "is not a token id") });

const issued = ({ token, credential }: Awaited<ReturnType<typeof rotateToken>>) => ({
  token_id: token._id,
  credential,
  scopes: token.scopes,
  expires_at: token.expiresAt.toISOString(),
});

export const tokensRouter = router({
  list: protectedProcedure.output(z.array(TokenViewSchema)).query(async ({ ctx }) => {
    const tokens = await listUserTokens(ctx.database, ctx.principal.user._id);
    return Promise.all(tokens.map((t) => tokenView(ctx.database, t)));
  }),

  /** The credential is in this answer only; it is never shown again. */
  create: protectedProcedure
    .input(CreateTokenInputSchema)
    .output(IssuedTokenViewSchema)
    .mutation(async ({ ctx, input }) => issued(await createUserToken(ctx.database, ctx.config, ctx.principal.user, input))),

  rotate: protectedProcedure
    .input(TokenIdSchema)
    .output(IssuedTokenViewSchema)
    .mutation(async ({ ctx, input }) => issued(await rotateToken(ctx.database, ctx.config, ctx.principal.user._id, input.token_id))),

  revoke: protectedProcedure
    .input(TokenIdSchema)
    .output(TokenViewSchema)
    .mutation(async ({ ctx, input }) => tokenView(ctx.database, await revokeConnectedAgent(ctx.database, ctx.principal.user._id, input.token_id))),
});
