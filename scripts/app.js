#!/usr/bin/env node
// The cdktf app command (cdktf.json "app"): cdktf synth, diff and deploy run this. It runs main.ts from the
// cached bundle, so a synth does not pay for a TypeScript compile.

require("./lib/bundle-cache").requireTypeScript("main.ts");
