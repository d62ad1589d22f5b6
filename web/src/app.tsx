// The SPA's routes, all under /app. /sign-in stands alone; every other path needs a session
// and is listed in routes/signed-in-routes.tsx.
import { lazy, Suspense } from "react";
import { Route, Router, Switch } from "wouter";
import { PageLoading } from "./components/page-state";
import { SignedInArea } from "./components/signed-in-area";

const SignInPage = lazy(() => import("./routes/sign-in").then((m) => ({ default: m.SignInPage })));

export function App() {
  return (
    <Router base="/app">
      <Suspense fallback={<PageLoading fullPage />}>
        <Switch>
          <Route path="/sign-in">
            <SignInPage />
          </Route>
          <Route>
            <SignedInArea />
          </Route>
        </Switch>
      </Suspense>
    </Router>
  );
}
