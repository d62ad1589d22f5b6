// What the app knows of a table: its columns and their types, rows and their values, as the
// server sends them; the words for each column type.
import type { RouterInputs, RouterOutputs } from "../../trpc";

export type TableInfo = RouterOutputs["collections"]["list"][number];
export type Column = TableInfo["columns"][number];
export type ColumnType = Column["type"];
export type Cell = string | number | boolean | null;
export type RowValues = Record<string, Cell>;
export type Row = RouterOutputs["rows"]["list"]["rows"][number];
export type RowRevision = RouterOutputs["rows"]["history"][number];
export type ServerFilter = NonNullable<RouterInputs["rows"]["list"]["filter"]>;

export const COLUMN_TYPES: { type: ColumnType; label: string; hint: string }[] = [
  { type: "text", label: "Text", hint: "Any words" },
  { type: "number", label: "Number", hint: "42, 3.5, -1" },
  { type: "boolean", label: "Yes / no", hint: "A checkbox" },
  { type: "date", label: "Date", hint: "2026-11-21" },
  { type: "url", label: "Link", hint: "https://…" },
  { type: "select", label: "Choice", hint: "One of a list" },
];

export function typeLabel(type: ColumnType): string {
  return COLUMN_TYPES.find((t) => t.type === type)?.label ?? type;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function sentence(s: string): string {
  const t = s.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}
