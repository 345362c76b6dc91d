// A unified diff of two texts, line by line, as `diff -u` prints its hunks: what a reviewer reads in a
// ```diff block. The longest common subsequence is computed by dynamic programming, which is plenty for the
// manifests and values files it is used on (hundreds of lines).

const CONTEXT = 3;

type Edit = { readonly op: " " | "-" | "+"; readonly line: string };

function edits(before: readonly string[], after: readonly string[]): Edit[] {
  const n = before.length;
  const m = after.length;
  // lcs[i][j]: the longest common subsequence of before[i..] and after[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = before[i] === after[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const result: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      result.push({ op: " ", line: before[i] });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removals first, as diff -u prints them.
      result.push({ op: "-", line: before[i++] });
    } else {
      result.push({ op: "+", line: after[j++] });
    }
  }
  return result;
}

/** A hunk's range as diff -u writes it: "start,count", the count left out when it is 1, an empty range after its line. */
const range = (linesBefore: number, count: number): string =>
  count === 0 ? `${linesBefore},0` : count === 1 ? `${linesBefore + 1}` : `${linesBefore + 1},${count}`;

const splitLines = (text: string): string[] => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

/** The hunks (`@@ -a,b +c,d @@` and their lines); "" when the texts are the same. */
export function unifiedDiff(before: string, after: string): string {
  const all = edits(splitLines(before), splitLines(after));
  const changed = all.map((e, k) => (e.op === " " ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return "";
  // Group changes whose context windows touch into hunks.
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const last = hunks[hunks.length - 1];
    if (last !== undefined && k - last[1] <= 2 * CONTEXT) last[1] = k;
    else hunks.push([k, k]);
  }
  const lines: string[] = [];
  for (const [first, last] of hunks) {
    const start = Math.max(0, first - CONTEXT);
    const end = Math.min(all.length - 1, last + CONTEXT);
    // Line numbers (1-based) where the hunk starts in each text.
    const before = all.slice(0, start).filter((e) => e.op !== "+").length;
    const after = all.slice(0, start).filter((e) => e.op !== "-").length;
    const hunk = all.slice(start, end + 1);
    const beforeCount = hunk.filter((e) => e.op !== "+").length;
    const afterCount = hunk.filter((e) => e.op !== "-").length;
    lines.push(`@@ -${range(before, beforeCount)} +${range(after, afterCount)} @@`);
    for (const e of hunk) lines.push(`${e.op}${e.line}`);
  }
  return `${lines.join("\n")}\n`;
}
