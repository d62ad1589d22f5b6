import { getPage as getPageInDomain } from "@atelier/shared/domain/pages/get-page";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { VersionSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { PageViewSchema } from "./views";

export const getPage = defineTool({
  name: "get_page",
  input: z
    .object({
      slug: SlugSchema.optional(),
      page_id: z.uuid().optional(),
      version: VersionSchema.optional().describe("A kept earlier version (get_page_history lists them); default the current one"),
    })
    .strict()
    .refine((v) => (v.slug === undefined) !== (v.page_id === undefined), { message: "give exactly one of slug or page_id", path: ["slug"] }),
  output: z.object({ page: PageViewSchema }),
  annotations: READ,
  async run(ctx, input) {
    const by = input.slug !== undefined ? { slug: input.slug } : { pageId: input.page_id ?? "" };
    return { page: await getPageInDomain(ctx, ctx.principal, by, input.version) };
  },
});
