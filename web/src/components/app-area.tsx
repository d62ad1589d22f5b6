// Everything but /sign-in: with a session, the shell and the page for the path; without one,
// the sign-in screen right here (after signing in, the same path shows).
import { lazy, Suspense } from "react";
import { Route, Switch, useLocation } from "wouter";
import { useHistoryState } from "wouter/use-browser-location";
import { type SignInNotice, useSession } from "../lib/session";
import { signedInRoutes } from "../routes/signed-in-routes";
import { AppShell } from "./app-shell";
import { PageError, PageLoading } from "./page-state";

const SignInScreen = lazy(() => import("./sign-in/sign-in-screen").then((m) => ({ default: m.SignInScreen })));
const NotFoundPage = lazy(() => import("../routes/not-found").then((m) => ({ default: m.NotFoundPage })));

export function SignedInArea() {
  const session = useSession();
  const [location] = useLocation();
  const history = useHistoryState<SignInNotice | null>();

  switch (session.status) {
    case "loading":
      return <PageLoading fullPage label="Opening Atelier…" />;
    case "error":
      return <PageError fullPage error={session.error} onRetry={session.retry} />;
    case "signed-out":
      return (
        <Suspense fallback={<PageLoading fullPage />}>
          <title>Sign in · Atelier</title>
          <SignInScreen next={location} notice={history?.notice ?? null} />
        </Suspense>
      );
    case "signed-in":
      return (
        <AppShell user={session.user}>
          <Suspense fallback={<PageLoading />}>
            <Switch>
              {signedInRoutes.map(({ path, component: Page }) => (
                <Route key={path} path={path}>
                  {(params) => <Page user={session.user} params={params} />}
                </Route>
              ))}
              <Route>
                <NotFoundPage />
              </Route>
            </Switch>
          </Suspense>
        </AppShell>
      );
  }
}
