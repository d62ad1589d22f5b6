import {
  createPage as createPageInDomain,
  deletePage as deletePageInDomain,
  getReadablePage,
  listPages as listPagesInDomain,
  pageHistory,
  searchPages as searchPagesInDomain,
  updatePage as updatePageInDomain,
  viewOf,
} from "@atelier/shared/domain/pages";
import { getReadableWorkspace, listWorkspacesFor } from "@atelier/shared/domain/workspaces";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { CreatePageInputSchema, UpdatePageInputSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";
import { defineTool, READ } from "./define";
import { CursorSchema, LimitSchema, PageSummaryViewSchema, PageViewSchema, RevisionViewSchema } from "./views";

const summary = <T extends { parts: unknown }>({ parts: _parts, ...rest }: T) => rest;

export const listPages = defineTool({
  name: "list_pages",
  title: "List pages",
  description: "Lists the pages of a workspace in slug order, a page of results at a time (follow next_cursor).",
  access: "read",
  input: z.object({ workspace: SlugSchema, collection: SlugSchema.optional(), cursor: CursorSchema.optional(), limit: LimitSchema.optional() }).strict(),
  output: z.object({ pages: z.array(PageSummaryViewSchema), next_cursor: z.string().nullable() }),
  annotations: READ,
  async run(ctx, input) {
    const workspace = await getReadableWorkspace(ctx.database, ctx.principal, input.workspace);
    const { pages, nextCursor } = await listPagesInDomain(ctx.database, ctx.principal, { ...input, workspace });
    const views = await Promise.all(pages.map((p) => viewOf(ctx, p, workspace)));
    return { pages: views.map(summary), next_cursor: nextCursor };
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
    const { page, workspace } = await getReadablePage(ctx.database, ctx.principal, by);
    return { page: await viewOf(ctx, page, workspace) };
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
  async run(ctx, input) {
    const workspace = input.workspace ? await getReadableWorkspace(ctx.database, ctx.principal, input.workspace) : undefined;
    const reachable = workspace ? [] : await listWorkspacesFor(ctx.database, ctx.principal);
    const found = await searchPagesInDomain(ctx.database, ctx.principal, { query: input.query, workspace, reachable });
    const views = await Promise.all(found.map(({ page, workspace: ws }) => viewOf(ctx, page, ws)));
    return { pages: views.map(summary) };
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
    return { versions: await pageHistory(ctx.database, ctx.principal, input.slug) };
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
    const { page, workspace } = await createPageInDomain(ctx, ctx.principal, input);
    return { page: await viewOf(ctx, page, workspace) };
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
    const page = await updatePageInDomain(ctx, ctx.principal, input);
    const { workspace } = await getReadablePage(ctx.database, ctx.principal, { pageId: page._id });
    return { page: await viewOf(ctx, page, workspace) };
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
