import { createUserToken, issuedView, listTokens, revokeToken, rotateToken } from "@atelier/shared/domain/tokens";
import { CreateTokenInputSchema, IssuedTokenViewSchema, TokenViewSchema } from "@atelier/shared/schemas/tokens";
import { TokenIdSchema } from "@atelier/shared/schemas/workspaces";
import { z } from "zod";
import { protectedProcedure, router } from "../../trpc";

const ById = z.object({ token_id: TokenIdSchema });

export const tokensRouter = router({
  list: protectedProcedure.output(z.array(TokenViewSchema)).query(({ ctx }) => listTokens(ctx, ctx.principal.user._id)),

  /** The credential is in this answer only; it is never shown again. */
  create: protectedProcedure
    .input(CreateTokenInputSchema)
    .output(IssuedTokenViewSchema)
    .mutation(async ({ ctx, input }) => issuedView(await createUserToken(ctx, ctx.principal.user, input))),

  rotate: protectedProcedure
    .input(ById)
    .output(IssuedTokenViewSchema)
    .mutation(async ({ ctx, input }) => issuedView(await rotateToken(ctx, ctx.principal.user._id, input.token_id))),

  revoke: protectedProcedure
    .input(ById)
    .output(TokenViewSchema)
    .mutation(({ ctx, input }) => revokeToken(ctx, ctx.principal.user._id, input.token_id)),
});
