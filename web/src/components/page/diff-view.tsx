import type { DiffLine } from "@atelier/shared/domain/text-diff";
import "./diff-view.css";

/** A text with the lines the other side lacks highlighted; the full text is always shown. */
export function DiffView({ lines, label, tone }: { lines: DiffLine[]; label: string; tone: "mine" | "theirs" }) {
  return (
    <pre className={`diff diff--${tone}`} aria-label={label} tabIndex={0}>
      {lines.map((line, i) => (
        <span key={i} className={line.changed ? "diff__line diff__line--changed" : "diff__line"}>
          {line.changed ? <span className="sr-only">Differs: </span> : null}
          {line.text === "" ? "\u200b" : line.text}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}
