import { listPages as listPagesInDomain } from "@atelier/shared/domain/pages/list-pages";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { CursorSchema, LimitSchema } from "./views";
import { PageListViewSchema } from "@atelier/shared/schemas/pages";

export const listPages = defineTool({
  name: "list_pages",
  input: z.object({ workspace: SlugSchema, collection: SlugSchema.optional(), cursor: CursorSchema.optional(), limit: LimitSchema.optional() }).strict(),
  output: PageListViewSchema,
  annotations: READ,
  run(ctx, input) {
    return listPagesInDomain(ctx, ctx.principal, input);
  },
});
