// The pages that need a session, each loaded on first visit (React.lazy). To add one, add a
// line here; the shell, the sign-in guard and the loading state come with it.
//   { path: "/buckets/:slug", component: lazy(() => import("./bucket").then((m) => ({ default: m.BucketPage }))) }
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { SignedInUser } from "../lib/session";

/** What every signed-in page receives: the user, and the `:params` of its path. */
export interface SignedInPageProps {
  user: SignedInUser;
  params: Record<string, string | undefined>;
}

export interface SignedInRoute {
  path: string;
  component: LazyExoticComponent<ComponentType<SignedInPageProps>>;
}

export const signedInRoutes: SignedInRoute[] = [
  { path: "/", component: lazy(() => import("./home").then((m) => ({ default: m.HomePage }))) },
];
