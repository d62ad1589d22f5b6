// Everything but /sign-in. The session and the matched route decide what a path shows:
//   signed in ............ the shell and the page;
//   signed out, public ... the shell (with "Sign in") and the page, read-only;
//   signed out, private .. the sign-in screen right here (after signing in, the same path shows).
// The shell stays mounted while moving between pages, so focus handling and the top bar
// carry over.
import { lazy, Suspense } from "react";
import { matchRoute, useLocation, useRouter } from "wouter";
import { useHistoryState } from "wouter/use-browser-location";
import type { SignedInUser } from "../lib/session";
import { type SignInNotice, useSession } from "../lib/session";
import { type AppRoute, appRoutes } from "../routes/app-routes";
import { AppShell } from "./app-shell";
import { PageError, PageLoading } from "./page-state";

const SignInScreen = lazy(() => import("./sign-in/sign-in-screen").then((m) => ({ default: m.SignInScreen })));
const NotFoundScreen = lazy(() => import("../routes/not-found").then((m) => ({ default: m.NotFoundScreen })));

type Params = Record<string, string | undefined>;

function useMatchedRoute(): { route: AppRoute; params: Params } | null {
  const { parser } = useRouter();
  const [location] = useLocation();
  for (const route of appRoutes) {
    const [matched, params] = matchRoute(parser, route.path, location);
    if (matched) return { route, params };
  }
  return null;
}

export function AppArea() {
  const session = useSession();
  const [location] = useLocation();
  const history = useHistoryState<SignInNotice | null>();
  const matched = useMatchedRoute();

  switch (session.status) {
    case "loading":
      return <PageLoading fullPage label="Opening Atelier…" />;
    case "error":
      return <PageError fullPage error={session.error} onRetry={session.retry} />;
    case "signed-out":
      if (matched?.route.access !== "public") {
        const Step = matched?.route.signIn;
        return (
          <Suspense fallback={<PageLoading fullPage />}>
            {Step ? (
              <Step params={matched.params} next={location} notice={history?.notice ?? null} />
            ) : (
              <>
                <title>Sign in · Atelier</title>
                <SignInScreen next={location} notice={history?.notice ?? null} />
              </>
            )}
          </Suspense>
        );
      }
      return (
        <AppShell user={null}>
          <Suspense fallback={<PageLoading />}>
            <RoutePage route={matched.route} params={matched.params} user={null} />
          </Suspense>
        </AppShell>
      );
    case "signed-in":
      return (
        <AppShell user={session.user}>
          <Suspense fallback={<PageLoading />}>
            {matched ? <RoutePage route={matched.route} params={matched.params} user={session.user} /> : <NotFoundScreen />}
          </Suspense>
        </AppShell>
      );
  }
}

function RoutePage({ route, params, user }: { route: AppRoute; params: Params; user: SignedInUser | null }) {
  // Another workspace or page is a fresh start: no state carries over from the last one.
  const screenParams = route.access === "public" ? route.screenParams : undefined;
  const keyed = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && (!screenParams || screenParams.includes(e[0])));
  const key = `${route.path}?${new URLSearchParams(keyed).toString()}`;
  switch (route.access) {
    case "signed-in": {
      const Page = route.component;
      // Only reached with a user (AppArea shows the sign-in screen otherwise).
      return user ? <Page key={key} user={user} params={params} /> : null;
    }
    case "public": {
      const Page = route.component;
      return <Page key={key} user={user} params={params} />;
    }
  }
}
