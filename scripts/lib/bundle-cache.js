// Runs the project's TypeScript without a type-checking compile: esbuild bundles an entry point and its
// local imports (main.ts, src/, .gen/) into one CommonJS file, packages stay external (required from
// node_modules as usual), and the result is cached under a key of everything that could change it. A synth
// then costs what the app itself costs; `npm test` runs `tsc --noEmit` for the types.

const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..", "..");
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "autonomous-eks");
/** Folders whose .ts files an entry point may import. */
const SOURCE_DIRS = ["src", ".gen"];
/** Files that change how the sources compile or what the packages are. */
const BUILD_INPUTS = ["tsconfig.json", "package-lock.json", __filename];

function listTypeScript(dir, found = []) {
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listTypeScript(full, found);
    else if (entry.name.endsWith(".ts")) found.push(full);
  }
  return found;
}

/** The cache key: the entry, every source file (path and bytes), the build inputs, node and esbuild. */
function cacheKey(entry) {
  const hash = createHash("sha256").update(entry).update(process.version);
  const files = [
    path.join(ROOT, entry),
    ...SOURCE_DIRS.flatMap((dir) => listTypeScript(path.join(ROOT, dir))).sort(),
    ...BUILD_INPUTS.map((f) => path.resolve(ROOT, f)),
  ];
  for (const file of files) hash.update(path.relative(ROOT, file)).update("\0").update(fs.readFileSync(file)).update("\0");
  // The installed esbuild's version: read from its package.json, so that a cache hit never loads esbuild.
  hash.update(JSON.parse(fs.readFileSync(require.resolve("esbuild/package.json"), "utf8")).version);
  return hash.digest("hex").slice(0, 20);
}

function bundleName(entry) {
  return entry.replace(/\.ts$/, "").replace(/[^A-Za-z0-9]+/g, "-");
}

/**
 * The bundled JavaScript of a TypeScript entry point (a path relative to the project root), built on the
 * first call after any input changed. Written then renamed, so a parallel run never reads half a file.
 */
function bundlePath(entry) {
  const name = bundleName(entry);
  const file = path.join(CACHE_DIR, `${name}-${cacheKey(entry)}.js`);
  if (fs.existsSync(file)) return file;
  const esbuild = require("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [path.join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    format: "cjs",
    packages: "external",
    write: false,
    logLevel: "error",
  });
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // Bundles of older sources of the same entry are of no further use.
  for (const old of fs.readdirSync(CACHE_DIR)) {
    if (old.startsWith(`${name}-`) && old.endsWith(".js")) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  }
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, result.outputFiles[0].contents);
  fs.renameSync(partial, file);
  return file;
}

/** Loads a TypeScript entry point in this process, through the bundle cache. */
function requireTypeScript(entry) {
  return require(bundlePath(entry));
}

module.exports = { bundlePath, requireTypeScript, ROOT };
