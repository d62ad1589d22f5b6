import { createUserToken, issuedView, listTokens, revokeToken, rotateToken } from "@atelier/shared/domain/tokens";
import { CreateTokenInputSchema, IssuedTokenViewSchema, TokenRefInputSchema, TokenViewSchema } from "@atelier/shared/schemas/tokens";
import { z } from "zod";
import { protectedProcedure, router } from "../../trpc";

export const tokensRouter = router({
  list: protectedProcedure.output(z.array(TokenViewSchema)).query(({ ctx }) => listTokens(ctx, ctx.principal.user._id)),

  /** The credential is in this answer only; it is never shown again. */
  create: protectedProcedure
    .input(CreateTokenInputSchema)
    .output(IssuedTokenViewSchema)
    .mutation(async ({ ctx, input }) => issuedView(await createUserToken(ctx, ctx.principal.user, input))),

  rotate: protectedProcedure
    .input(TokenRefInputSchema)
    .output(IssuedTokenViewSchema)
    .mutation(async ({ ctx, input }) => issuedView(await rotateToken(ctx, ctx.principal.user._id, input.token_id))),

  revoke: protectedProcedure
    .input(TokenRefInputSchema)
    .output(TokenViewSchema)
    .mutation(({ ctx, input }) => revokeToken(ctx, ctx.principal.user._id, input.token_id)),
});
