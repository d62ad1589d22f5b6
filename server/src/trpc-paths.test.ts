// The tests' tRPC paths are typed from the router (server/src/testing.ts): these lines are
// checked by `pnpm typecheck`, which fails if the types ever widen to any string again.
import { describe, expect, it } from "vitest";
import { appRouter } from "./router";
import type { MutationPath, QueryPath } from "./trpc-paths";

describe("typed tRPC paths for tests", () => {
  it("name procedures that exist, of the right kind", () => {
    const create: MutationPath = "pages.create";
    const get: QueryPath = "pages.get";
    // @ts-expect-error a query is not a mutation
    const wrongKind: MutationPath = "pages.get";
    // @ts-expect-error a procedure that does not exist
    const missing: QueryPath = "pages.nope";
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    expect(procedures[create]?._def.type).toBe("mutation");
    expect(procedures[get]?._def.type).toBe("query");
    expect(procedures[wrongKind]?._def.type).toBe("query");
    expect(procedures[missing]).toBeUndefined();
  });
});
