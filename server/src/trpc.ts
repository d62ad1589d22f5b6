// initTRPC once. Domain errors (AppError) become tRPC errors through the one table in
// @atelier/shared/errors; the SPA reads `data.appCode` for the stable code. Input that
// fails its schema is a 400 whose message names each field at fault.
import { AppError, ERROR_TABLE, translateDbError, type ErrorCode } from "@atelier/shared/errors";
import { initTRPC, TRPCError } from "@trpc/server";
import type { Context } from "./context";

interface Issue {
  path: string;
  message: string;
}

function inputIssues(cause: unknown): Issue[] | null {
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return null;
  return issues.map((i: { path?: PropertyKey[] | { key: PropertyKey }[]; message?: string }) => ({
    path: (i.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".") || "(input)",
    message: i.message ?? "is invalid",
  }));
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause as { code?: unknown } | undefined;
    const appCode = cause && typeof cause.code === "string" && cause.code in ERROR_TABLE ? (cause.code as ErrorCode) : null;
    const issues = error.code === "BAD_REQUEST" ? inputIssues(error.cause) : null;
    return {
      ...shape,
      message: issues
        ? issues.map((i) => `${i.path}: ${i.message}`).join("; ")
        : error.code === "INTERNAL_SERVER_ERROR"
          ? "Something went wrong on our side."
          : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        appCode: appCode ?? (issues ? "invalid_request" : null),
        issues,
      },
    };
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
