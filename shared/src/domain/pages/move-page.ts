import { utf8Bytes } from "../../schemas/cells";
import { indexPage } from "../search-index";
import type { PageView } from "../../schemas/pages";
import { actorOf, assertCan, type Principal } from "../access";
import { applyVisibilitySince, forgetArtifact, renderDocument, reserveSlug, SLUG_REDIRECT_DAYS } from "../artifacts";
import { addSeconds, now } from "../clock";
import { recordEvent } from "../events";
import { etagOf } from "../render";
import { holding, withClaim, type WriteDeps } from "../versioned-write";
import { forgetPage, pageSlugKey, readablePage } from "./page-store";
import { PAGES } from "./page-versions";
import { viewOf } from "./page-view";

/**
 * Gives a page a new address. Its old one keeps answering with a redirect for
 * SLUG_REDIRECT_DAYS (and so do addresses it had before, now pointing at the new one); a
 * page of the same workspace may take the old address sooner. The page's next version is
 * claimed meanwhile, with the claim and retry policy of every write (versioned-write.ts),
 * so no write lands on the old address; the move itself makes no new version. Steps: the
 * new address is reserved and given the current document, the old one becomes the
 * redirect, then the page takes the new slug. Stopped after the first step, the page still
 * answers at its old address and the same change can simply be made again.
 */
export async function movePage(deps: WriteDeps, principal: Principal, input: { slug: string; newSlug: string }): Promise<PageView> {
  const { database } = deps;
  const read = async () => {
    const { page, ws } = await readablePage(deps, principal, { slug: input.slug });
    assertCan(principal, ws, "write", "page");
    return { doc: page, ws };
  };
  const first = await read();
  if (input.newSlug === first.doc.slug) return viewOf(deps, principal, first.doc, first.ws);
  let moved = false;
  const { page, ws } = await withClaim(deps, PAGES, { read }, async (page, ws, claim) => {
    try {
      await reserveSlug(deps, { slug: input.newSlug, pageId: page._id, workspaceId: ws._id });
      const current = await database.c.artifacts.findOne({ _id: page.slug, pageId: page._id });
      const html = current?.html ?? (await renderDocument(deps, { ...page, slug: input.newSlug }));
      await database.c.artifacts.updateOne(
        { _id: input.newSlug, pageId: page._id },
        {
          $set: {
            html,
            etag: current?.etag ?? etagOf(html),
            version: page.version,
            public: current?.public ?? false,
            bytes: current?.bytes ?? utf8Bytes(html),
            redirect: null,
            updatedAt: now(),
          },
        },
      );
      // The new address's `public` is copied; a visibility change running meanwhile may have passed it already.
      await applyVisibilitySince(deps, { _id: page._id, slug: input.newSlug, workspaceId: ws._id }, current?.public ?? false);
      const until = addSeconds(now(), SLUG_REDIRECT_DAYS * 86_400);
      await database.c.artifacts.updateOne(
        { _id: page.slug, pageId: page._id },
        { $set: { html: null, etag: "", bytes: 0, redirect: { to: input.newSlug, until }, updatedAt: now() } },
      );
      moved = true;
      await database.c.pages.updateOne(holding(page._id, claim), { $set: { slug: input.newSlug, writing: null, updatedAt: now() } });
      // Addresses the page had before point straight at the new one (no chains of redirects).
      await database.c.artifacts.updateMany({ pageId: page._id, "redirect.until": { $gt: now() } }, { $set: { "redirect.to": input.newSlug } });
      return { page, ws };
    } catch (err) {
      if (!moved) await database.c.artifacts.deleteOne({ _id: input.newSlug, pageId: page._id, redirect: null }).catch(() => undefined);
      throw err;
    } finally {
      forgetPage(deps, page._id);
      for (const s of [page.slug, input.newSlug]) {
        forgetArtifact(deps, s);
        deps.cache.delete(pageSlugKey(s));
      }
    }
  });
  // Its address is searched too: the same version, indexed again under the new one.
  await indexPage(deps, { ...page, slug: input.newSlug, writing: null });
  await recordEvent(deps, { workspaceId: ws._id, type: "page.moved", actor: actorOf(principal), target: { kind: "page", id: page._id, label: page.title } });
  return viewOf(deps, principal, { ...page, slug: input.newSlug, writing: null }, ws);
}
