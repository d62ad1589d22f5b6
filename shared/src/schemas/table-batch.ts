// A block of cells written at once (a paste from a spreadsheet): changes to existing rows,
// each naming the version it builds on, and rows added after them.
import { z } from "zod";
import { CellSchema, RowViewSchema } from "./tables";
import { SlugSchema } from "./common";

const ColumnNameSchema = z.string().min(1).max(63);
const RowIdSchema = z.string().regex(/^row_[A-Za-z0-9]{10,40}$/, "is not a row id");

/** At most this many row changes and new rows in one batch (each). */
export const BATCH_MAX_ROWS = 500;

export const RowChangeSchema = z
  .object({
    row_id: RowIdSchema,
    /** The version the values build on: a row that moved on is reported, not overwritten. */
    expected_version: z.number().int().min(1),
    values: z.record(ColumnNameSchema, CellSchema),
  })
  .strict();

export const UpdateRowsInputSchema = z
  .object({
    workspace: SlugSchema.optional(),
    collection: SlugSchema,
    changes: z.array(RowChangeSchema).max(BATCH_MAX_ROWS).default([]),
    rows: z.array(z.record(ColumnNameSchema, CellSchema)).max(BATCH_MAX_ROWS).default([]),
  })
  .strict();

export const UpdateRowsViewSchema = z.object({
  /** The changed rows as they now are. */
  updated: z.array(RowViewSchema),
  /** The ids of the added rows, in the order sent. */
  inserted: z.array(z.string()),
  /** Rows someone else changed after the version named: left as they are, shown as they are now. */
  conflicts: z.array(z.object({ row_id: z.string(), expected_version: z.number(), row: RowViewSchema })),
});

export type UpdateRowsView = z.infer<typeof UpdateRowsViewSchema>;
