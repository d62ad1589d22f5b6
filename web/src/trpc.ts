import type { AppRouter } from "@atelier/server/router";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { isClientFault, isUnauthorized } from "./lib/errors";

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The query key prefix of `me.get`, the one query that says who is signed in. */
export const ME_QUERY_KEY = [["me", "get"]] as const;

export function makeQueryClient(): QueryClient {
  // Any call that finds the session gone (expired, or ended from another device) makes the
  // app ask `me.get` again, which then shows the sign-in screen.
  const sessionMayHaveEnded = (err: unknown, queryKey?: readonly unknown[]) => {
    const isMe = Array.isArray(queryKey?.[0]) && queryKey[0][0] === "me" && queryKey[0][1] === "get";
    if (isUnauthorized(err) && !isMe) void client.invalidateQueries({ queryKey: ME_QUERY_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (err, query) => sessionMayHaveEnded(err, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (err) => sessionMayHaveEnded(err) }),
    defaultOptions: {
      // A 4xx will be the same next time; only failures on the way are worth a retry.
      queries: { staleTime: 10_000, retry: (count, err) => count < 2 && !isClientFault(err) },
    },
  });
  return client;
}

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: "/api/trpc", fetch: (url, init) => fetch(url, { ...init, credentials: "same-origin" }) })],
  });
}
