// /app/sign-in: the sign-in screen; someone already signed in goes on to `next` (or home).
import { useEffect } from "react";
import { Redirect, useSearchParams } from "wouter";
import { useHistoryState } from "wouter/use-browser-location";
import { PageLoading } from "../components/page-state";
import { SignInScreen } from "../components/sign-in/sign-in-screen";
import { isSitePath, safeNext } from "../lib/safe-next";
import { type SignInNotice, useSession } from "../lib/session";

export function SignInRoute() {
  const session = useSession();
  const [params] = useSearchParams();
  const history = useHistoryState<SignInNotice | null>();
  const next = safeNext(params.get("next"));

  if (session.status === "loading") return <PageLoading fullPage />;
  if (session.status === "signed-in") return isSitePath(next) ? <LeaveFor path={next} /> : <Redirect to={next} replace />;
  return (
    <>
      <title>Sign in · Atelier</title>
      <SignInScreen next={next} notice={history?.notice ?? null} email={history?.email ?? ""} />
    </>
  );
}

/** Someone already signed in, sent here from a published page: back to it, as a whole page. */
function LeaveFor({ path }: { path: string }) {
  useEffect(() => window.location.replace(path), [path]);
  return <PageLoading fullPage />;
}
