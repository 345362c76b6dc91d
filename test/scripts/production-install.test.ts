import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";

// `npm ci --omit=dev && npm run synth` must work: a deploy pipeline installs only the dependencies. Checked here
// without the network: every package the synth, plan and review code loads is in the production dependency
// tree that `npm ls --omit=dev` reports. (The install itself, measured once by hand, is in docs/performance.md.)

const ROOT = path.resolve(__dirname, "../..");
const ENTRY_POINTS = ["main.ts", "src/planner/cli.ts", "src/review/review-diff.ts", "src/planner/live/refresh-catalogue.ts"];
const SCRIPTS = ["app.js", "synth.js", "plan.js", "review.js", "build-instance-catalogue.js", "lib/bundle-cache.js", "lib/run-cli.js", "lib/quiet-pipe.js"];

/** The folders of the installed packages a production install has. */
function productionPackages(): Set<string> {
  const listed = spawnSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: ROOT, encoding: "utf8" });
  return new Set(
    listed.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => path.relative(ROOT, line)),
  );
}

/** "node_modules/@scope/name" for a file anywhere inside that package (nested node_modules included). */
function packageFolder(file: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)/.exec(file);
  return match?.[1];
}

/** The package folder a bare specifier resolves to from the project root. */
function resolvedFolder(specifier: string): string | undefined {
  const name = /^(@[^/]+\/[^/]+|[^/]+)/.exec(specifier)?.[1];
  return name === undefined ? undefined : path.join("node_modules", name);
}

describe("a production install (npm ci --omit=dev)", () => {
  const production = productionPackages();

  it("holds every package that synth, plan and review bundle", async () => {
    const result = await build({
      entryPoints: ENTRY_POINTS.map((e) => path.join(ROOT, e)),
      absWorkingDir: ROOT,
      bundle: true,
      platform: "node",
      format: "cjs",
      outdir: "out",
      write: false,
      metafile: true,
      external: ["esbuild", "@aws-sdk/*", "@smithy/*", "cdktf/lib/private/fs"],
      logLevel: "error",
    });
    const packages = [...new Set(Object.keys(result.metafile.inputs).flatMap((file) => packageFolder(file) ?? []))];
    expect(packages.length).toBeGreaterThan(10);
    expect(packages.filter((p) => !production.has(p))).toEqual([]);
    // The packages left to Node at run time, as bare specifiers.
    const externals = [
      ...new Set(Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !i.path.startsWith("node:")).map((i) => i.path))),
    ];
    const builtins = new Set(require("node:module").builtinModules as string[]);
    expect(
      externals
        .filter((e) => !builtins.has(e))
        .flatMap((e) => resolvedFolder(e) ?? [])
        .filter((p) => !production.has(p)),
    ).toEqual([]);
  });

  it("holds every package the scripts require", () => {
    const required = SCRIPTS.flatMap((script) =>
      [...fs.readFileSync(path.join(ROOT, "scripts", script), "utf8").matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1]),
    );
    const packages = required.filter((r) => !r.startsWith("node:")).flatMap((r) => resolvedFolder(r) ?? []);
    expect(packages).toContain("node_modules/esbuild");
    expect(packages.filter((p) => !production.has(p))).toEqual([]);
  });

  it("needs no generator at install: the kubectl bindings are committed", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(manifest.scripts.postinstall).toBeUndefined();
    const tracked = spawnSync("git", ["ls-files", ".gen"], { cwd: ROOT, encoding: "utf8" });
    // A fresh clone has them whether or not the tests run in a git checkout.
    if (tracked.status === 0) expect(tracked.stdout).toContain(".gen/providers/kubectl/manifest/index.ts");
  });
});
