#!/usr/bin/env node
// npm run docs [-- --check]: writes docs/configuration.md from the config schema (each field's .meta()). With
// --check it writes nothing and fails when the committed file is stale, as a pre-commit hook would.

const fs = require("node:fs");
const path = require("node:path");
const { ROOT, requireTypeScript } = require("./lib/bundle-cache");

const args = process.argv.slice(2);
if (args.length > 1 || (args.length === 1 && args[0] !== "--check")) {
  console.error(`npm run docs: got ${JSON.stringify(args.join(" "))}; usage: npm run docs [-- --check]`);
  process.exit(2);
}

requireTypeScript("src/config/configuration-reference.ts").then(({ renderConfigurationReference, undocumentedFields, CONFIGURATION_REFERENCE_PATH }) => {
  const missing = undocumentedFields();
  if (missing.length > 0) {
    console.error(
      `npm run docs: ${missing.length} field(s) have no description (add .meta({ description }) beside them):\n${missing.map((p) => `  ${p}`).join("\n")}`,
    );
    process.exit(1);
  }
  const target = path.join(ROOT, CONFIGURATION_REFERENCE_PATH);
  const text = renderConfigurationReference();
  if (args[0] === "--check") {
    const committed = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
    if (committed !== text) {
      console.error(`${CONFIGURATION_REFERENCE_PATH} is stale: run npm run docs`);
      process.exit(1);
    }
    console.log(`${CONFIGURATION_REFERENCE_PATH} is up to date`);
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  console.log(`Wrote ${CONFIGURATION_REFERENCE_PATH}`);
});
