import { z } from "zod";
import { EmailSchema, SixDigitCodeSchema, UserViewSchema } from "./common";

export const RequestCodeInputSchema = z.object({ email: EmailSchema });
export const RequestedCodeViewSchema = z.object({ sent: z.literal(true), expiresAt: z.string() });
export const VerifyCodeInputSchema = z.object({ email: EmailSchema, code: SixDigitCodeSchema });
export const SignedInViewSchema = z.object({ user: UserViewSchema });
export const SignedOutViewSchema = z.object({ signedOut: z.literal(true) });
export const SessionsEndedViewSchema = z.object({ sessionsEnded: z.number() });
