// "Did you mean" for names (instance types, limit keys, add-on configuration keys): optimal string alignment
// distance (Levenshtein plus adjacent transpositions, the typo a hand makes: "m5.lagre"), bounded by a third of
// the name's length.

export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The closest candidates: nearest first, then the longest shared prefix ("m7" is nearer m7g than m1), then alphabetical. */
export function closestNames(value: string, candidates: Iterable<string>, limit = 3): string[] {
  const wanted = value.toLowerCase();
  const budget = Math.max(1, Math.floor(wanted.length / 3));
  const scored: [string, number, number][] = [];
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - wanted.length) > budget) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= budget) scored.push([candidate, distance, commonPrefix(wanted, candidate.toLowerCase())]);
  }
  return scored
    .sort(([a, da, pa], [b, db, pb]) => da - db || pb - pa || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([name]) => name);
}
