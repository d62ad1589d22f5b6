import { z } from "zod";

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
