import { z } from "zod";
import { SlugSchema } from "./common";
import { PageSummaryViewSchema } from "./pages";

/** What the ⌘K palette asks: words of a title, name, slug or page text (the last one may be half typed). */
export const SearchInputSchema = z
  .object({
    query: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  })
  .strict();
export type SearchInput = z.infer<typeof SearchInputSchema>;

const WhereSchema = z.object({ workspace: z.string(), workspace_name: z.string() });

/** Where a result matched: a short quote of it and where the query's words are in it ([start, end) offsets). */
export const SnippetSchema = z.object({
  text: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type SnippetView = z.infer<typeof SnippetSchema>;

/** Workspaces whose name or slug contains the query; pages and tables ranked by how well they match it; a few of each. */
export const SearchResultsViewSchema = z.object({
  workspaces: z.array(z.object({ slug: z.string(), name: z.string() })),
  pages: z.array(WhereSchema.extend({ slug: z.string(), title: z.string(), snippet: SnippetSchema })),
  tables: z.array(WhereSchema.extend({ slug: z.string(), name: z.string() })),
});
export type SearchResultsView = z.infer<typeof SearchResultsViewSchema>;

/** What an agent's search_pages asks: words of a page's title or text, in one workspace or all it may read. */
export const SearchPagesInputSchema = z
  .object({ query: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"), workspace: SlugSchema.optional() })
  .strict();

/** One page search_pages found: the page's summary, how well it matched (higher is better) and the matched passage. */
export const SearchPageHitSchema = PageSummaryViewSchema.extend({ score: z.number(), snippet: SnippetSchema });
export const SearchPagesViewSchema = z.object({ pages: z.array(SearchPageHitSchema) });
export type SearchPagesView = z.infer<typeof SearchPagesViewSchema>;
