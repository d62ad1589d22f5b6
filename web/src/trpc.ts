import type { AppRouter } from "@atelier/server/router";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { reportAnswer, reportNoAnswer, reportSessionLost, retryDelayMs, watchBrowserConnection } from "./lib/connection";
import { isClientFault, isUnauthorized } from "./lib/errors";

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** The query key prefix of `me.get`, the one query that says who is signed in. */
export const ME_QUERY_KEY = [["me", "get"]] as const;

/** Attempts a query makes before it shows its error (with a button to try again). */
export const QUERY_ATTEMPTS = 4;

function isMeKey(queryKey?: readonly unknown[]): boolean {
  return Array.isArray(queryKey?.[0]) && queryKey[0][0] === "me" && queryKey[0][1] === "get";
}

/**
 * Lost sessions and lost connections are handled here, once, for every screen:
 * - a call refused for want of a session while someone was signed in raises the "You were
 *   signed out" dialog (connection-notices.tsx) instead of swapping to the public view, so the
 *   editor and its text stay on screen; signed out already, it asks `me.get` again as before;
 * - queries and mutations run whatever the browser's online flag says ("always"), so nothing
 *   waits paused on "Loading…" or "Creating…": they fail and say so;
 * - queries that got no answer (or a 5xx) are retried with backoff; a 4xx would be the same
 *   next time; mutations are not retried on their own (their screens offer "retry");
 * - coming back online refetches what is on screen.
 */
export function makeQueryClient(): QueryClient {
  // Someone is signed in when `me.get` has an answer (a failed refresh keeps the last one).
  const signedIn = () => client.getQueriesData({ queryKey: ME_QUERY_KEY }).some(([, data]) => data !== undefined);
  const sessionMayHaveEnded = (err: unknown, queryKey?: readonly unknown[]) => {
    if (!isUnauthorized(err)) return;
    if (signedIn()) reportSessionLost();
    else if (!isMeKey(queryKey)) void client.invalidateQueries({ queryKey: ME_QUERY_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (err, query) => sessionMayHaveEnded(err, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (err) => sessionMayHaveEnded(err) }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        networkMode: "always",
        retry: (count, err) => count < QUERY_ATTEMPTS - 1 && !isClientFault(err),
        retryDelay: (attempt) => retryDelayMs(attempt),
      },
      mutations: { networkMode: "always", retry: false },
    },
  });
  watchBrowserConnection(() => void client.refetchQueries({ type: "active" }));
  return client;
}

/** fetch, reporting to lib/connection whether Atelier answered at all. */
async function reportingFetch(url: URL | RequestInfo, init?: RequestInit): Promise<Response> {
  try {
    const response = await fetch(url, { ...init, credentials: "same-origin" });
    // A proxy with no server behind it answers 502/504: as good as no answer.
    if (response.status === 502 || response.status === 504) reportNoAnswer();
    else reportAnswer();
    return response;
  } catch (err) {
    if (!(err instanceof DOMException && err.name === "AbortError")) reportNoAnswer();
    throw err;
  }
}

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: "/api/trpc", fetch: reportingFetch })],
  });
}
