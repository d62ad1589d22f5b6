import { Link } from "wouter";
import { signInHref } from "../lib/safe-next";

// The sentences are whole strings, so they render (and wrap) exactly as they always have.

/**
 * Why someone can read a public workspace (or one of its tables) but not change it: a
 * visitor can sign in; a signed-in non-member can ask an owner. Nothing for members.
 */
export function ReadOnlyBanner({
  signedIn,
  isMember,
  what,
  path,
}: {
  signedIn: boolean;
  isMember: boolean;
  what: "workspace" | "table";
  /** Where signing in comes back to. */
  path: string;
}) {
  if (!signedIn) {
    return (
      <p className="banner" role="note">
        {`You’re reading a public ${what}. `}
        <Link href={signInHref(path)}>Sign in</Link> if you’re a member and want to edit.
      </p>
    );
  }
  if (!isMember) {
    return (
      <p className="banner" role="note">
        {`This workspace is public, so you can read ${what === "table" ? "this table" : "it"}. Ask an owner to add you if you want to edit.`}
      </p>
    );
  }
  return null;
}
