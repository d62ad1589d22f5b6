import { requestSignInCode, verifySignInCode } from "@atelier/shared/domain/accounts";
import { endAllSessions, endSession } from "@atelier/shared/domain/sessions";
import { userView } from "@atelier/shared/domain/users";
import {
  RequestCodeInputSchema,
  RequestedCodeViewSchema,
  SessionsEndedViewSchema,
  SignedInViewSchema,
  SignedOutViewSchema,
  VerifyCodeInputSchema,
} from "@atelier/shared/schemas/accounts";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

export const authRouter = router({
  requestCode: publicProcedure
    .input(RequestCodeInputSchema)
    .output(RequestedCodeViewSchema)
    .mutation(async ({ ctx, input }) => {
      const { expiresAt } = await requestSignInCode(ctx, input.email, ctx.requesterIp);
      return { sent: true as const, expiresAt: expiresAt.toISOString() };
    }),

  verifyCode: publicProcedure
    .input(VerifyCodeInputSchema)
    .output(SignedInViewSchema)
    .mutation(async ({ ctx, input }) => {
      const { user, sessionId, expiresAt } = await verifySignInCode(ctx, input.email, input.code);
      ctx.cookies.set(sessionId, expiresAt);
      return { user: await userView(ctx, user) };
    }),

  signOut: publicProcedure.output(SignedOutViewSchema).mutation(async ({ ctx }) => {
    if (ctx.sessionId) await endSession(ctx, ctx.sessionId);
    ctx.cookies.clear();
    return { signedOut: true as const };
  }),

  signOutEverywhere: protectedProcedure.output(SessionsEndedViewSchema).mutation(async ({ ctx }) => {
    const sessionsEnded = await endAllSessions(ctx, ctx.principal.user._id);
    ctx.cookies.clear();
    return { sessionsEnded };
  }),
});
