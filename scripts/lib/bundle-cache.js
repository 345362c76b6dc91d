// Runs the project's TypeScript without a type-checking compile, and starts it fast. esbuild bundles an entry
// point with everything it imports (main.ts, src/, .gen/ and the packages) into one CommonJS file, cached
// under a key of everything that could change it; V8's code cache for that file is kept next to it, so a
// run neither resolves hundreds of modules nor parses them again. `npm test` runs `tsc --noEmit` for types.

const { createHash } = require("node:crypto");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const vm = require("node:vm");

const ROOT = path.resolve(__dirname, "..", "..");
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "autonomous-eks");
/** Folders whose .ts files an entry point may import. */
const SOURCE_DIRS = ["src", ".gen"];
/** Files that change how the sources compile or what the packages are. */
const BUILD_INPUTS = ["tsconfig.json", "package-lock.json", __filename];
/**
 * Left to require() at run time: esbuild is a native binary (the CoreDNS Lambda bundle loads it only on a
 * cache miss), and the AWS SDK is loaded only by the planner's --live mode.
 */
const EXTERNAL = ["esbuild", "@aws-sdk/*", "@smithy/*"];

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

/**
 * cdktf zips an archive asset by running its own lib/private/fs.js as a script (`node ${__filename}`), so that
 * module must stay a file on disk rather than a part of the bundle. It is required lazily, on the first use of
 * one of its functions: loading it pulls in archiver and about 95 files behind it, a fifth of a synth whose
 * cluster has no asset (only the CoreDNS Lambda mode has one). The bare specifier is resolved by Node from the
 * bundle's own folder (under node_modules/.cache), so a bundle holds no absolute path and survives the project
 * folder being moved or restored elsewhere.
 */
const CDKTF_FS = "cdktf/lib/private/fs";
const lazyCdktfFs = {
  name: "lazy-cdktf-private-fs",
  setup(build) {
    // The stand-in's own require: left to Node at run time.
    build.onResolve({ filter: /^cdktf\/lib\/private\/fs$/, namespace: "lazy-cdktf-fs" }, () => ({ path: CDKTF_FS, external: true }));
    build.onResolve({ filter: /private\/fs$/ }, (args) =>
      args.importer.includes(`${path.sep}cdktf${path.sep}lib${path.sep}`) ? { path: CDKTF_FS, namespace: "lazy-cdktf-fs" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-cdktf-fs" }, () => ({
      contents: `let real;
const load = () => (real ??= require(${JSON.stringify(CDKTF_FS)}));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, key) => Object.getOwnPropertyDescriptor(load(), key) });`,
      loader: "js",
    }));
  },
};

/**
 * cdktf records a full stack trace for every token it creates (Error.captureStackTrace with no depth limit),
 * only to print where a token was made when resolving it fails: about 5% of a synth, and a fifth of a large
 * fleet's. The bundle records none, so such an error (a bug in this project, not a config mistake) says what
 * failed but not where the token was created; running the app from source (the tests) keeps the traces.
 */
const noTokenStackTraces = {
  name: "no-token-stack-traces",
  setup(build) {
    build.onResolve({ filter: /private\/stack-trace$/ }, (args) =>
      args.importer.includes(`${path.sep}cdktf${path.sep}lib${path.sep}`) ? { path: "stack-trace", namespace: "no-token-stack-traces" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "no-token-stack-traces" }, () => ({ contents: "exports.captureStackTrace = () => [];", loader: "js" }));
  },
};

function bundleName(entry) {
  return entry.replace(/\.ts$/, "").replace(/[^A-Za-z0-9]+/g, "-");
}

/** Writes a file whole or not at all: a parallel run never reads half of it. */
function writeAtomically(file, contents) {
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, contents);
  fs.renameSync(partial, file);
}

/**
 * The bundled JavaScript of a TypeScript entry point (a path relative to the project root), built on the
 * first call after any input changed. (esbuild takes plugins in its asynchronous API only.)
 */
async function bundlePath(entry) {
  const name = bundleName(entry);
  const stem = `${name}-${cacheKey(entry)}`;
  const file = path.join(CACHE_DIR, `${stem}.js`);
  if (fs.existsSync(file)) return file;
  const esbuild = require("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    format: "cjs",
    external: EXTERNAL,
    plugins: [lazyCdktfFs, noTokenStackTraces],
    write: false,
    logLevel: "error",
    // A smaller source is less memory for V8 to hold (about 4 MB of a synth's peak). Names stay: cdktf and
    // the stack traces of a bug still read. A linked source map maps those traces back to the sources when
    // node runs with --enable-source-maps.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    outfile: file,
  });
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // Bundles (and code caches) of older sources of the same entry are of no further use. Files of this key are
  // kept: a parallel run of the same sources (jest workers) may have just written, or be about to read, them.
  for (const old of fs.readdirSync(CACHE_DIR)) {
    if (old.startsWith(`${name}-`) && !old.startsWith(stem)) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  }
  // The map first: a bundle is only ever found complete with its map.
  const [map, code] = [".map", ".js"].map((end) => result.outputFiles.find((f) => f.path.endsWith(end)));
  writeAtomically(`${file}.map`, map.contents);
  writeAtomically(file, code.contents);
  return file;
}

/** V8 accepts a code cache only from the same V8 with the same flags: one cache file per flag set. */
function codeCachePath(bundle) {
  const flags = createHash("sha256")
    .update(process.execArgv.join(" "))
    .update(process.env.NODE_OPTIONS ?? "")
    .digest("hex")
    .slice(0, 8);
  return `${bundle}.${flags}.v8cache`;
}

/**
 * Runs a bundle as a CommonJS module, from V8's code cache when there is one; after the first run it writes
 * the cache, which then also holds the functions that run compiled (most of the app runs once per synth).
 */
function loadBundle(bundle) {
  const cacheFile = codeCachePath(bundle);
  const cachedData = fs.existsSync(cacheFile) ? fs.readFileSync(cacheFile) : undefined;
  const script = new vm.Script(Module.wrap(fs.readFileSync(bundle, "utf8")), { filename: bundle, cachedData });
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false };
  const moduleFunction = script.runInThisContext();
  moduleFunction.call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, path.dirname(bundle));
  if (cachedData === undefined || script.cachedDataRejected) writeAtomically(cacheFile, script.createCachedData());
  return module.exports;
}

/** Loads a TypeScript entry point in this process, through the bundle and code caches. */
async function requireTypeScript(entry) {
  return loadBundle(await bundlePath(entry));
}

module.exports = { bundlePath, requireTypeScript, ROOT };
