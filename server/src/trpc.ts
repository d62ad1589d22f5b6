// initTRPC once. Domain errors (AppError) become tRPC errors through the one table in
// @atelier/shared/errors; the SPA reads `data.appCode` for the stable code and
// `data.issues` (path, code, params) for field problems — never our sentences.
import { AppError, ERROR_TABLE, translateDbError, type ErrorCode, type FieldIssue } from "@atelier/shared/errors";
import { fieldIssuesOf } from "@atelier/shared/schemas/parse";
import { initTRPC, TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Context } from "./context";

/** Field issues of a refused input: the domain's, or zod's when tRPC's input parser refused it. */
function issuesOf(cause: unknown): FieldIssue[] | null {
  if (cause instanceof AppError) return cause.details?.issues ?? null;
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? fieldIssuesOf(issues as z.core.$ZodIssue[]) : null;
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause as { code?: unknown } | undefined;
    const appCode = cause && typeof cause.code === "string" && cause.code in ERROR_TABLE ? (cause.code as ErrorCode) : null;
    const issues = error.code === "BAD_REQUEST" ? issuesOf(error.cause) : null;
    const fromInput = issues !== null && !(error.cause instanceof AppError);
    return {
      ...shape,
      message: fromInput
        ? issues.map((i) => `${i.path || "(input)"}: ${i.message}`).join("; ")
        : error.code === "INTERNAL_SERVER_ERROR"
          ? "Something went wrong on our side."
          : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        appCode: appCode ?? (issues ? "invalid_request" : null),
        issues,
        currentVersion: error.cause instanceof AppError ? (error.cause.details?.current_version ?? null) : null,
        // The domain's coded details as they are, the same as an MCP tool error carries (a conflict's base_version and diff).
        details: error.cause instanceof AppError ? (error.cause.details ?? null) : null,
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
