// Showing a value: how each column type reads on screen.
import type { Cell, Column } from "./types";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const numberFormat = new Intl.NumberFormat("en", { maximumFractionDigits: 20 });

/** A date column holds a calendar date ("2026-11-21") or a moment (a full ISO timestamp). */
export function isDateOnly(value: string): boolean {
  return DATE_ONLY.test(value);
}

/**
 * A date as the browser's own date input shows it, so what a cell reads and what its input
 * holds look alike: the reader's numeric form ("11/21/2026" in the US, "21/11/2026" in the
 * UK, "21.11.2026" in Germany). A calendar date is the same day everywhere; a moment also
 * has its time, in the reader's zone, as a datetime input shows it.
 */
export function formatDateCell(value: string, locale?: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  const day = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
  if (isDateOnly(value)) return new Intl.DateTimeFormat(locale, { ...day, timeZone: "UTC" }).format(t);
  return new Intl.DateTimeFormat(locale, { ...day, hour: "2-digit", minute: "2-digit" }).format(t);
}

/** A value as words: what a cell reads as, for titles, screen readers and comparisons. */
export function cellText(col: Pick<Column, "type">, value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  switch (col.type) {
    case "number":
      return typeof value === "number" ? numberFormat.format(value) : String(value);
    case "boolean":
      return value === true ? "Yes" : value === false ? "No" : String(value);
    case "date":
      return typeof value === "string" ? formatDateCell(value) : String(value);
    case "text":
    case "url":
    case "select":
      return String(value);
  }
}

/** A short, readable link text: "example.com/docs/…" for a long address. */
export function shortUrl(value: string, max = 40): string {
  const bare = value.replace(/^https?:\/\//, "").replace(/\/$/, "");
  return bare.length > max ? `${bare.slice(0, max - 1)}…` : bare;
}
