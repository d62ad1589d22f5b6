import { z } from "zod";
import { COLUMN_TYPES } from "./cells";
import { ActorViewSchema, CursorSchema, LabelSchema, limitSchema, SlugSchema, type ListLimit } from "./common";

export const CellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const ColumnNameSchema = z.string().min(1).max(63);

export const ColumnSchema = z
  .object({
    name: ColumnNameSchema,
    type: z.enum(COLUMN_TYPES),
    required: z.boolean().optional(),
    options: z.array(z.string()).max(100).optional().describe("The allowed values of a select column"),
  })
  .strict();

export const CreateCollectionInputSchema = z
  .object({
    workspace: SlugSchema.optional(),
    slug: SlugSchema,
    name: LabelSchema(100),
    kind: z.enum(["pages", "table"]),
    columns: z.array(ColumnSchema).max(50).optional(),
  })
  .strict();

export const RangeSchema = z.object({ gt: CellSchema.optional(), gte: CellSchema.optional(), lt: CellSchema.optional(), lte: CellSchema.optional() }).strict();
/** A text, link or choice column whose value holds these characters, in any case. */
export const ContainsSchema = z.object({ contains: z.string().min(1).max(200) }).strict();

/** Rows one list call returns. */
export const ROW_LIST_LIMIT: ListLimit = { min: 1, max: 500, default: 50 };

export const ListRowsInputSchema = z
  .object({
    workspace: SlugSchema.optional(),
    collection: SlugSchema,
    filter: z
      .record(ColumnNameSchema, z.union([CellSchema, RangeSchema, ContainsSchema]))
      .optional()
      .describe("column: value for equality, column: {gt, gte, lt, lte} for ranges, or column: {contains: text} for text that holds it (any case)"),
    sort: z
      .object({ column: ColumnNameSchema, direction: z.enum(["asc", "desc"]) })
      .strict()
      .optional(),
    cursor: CursorSchema.optional(),
    limit: limitSchema(ROW_LIST_LIMIT).optional(),
  })
  .strict();

export const InsertRowsInputSchema = z
  .object({
    workspace: SlugSchema.optional(),
    collection: SlugSchema,
    rows: z.array(z.record(ColumnNameSchema, CellSchema)).min(1).max(500),
  })
  .strict();

const RowIdSchema = z.string().regex(/^row_[A-Za-z0-9]{10,40}$/, "is not a row id");

export const UpdateRowInputSchema = z
  .object({
    workspace: SlugSchema.optional(),
    collection: SlugSchema,
    row_id: RowIdSchema,
    values: z.record(ColumnNameSchema, CellSchema),
    expected_version: z.number().int().min(1).optional(),
  })
  .strict();

export const DeleteRowInputSchema = z
  .object({ workspace: SlugSchema.optional(), collection: SlugSchema, row_id: RowIdSchema, expected_version: z.number().int().min(1).optional() })
  .strict();

export const ColumnViewSchema = z.object({
  name: z.string(),
  type: z.enum(COLUMN_TYPES),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
});

export const TableViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(["pages", "table"]),
  columns: z.array(ColumnViewSchema),
  row_count: z.number(),
});

export type TableView = z.infer<typeof TableViewSchema>;

export const RowViewSchema = z.object({
  row_id: z.string(),
  version: z.number(),
  values: z.record(z.string(), CellSchema),
  updated_by: ActorViewSchema,
  updated_at: z.string(),
});
export type RowView = z.infer<typeof RowViewSchema>;

export const RowListViewSchema = z.object({ table: TableViewSchema, rows: z.array(RowViewSchema), next_cursor: z.string().nullable() });
export type RowListView = z.infer<typeof RowListViewSchema>;

export const RowRevisionViewSchema = z.object({
  version: z.number(),
  values: z.record(z.string(), CellSchema).nullable(),
  deleted: z.boolean(),
  actor: ActorViewSchema,
  created_at: z.string(),
});
export type RowRevisionView = z.infer<typeof RowRevisionViewSchema>;

// ---- a table's settings ----------------------------------------------------------------------

const TableRefShape = { workspace: SlugSchema, collection: SlugSchema };

export const RenameTableInputSchema = z.object({ ...TableRefShape, name: LabelSchema(100) }).strict();
export const ColumnRefInputSchema = z.object({ ...TableRefShape, column: ColumnNameSchema }).strict();
export const AddColumnInputSchema = z.object({ ...TableRefShape, column: ColumnSchema }).strict();
export const RenameColumnInputSchema = z.object({ ...TableRefShape, column: ColumnNameSchema, name: ColumnNameSchema }).strict();
export const RemoveColumnInputSchema = z
  .object({
    ...TableRefShape,
    column: ColumnNameSchema,
    // Required: a column is never dropped without the count the person confirmed (0 for an empty one).
    expected_values: z.number().int().min(0).describe("How many rows with a value the person confirmed dropping"),
  })
  .strict();
export const ChangeColumnTypeInputSchema = z
  .object({ ...TableRefShape, column: ColumnNameSchema, type: z.enum(COLUMN_TYPES), options: z.array(z.string()).max(100).optional() })
  .strict();
export const TableRefInputSchema = z.object(TableRefShape).strict();
export const ColumnValuesViewSchema = z.object({ column: z.string(), rows_with_values: z.number() });

// ---- a table's settings for agents (change_table, issue 26 parity) ---------------------------

/** One change of a table's settings; removing a column needs the count of rows whose value it drops. */
export const TableChangeSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("rename"), name: LabelSchema(100) }).strict(),
  z.object({ op: z.literal("add_column"), column: ColumnSchema }).strict(),
  z.object({ op: z.literal("rename_column"), column: ColumnNameSchema, name: ColumnNameSchema }).strict(),
  z
    .object({
      op: z.literal("remove_column"),
      column: ColumnNameSchema,
      expected_values: z
        .number()
        .int()
        .min(0)
        .describe("How many rows have a value in the column, whose values you confirm dropping (a conflict tells the count if it is more)"),
    })
    .strict(),
  z
    .object({ op: z.literal("change_column_type"), column: ColumnNameSchema, type: z.enum(COLUMN_TYPES), options: z.array(z.string()).max(100).optional() })
    .strict(),
]);

export const ChangeTableInputSchema = z.object({ workspace: SlugSchema.optional(), collection: SlugSchema, change: TableChangeSchema }).strict();
export type ChangeTableInput = z.infer<typeof ChangeTableInputSchema>;

/** The app's table list names its workspace; an agent's may leave it out (every workspace it can read). */
export const ListTablesInputSchema = z.object({ workspace: SlugSchema });
export const ListCollectionsInputSchema = z.object({ workspace: SlugSchema.optional() }).strict();
export const RowHistoryInputSchema = z.object({ workspace: SlugSchema, collection: SlugSchema, row_id: z.string().max(60) });
export const DeletedTableViewSchema = z.object({ slug: z.string() });
export const InsertedRowsViewSchema = z.object({ row_ids: z.array(z.string()) });
export const DeletedRowViewSchema = z.object({ row_id: z.string() });
