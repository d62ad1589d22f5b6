import { listComments } from "@atelier/shared/domain/comments/comments";
import { getPage as getPageInDomain } from "@atelier/shared/domain/pages/get-page";
import { CommentsViewSchema } from "@atelier/shared/schemas/comments";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { VersionSchema, type PageView } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { PageViewSchema } from "./views";

// The output of a plain get_page, one per shared (frozen) page view: a frozen output is
// checked and serialised once (mcp-server.ts), so a hot page costs that once per version.
const OUTPUTS = new WeakMap<object, Readonly<{ page: PageView }>>();
function sharedOutput(page: Readonly<PageView>): Readonly<{ page: PageView }> {
  if (!Object.isFrozen(page)) return { page };
  let out = OUTPUTS.get(page);
  if (!out) OUTPUTS.set(page, (out = Object.freeze({ page })));
  return out;
}

export const getPage = defineTool({
  name: "get_page",
  input: z
    .object({
      slug: SlugSchema.optional(),
      page_id: z.uuid().optional(),
      version: VersionSchema.optional().describe("A kept earlier version (get_page_history lists them); default the current one"),
      comments: z.boolean().optional().describe("Also return the page's open comment threads (as list_comments does); members and their agents only"),
    })
    .strict()
    .refine((v) => (v.slug === undefined) !== (v.page_id === undefined), { message: "give exactly one of slug or page_id", path: ["slug"] }),
  output: z.object({ page: PageViewSchema, comments: CommentsViewSchema.optional() }),
  annotations: READ,
  async run(ctx, input) {
    const by = input.slug !== undefined ? { slug: input.slug } : { pageId: input.page_id ?? "" };
    const page = await getPageInDomain(ctx, ctx.principal, by, input.version);
    if (!input.comments) return sharedOutput(page);
    return { page, comments: await listComments(ctx, ctx.principal, { page: page.slug }) };
  },
});
