import { requestSignInCode, verifySignInCode } from "@atelier/shared/domain/accounts";
import { endAllSessions, endSession } from "@atelier/shared/domain/sessions";
import { userView } from "@atelier/shared/domain/users";
import { EmailSchema, SixDigitCodeSchema, UserViewSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../../trpc";

export const authRouter = router({
  requestCode: publicProcedure
    .input(z.object({ email: EmailSchema }))
    .output(z.object({ sent: z.literal(true), expiresAt: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { expiresAt } = await requestSignInCode(ctx, input.email, ctx.requesterIp);
      return { sent: true as const, expiresAt: expiresAt.toISOString() };
    }),

  verifyCode: publicProcedure
    .input(z.object({ email: EmailSchema, code: SixDigitCodeSchema }))
    .output(z.object({ user: UserViewSchema }))
    .mutation(async ({ ctx, input }) => {
      const { user, sessionId, expiresAt } = await verifySignInCode(ctx, input.email, input.code);
      ctx.cookies.set(sessionId, expiresAt);
      return { user: await userView(ctx, user) };
    }),

  signOut: publicProcedure.output(z.object({ signedOut: z.literal(true) })).mutation(async ({ ctx }) => {
    if (ctx.sessionId) await endSession(ctx, ctx.sessionId);
    ctx.cookies.clear();
    return { signedOut: true as const };
  }),

  signOutEverywhere: protectedProcedure.output(z.object({ sessionsEnded: z.number() })).mutation(async ({ ctx }) => {
    const sessionsEnded = await endAllSessions(ctx, ctx.principal.user._id);
    ctx.cookies.clear();
    return { sessionsEnded };
  }),
});
