#!/usr/bin/env node
// The cdktf app command (cdktf.json "app"): cdktf synth, diff and deploy run this. It runs main.ts from the
// cached bundle, so a synth pays for neither a TypeScript compile nor for resolving every module again.

// cdktf runs it without arguments; one given by hand would be ignored, and the default cluster synthesized.
if (process.argv.length > 2) {
  console.error(
    `scripts/app.js: got ${JSON.stringify(process.argv.slice(2).join(" "))}; takes no arguments: cdktf runs it, and CLUSTER_CONFIG names the config (npm run synth -- --help)`,
  );
  process.exit(2);
}

require("./lib/bundle-cache")
  .requireTypeScript("main.ts")
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
