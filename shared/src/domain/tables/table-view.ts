// What a client sees of a table and of a row.
import type { CollectionDoc, RowDoc } from "../../db/index";
import type { RowView, TableView } from "../../schemas/tables";
import { actorForReader, type Reader } from "../access";

export function tableView(c: CollectionDoc): TableView {
  return { id: c._id, slug: c.slug, name: c.name, kind: c.kind, columns: c.columns, row_count: c.rowCount };
}

export function rowView(r: RowDoc, reader: Reader): RowView {
  return { row_id: r._id, version: r.version, values: r.values, updated_by: actorForReader(r.updatedBy, reader), updated_at: r.updatedAt.toISOString() };
}
