// One cell of a data table, shown (CellValue) or typed into (CellInput), by column type:
// numbers right-aligned, yes/no as a checkbox, dates as dates, links as links, choices as
// tags coloured by what they mean (shared/src/domain/choice-tone.ts). Inputs carry their column name (data-column) so an editor can focus any of them.
import { choiceTone } from "@atelier/shared/domain/choice-tone";
import type { ChangeEvent, KeyboardEvent } from "react";
import { cellText, formatDateCell, isDateOnly, shortUrl } from "../../lib/table/show-value";
import { dateInputType } from "../../lib/table/type-value";
import { type Cell, type Column } from "../../lib/table/types";
import "./cells.css";

export function CellValue({ column, value }: { column: Column; value: Cell | undefined }) {
  if (value === null || value === undefined || value === "") return null;
  switch (column.type) {
    case "number":
      return <span className="cell-number">{cellText(column, value)}</span>;
    case "boolean":
      return <CheckMark on={value === true} />;
    case "date":
      return typeof value === "string" ? (
        <time dateTime={value} title={isDateOnly(value) ? undefined : value}>
          {formatDateCell(value)}
        </time>
      ) : (
        <span>{String(value)}</span>
      );
    case "url":
      return typeof value === "string" && /^https?:\/\//i.test(value) ? (
        <a className="cell-link" href={value} target="_blank" rel="noopener noreferrer nofollow" title={value}>
          {shortUrl(value)}
        </a>
      ) : (
        <span>{String(value)}</span>
      );
    case "select":
      return (
        <span className="cell-option" data-tone={choiceTone(String(value), column.options ?? [])}>
          {String(value)}
        </span>
      );
    case "text": {
      const text = String(value);
      return (
        <span className="cell-text" title={text.length > 60 ? text : undefined}>
          {text}
        </span>
      );
    }
  }
}

/** A ticked or empty box that reads "Yes" or "No". */
export function CheckMark({ on }: { on: boolean }) {
  return (
    <span className={`cell-check ${on ? "cell-check--on" : ""}`}>
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <rect x="1.5" y="1.5" width="13" height="13" rx="3" fill={on ? "currentColor" : "none"} stroke="currentColor" strokeWidth="1.5" />
        {on ? <path d="M4.5 8.2 7 10.5l4.5-5" fill="none" stroke="var(--surface)" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" /> : null}
      </svg>
      <span className="sr-only">{on ? "Yes" : "No"}</span>
    </span>
  );
}

export function CellInput({
  column,
  value,
  onChange,
  id,
  label,
  invalid,
  describedBy,
  onKeyDown,
  stacked = false,
}: {
  column: Column;
  value: string;
  onChange: (value: string) => void;
  id: string;
  /** The accessible name, when no visible <label> points at the input. */
  label?: string;
  invalid: boolean;
  describedBy?: string | undefined;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  /** In a stacked form (phones): full-size fields. */
  stacked?: boolean;
}) {
  const common = {
    id,
    "aria-label": label,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy,
    "aria-required": column.required ? true : undefined,
    "data-column": column.name,
    onKeyDown,
  };
  const inputClass = `cell-input ${stacked ? "cell-input--stacked" : ""}`;
  /** Every input typed into as text. */
  const typed = { ...common, value, onChange: (e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value) };
  switch (column.type) {
    case "boolean":
      return (
        <input
          {...common}
          type="checkbox"
          className="cell-checkbox"
          checked={value === "true"}
          onChange={(e) => onChange(e.target.checked ? "true" : "false")}
        />
      );
    case "select": {
      const options = column.options ?? [];
      return (
        <select {...common} className={`${inputClass} cell-input--select`} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{column.required ? "Choose…" : "—"}</option>
          {/* A value that is no longer an option still shows, so nothing changes by accident. */}
          {value && !options.includes(value) ? <option value={value}>{value}</option> : null}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    }
    case "date":
      return <input {...typed} type={dateInputType(value)} className={`${inputClass} cell-input--date`} />;
    case "number":
      return <input {...typed} type="text" inputMode="decimal" autoComplete="off" className={`${inputClass} cell-input--number`} />;
    case "url":
      return <input {...typed} type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://" className={inputClass} />;
    case "text":
      return <input {...typed} type="text" autoComplete="off" className={inputClass} maxLength={10_000} />;
  }
}
