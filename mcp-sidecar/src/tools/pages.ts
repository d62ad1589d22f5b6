import {
  createPage as createPageInDomain,
  deletePage as deletePageInDomain,
  getPage as getPageInDomain,
  listPages as listPagesInDomain,
  pageHistory,
  searchPages as searchPagesInDomain,
  updatePage as updatePageInDomain,
} from "@atelier/shared/domain/pages";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { CreatePageInputSchema, UpdatePageInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { CursorSchema, LimitSchema, PageSummaryViewSchema, PageViewSchema, RevisionViewSchema } from "./views";
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

export const getPage = defineTool({
  name: "get_page",
  title: "Get a page",
  description: "Reads one page, with its parts (Markdown or HTML), version and who last changed it. Give slug or page_id.",
  access: "read",
  input: z
    .object({ slug: SlugSchema.optional(), page_id: z.uuid().optional() })
    .strict()
    .refine((v) => (v.slug === undefined) !== (v.page_id === undefined), { message: "give exactly one of slug or page_id", path: ["slug"] }),
  output: z.object({ page: PageViewSchema }),
  annotations: READ,
  async run(ctx, input) {
    const by = input.slug !== undefined ? { slug: input.slug } : { pageId: input.page_id ?? "" };
    return { page: await getPageInDomain(ctx, ctx.principal, by) };
  },
});

export const searchPages = defineTool({
  name: "search_pages",
  title: "Search pages",
  description: "Finds pages whose title, summary or text contains the query (case-insensitive), in one workspace or in all of yours. At most 20 results.",
  access: "read",
  input: z.object({ query: z.string().trim().min(1).max(200), workspace: SlugSchema.optional() }).strict(),
  output: z.object({ pages: z.array(PageSummaryViewSchema) }),
  annotations: READ,
  run(ctx, input) {
    return searchPagesInDomain(ctx, ctx.principal, input);
  },
});

export const getPageHistory = defineTool({
  name: "get_page_history",
  title: "Page history",
  description: "Lists every version of a page, newest first, with who made it (a person, or an agent and the person it acts for).",
  access: "read",
  input: z.object({ slug: SlugSchema }).strict(),
  output: z.object({ versions: z.array(RevisionViewSchema) }),
  annotations: READ,
  async run(ctx, input) {
    return { versions: await pageHistory(ctx, ctx.principal, input.slug) };
  },
});

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

export const updatePage = defineTool({
  name: "update_page",
  title: "Update a page",
  description:
    "Changes a page's title, summary or body. Pass expected_version (the version you read) so that a change made by someone else meanwhile is reported as a conflict instead of being overwritten.",
  access: "write",
  input: UpdatePageInputSchema,
  output: z.object({ page: PageViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(ctx, input) {
    return { page: await updatePageInDomain(ctx, ctx.principal, input) };
  },
});

export const deletePage = defineTool({
  name: "delete_page",
  title: "Delete a page",
  description: "Deletes a page and its history. This cannot be undone.",
  access: "write",
  input: z.object({ slug: SlugSchema }).strict(),
  output: z.object({ deleted: z.object({ page_id: z.string(), slug: z.string() }) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, input) {
    return { deleted: await deletePageInDomain(ctx, ctx.principal, input.slug) };
  },
});
