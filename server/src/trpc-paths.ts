import type { AnyProcedure } from "@trpc/server";
import type { AppRouter } from "./router";

type ProcedurePaths<R, T extends "query" | "mutation", Prefix extends string = ""> = {
  [K in keyof R & string]: R[K] extends AnyProcedure ? (R[K]["_def"]["type"] extends T ? `${Prefix}${K}` : never) : ProcedurePaths<R[K], T, `${Prefix}${K}.`>;
}[keyof R & string];

/** Every tRPC query's dotted path, e.g. "pages.get": a renamed procedure breaks the tests that call it. */
export type QueryPath = ProcedurePaths<AppRouter["_def"]["record"], "query">;
export type MutationPath = ProcedurePaths<AppRouter["_def"]["record"], "mutation">;
