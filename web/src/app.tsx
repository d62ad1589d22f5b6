// The SPA's routes, all under /app. /sign-in stands alone; every other path is listed in
// routes/app-routes.tsx, public-readable or needing a session.
import { lazy, Suspense } from "react";
import { Route, Router, Switch } from "wouter";
import { PageLoading } from "./components/page-state";
import { AppArea } from "./components/app-area";

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
            <AppArea />
          </Route>
        </Switch>
      </Suspense>
    </Router>
  );
}
