// Table views on a page: the specs a page's table_view parts hold.
import type { RouterInputs } from "../../trpc";

export type TableViewSpec = NonNullable<RouterInputs["pages"]["update"]["tables"]>[number];

/** A spec with its keys in one order and nothing empty, so two specs compare as strings. */
export function canonicalSpec(spec: TableViewSpec): TableViewSpec {
  return {
    collection: spec.collection,
    ...(spec.columns && spec.columns.length > 0 ? { columns: [...spec.columns] } : {}),
    ...(spec.sort ? { sort: { column: spec.sort.column, direction: spec.sort.direction } } : {}),
    ...(spec.limit !== undefined ? { limit: spec.limit } : {}),
  };
}

/** The table_view parts of a page, in order, as specs. */
export function tableSpecsOf(parts: { kind: string; body: string; position: number }[]): TableViewSpec[] {
  return [...parts]
    .sort((a, b) => a.position - b.position)
    .filter((p) => p.kind === "table_view")
    .flatMap((p) => {
      try {
        const v = JSON.parse(p.body) as Partial<TableViewSpec>;
        return typeof v.collection === "string" ? [canonicalSpec(v as TableViewSpec)] : [];
      } catch {
        return [];
      }
    });
}
