// The SPA's routes, all under /app. /sign-in stands alone; every other path is listed in
// routes/app-routes.tsx, public-readable or needing a session.
import { lazy, Suspense } from "react";
import { Route, Router, Switch } from "wouter";
import { PageLoading } from "./components/page-state";
import { AppArea } from "./components/app-area";

const SignInRoute = lazy(() => import("./routes/sign-in").then((m) => ({ default: m.SignInRoute })));

export function App() {
  return (
    <Router base="/app">
      <Suspense fallback={<PageLoading fullPage />}>
        <Switch>
          <Route path="/sign-in">
            <SignInRoute />
          </Route>
          <Route>
            <AppArea />
          </Route>
        </Switch>
      </Suspense>
    </Router>
  );
}
