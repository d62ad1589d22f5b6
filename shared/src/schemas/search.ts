import { z } from "zod";
import { SlugSchema } from "./common";

/** What the ⌘K palette asks: a piece of a title, name or slug. */
export const SearchInputSchema = z
  .object({
    query: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  })
  .strict();
export type SearchInput = z.infer<typeof SearchInputSchema>;

const WhereSchema = z.object({ workspace: z.string(), workspace_name: z.string() });

/** Workspaces, pages and tables whose title (name) or slug contains the query; a few of each. */
export const SearchResultsViewSchema = z.object({
  workspaces: z.array(z.object({ slug: z.string(), name: z.string() })),
  pages: z.array(WhereSchema.extend({ slug: z.string(), title: z.string() })),
  tables: z.array(WhereSchema.extend({ slug: z.string(), name: z.string() })),
});
export type SearchResultsView = z.infer<typeof SearchResultsViewSchema>;

/** What an agent's search_pages asks: words of a page's title or text, in one workspace or all it may read. */
export const SearchPagesInputSchema = z
  .object({ query: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"), workspace: SlugSchema.optional() })
  .strict();
