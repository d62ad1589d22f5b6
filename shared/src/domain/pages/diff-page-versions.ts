import { AppError } from "../../errors";
import { revisionId } from "../../ids";
import type { DiffPageVersionsInput, PageDiffView } from "../../schemas/pages";
import type { Principal } from "../access";
import type { StoreDeps } from "../deps";
import { readablePage } from "./page-store";
import { versionsDiff } from "./version-diff";

/**
 * The unified diff of a page's text from version `from` to version `to` (default: the current
 * one), for anyone who may read the page, while both versions are kept. Applying it to the
 * text of `from` gives the text of `to` exactly.
 */
export async function diffPageVersions(deps: StoreDeps, principal: Principal, input: DiffPageVersionsInput): Promise<PageDiffView> {
  const { page } = await readablePage(deps, principal, { slug: input.slug });
  const version = async (n: number) => {
    if (n === page.version) return { version: n, title: page.title, parts: page.parts };
    const rev = n < page.version ? await deps.database.c.revisions.findOne({ _id: revisionId(page._id, n) }) : null;
    if (!rev) throw new AppError("not_found", `The page has no version ${n} (or it is no longer kept); it is at version ${page.version}.`);
    return { version: n, title: rev.title, parts: rev.parts };
  };
  const from = await version(input.from);
  const to = await version(input.to ?? page.version);
  return { slug: page.slug, from: from.version, to: to.version, title_from: from.title, title_to: to.title, ...versionsDiff(page.slug, from, to) };
}
