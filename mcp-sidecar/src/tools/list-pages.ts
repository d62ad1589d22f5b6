import { listPages as listPagesInDomain } from "@atelier/shared/domain/pages";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { CursorSchema, LimitSchema } from "./views";
import { PageListViewSchema } from "@atelier/shared/schemas/pages";

export const listPages = defineTool({
  name: "list_pages",
  title: "List pages",
  description: "Lists the pages of a workspace in slug order, a page of results at a time (follow next_cursor).",
  access: "read",
  input: z.object({ workspace: SlugSchema, collection: SlugSchema.optional(), cursor: CursorSchema.optional(), limit: LimitSchema.optional() }).strict(),
  output: PageListViewSchema,
  annotations: READ,
  run(ctx, input) {
    return listPagesInDomain(ctx, ctx.principal, input);
  },
});
