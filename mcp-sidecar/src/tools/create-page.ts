import { createPage as createPageInDomain } from "@atelier/shared/domain/pages";
import { CreatePageInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool } from "./define";
import { PageViewSchema } from "./views";

export const createPage = defineTool({
  name: "create_page",
  title: "Create a page",
  description:
    "Creates a page from Markdown (body_markdown) or a whole HTML document (body_html). Without `workspace` it goes to your default workspace (a sandbox token's sandbox). The slug is global: it is the page's public address /a/{slug}.",
  access: "write",
  input: CreatePageInputSchema,
  output: z.object({ page: PageViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { page: (await createPageInDomain(ctx, ctx.principal, input)).page };
  },
});
