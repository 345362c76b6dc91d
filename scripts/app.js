#!/usr/bin/env node
// The cdktf app command (cdktf.json "app"): cdktf synth, diff and deploy run this. It runs main.ts from the
// cached bundle, so a synth pays for neither a TypeScript compile nor for resolving every module again.

require("./lib/bundle-cache")
  .requireTypeScript("main.ts")
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
