// The app's pages, each loaded on first visit (React.lazy). To add one, add a line here; the
// shell, the sign-in guard and the loading state come with it.
//   access "signed-in": needs a session; without one the sign-in screen shows in its place.
//   access "public":    shows to visitors too (user is null), e.g. a public workspace; the
//                       page itself asks the server what the visitor may see.
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { SignedInUser } from "../lib/session";

/** What every signed-in page receives: the user, and the `:params` of its path. */
export interface SignedInScreenProps {
  user: SignedInUser;
  params: Record<string, string | undefined>;
}

/** What a public page receives: the user when someone is signed in, else null. */
export interface PublicScreenProps {
  user: SignedInUser | null;
  params: Record<string, string | undefined>;
}

/** A signed-in page's own sign-in step, shown in its place to a visitor (default: the app's sign-in screen). */
export interface SignInStepProps {
  params: Record<string, string | undefined>;
  /** Where to go once signed in (this path). */
  next: string;
  notice: string | null;
}

export type AppRoute =
  | {
      path: string;
      access: "signed-in";
      component: LazyExoticComponent<ComponentType<SignedInScreenProps>>;
      signIn?: LazyExoticComponent<ComponentType<SignInStepProps>>;
    }
  | {
      path: string;
      access: "public";
      component: LazyExoticComponent<ComponentType<PublicScreenProps>>;
      /**
       * The params that make it another screen (default: all). A page keeps its screen (and an
       * open editor) when only its address changes; it tells pages apart by id itself.
       */
      screenParams?: string[];
    };

export const appRoutes: AppRoute[] = [
  {
    path: "/",
    access: "signed-in",
    component: lazy(() => import("./dashboard").then((m) => ({ default: m.DashboardScreen }))),
  },
  {
    path: "/settings/agents",
    access: "signed-in",
    component: lazy(() => import("./agent-settings").then((m) => ({ default: m.AgentSettingsScreen }))),
  },
  {
    path: "/oauth/consent/:uid",
    access: "signed-in",
    component: lazy(() => import("./oauth-consent").then((m) => ({ default: m.OAuthConsentScreen }))),
    // A person not signed in yet sees which app asks to connect while signing in.
    signIn: lazy(() => import("./oauth-consent").then((m) => ({ default: m.OAuthSignInStep }))),
  },
  {
    path: "/buckets/:slug",
    access: "public",
    component: lazy(() => import("./workspace").then((m) => ({ default: m.WorkspaceScreen }))),
  },
  {
    path: "/buckets/:slug/tables/:table",
    access: "public",
    component: lazy(() => import("./table").then((m) => ({ default: m.TableScreen }))),
  },
  {
    path: "/buckets/:slug/:pageSlug",
    access: "public",
    screenParams: ["slug"],
    component: lazy(() => import("./page").then((m) => ({ default: m.PageScreen }))),
  },
];
