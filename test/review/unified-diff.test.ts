import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { unifiedDiff } from "../../src/review/unified-diff";
import { testFolder } from "../helpers/test-folder";

/** GNU diff's hunks for the same texts (its two header lines dropped). */
function gnuDiff(before: string, after: string): string {
  const folder = testFolder("gnu-diff");
  fs.writeFileSync(path.join(folder, "a"), before);
  fs.writeFileSync(path.join(folder, "b"), after);
  const { stdout } = spawnSync("diff", ["-u", "a", "b"], { cwd: folder, encoding: "utf8" });
  return stdout.split("\n").slice(2).join("\n");
}

/** Applies hunks to a text, as patch would: written here, apart from the code under test. */
function applyHunks(before: string, hunks: string): string {
  const source = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let next = 0;
  for (const block of hunks.split(/^(?=@@ )/m).filter(Boolean)) {
    const [header, ...body] = block.replace(/\n$/, "").split("\n");
    const start = Number(/^@@ -(\d+)/.exec(header)?.[1]);
    const count = Number(/^@@ -\d+,(\d+)/.exec(header)?.[1]);
    const from = count === 0 ? start : start - 1;
    out.push(...source.slice(next, from));
    next = from;
    for (const line of body) {
      if (line.startsWith("+")) out.push(line.slice(1));
      else {
        expect(source[next]).toBe(line.slice(1));
        if (line.startsWith(" ")) out.push(line.slice(1));
        next++;
      }
    }
  }
  out.push(...source.slice(next));
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

const lines = (...items: string[]) => `${items.join("\n")}\n`;

describe("unified diff", () => {
  it("prints the hunks GNU diff -u prints", () => {
    const base = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const cases: [string, string][] = [
      [lines(...base), lines(...base.slice(0, 5), "changed", ...base.slice(6))],
      [lines(...base), lines(...base.slice(0, 2), ...base.slice(3, 17), "added", ...base.slice(17))],
      [lines("a", "b", "c"), lines("a", "b", "c", "d")],
      [lines("a", "b", "c"), ""],
      ["", lines("x")],
    ];
    for (const [before, after] of cases) expect(unifiedDiff(before, after)).toBe(gnuDiff(before, after));
  });

  it("is empty for equal texts", () => {
    expect(unifiedDiff(lines("a", "b"), lines("a", "b"))).toBe("");
  });

  it("turns any text into any other when its hunks are applied", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", "d", "key: 1", ""), { maxLength: 30 }).map((l) => (l.length === 0 ? "" : lines(...l)));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applyHunks(before, unifiedDiff(before, after))).toBe(after);
      }),
      { numRuns: 300 },
    );
  });
});
