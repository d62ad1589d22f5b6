// initTRPC once. Domain errors (AppError) become tRPC errors through the one table in
// @atelier/shared/errors; the SPA reads `data.appCode` for the stable code.
import { AppError, ERROR_TABLE, translateDbError, type ErrorCode } from "@atelier/shared/errors";
import { initTRPC, TRPCError } from "@trpc/server";
import type { Context } from "./context";

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause as { code?: unknown } | undefined;
    const appCode =
      cause && typeof cause.code === "string" && cause.code in ERROR_TABLE ? (cause.code as ErrorCode) : null;
    return { ...shape, data: { ...shape.data, stack: undefined, appCode } };
  },
});

const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const err = translateDbError(result.error.cause);
    if (err instanceof AppError) throw new TRPCError({ code: err.rule.trpc, message: err.message, cause: err });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(domainErrors);
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind !== "user") {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  }
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});
