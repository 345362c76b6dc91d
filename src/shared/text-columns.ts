/**
 * Rows as aligned plain-text columns under a header and a rule, for a terminal: the columns given as right-aligned
 * (numbers) are padded on the left.
 */
export function columns(header: readonly string[], rightAligned: ReadonlySet<number>, rows: readonly (readonly (string | number)[])[]): string[] {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(all[0]), widths.map((w) => "-".repeat(w)).join("  "), ...all.slice(1).map(line)];
}
