#!/usr/bin/env node
// npm run synth: what `cdktf synth` does, without the CLI's start-up (it loads typescript, prettier and babel,
// several seconds, and adds nothing to the output). Runs the app in this process with the environment the
// CLI gives it and says what it wrote. The app replaces the whole output (src/stacks/staged-output.ts), so
// the folders of stacks that no longer exist go, as the CLI removes them.
// cdktf synth, diff and deploy keep working unchanged: they run the same app through cdktf.json.

const fs = require("node:fs");
const path = require("node:path");
const { ROOT, requireTypeScript } = require("./lib/bundle-cache");
const { exitQuietlyOnClosedPipe } = require("./lib/quiet-pipe");

exitQuietlyOnClosedPipe();

const USAGE = `usage: [CLUSTER_CONFIG=<file or folder>] [CDKTF_OUTDIR=<folder>] npm run synth
  Synthesizes the cluster config CLUSTER_CONFIG names (a file, or a folder of them: a fleet), else the
  embedded default cluster, into CDKTF_OUTDIR (default cdktf.out). It takes no arguments.`;

// The config comes from CLUSTER_CONFIG only: an argument such as a file name would otherwise be ignored and
// the default cluster synthesized in its place.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
  console.log(USAGE);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`npm run synth: got ${JSON.stringify(args.join(" "))}; takes no arguments (name the config with CLUSTER_CONFIG)\n${USAGE}`);
  process.exit(2);
}

const outdir = path.resolve(ROOT, process.env.CDKTF_OUTDIR || JSON.parse(fs.readFileSync(path.join(ROOT, "cdktf.json"), "utf8")).output || "cdktf.out");

process.env.CDKTF_OUTDIR = outdir;
// Registered before main.ts registers the release of the output folder's lock, so it reads what this synth wrote.
process.on("exit", (code) => {
  if (code !== 0) return;
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
  const stacks = Object.values(manifest.stacks);
  const lines = stacks.map((stack) => {
    const json = JSON.parse(fs.readFileSync(path.join(outdir, stack.synthesizedStackPath), "utf8"));
    const resources = Object.values(json.resource ?? {}).reduce((n, byName) => n + Object.keys(byName).length, 0);
    const file = path.join(outdir, stack.synthesizedStackPath);
    const relative = path.relative(process.cwd(), file);
    return `  ${relative.startsWith("..") ? file : relative}  (${resources} resources)`;
  });
  console.log(`Synthesized ${stacks.length} stacks:\n${lines.join("\n")}`);
});
requireTypeScript("main.ts").catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
