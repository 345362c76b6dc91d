import * as fs from "node:fs";
import * as path from "node:path";

// The README and docs/ point at each other and at files of the repository: a link to a file that moved is a
// dead end for the next reader.

const ROOT = path.join(__dirname, "..", "..");
const PAGES = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => path.join("docs", f))].filter((f) => f.endsWith(".md"));

/** Relative Markdown link targets of a page: [text](target), without the #fragment. */
function relativeLinks(page: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, page), "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"));
}

describe("documentation links", () => {
  it("finds the pages and links it checks", () => {
    expect(PAGES).toEqual(expect.arrayContaining(["README.md", path.join("docs", "architecture.md"), path.join("docs", "configuration.md")]));
    expect(PAGES.flatMap(relativeLinks).length).toBeGreaterThan(15);
  });

  it("point at files that exist", () => {
    const dead = PAGES.flatMap((page) =>
      relativeLinks(page)
        .filter((target) => !fs.existsSync(path.join(ROOT, path.dirname(page), target.split("#")[0])))
        .map((target) => `${page} → ${target}`),
    );
    expect(dead).toEqual([]);
  });

  it("the README gives the two commands of a fresh machine: install and synth, then the tests", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toMatch(/^npm ci && npm run synth +#/m);
    expect(readme).toMatch(/^npm test +#/m);
  });
});
