// Plain-text tables for the terminal.
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(fmt)].join("\n");
}

export function fixed(n: number | undefined, digits = 2): string {
  return n === undefined || Number.isNaN(n) ? "-" : n.toFixed(digits);
}
