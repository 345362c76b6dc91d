#!/usr/bin/env node
// npm run synth: what `cdktf synth` does, without the CLI's start-up (it loads typescript, prettier and babel,
// several seconds, and adds nothing to the output). Runs the app in this process with the environment the
// CLI gives it, removes the folders of stacks that no longer exist, as the CLI does, and says what it wrote.
// cdktf synth, diff and deploy keep working unchanged: they run the same app through cdktf.json.

const fs = require("node:fs");
const path = require("node:path");
const { ROOT, requireTypeScript } = require("./lib/bundle-cache");

const outdir = path.resolve(ROOT, process.env.CDKTF_OUTDIR || JSON.parse(fs.readFileSync(path.join(ROOT, "cdktf.json"), "utf8")).output || "cdktf.out");
const stacksDir = path.join(outdir, "stacks");
const before = fs.existsSync(stacksDir) ? fs.readdirSync(stacksDir) : [];

process.env.CDKTF_OUTDIR = outdir;
process.on("exit", (code) => {
  if (code !== 0) return;
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
  const stacks = Object.values(manifest.stacks);
  for (const orphan of before.filter((name) => !(name in manifest.stacks))) fs.rmSync(path.join(stacksDir, orphan), { recursive: true, force: true });
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
