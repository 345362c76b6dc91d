#!/usr/bin/env node
// npm run gen: generates the cdktf bindings for the alekc/kubectl provider into .gen/providers/kubectl from the
// vendored provider schema, offline. `cdktf get` would need the network to run `terraform providers
// schema`; the schema in providers/ is its output (see providers/kubectl-provider-VERSION.txt).
// The bindings are committed, so that an install without dev dependencies (npm ci --omit=dev; the generator is
// one) can synthesize; test/providers/kubectl-bindings.test.ts checks that they are what this writes.
//
// The generator module is required directly: its package entry point require.resolve()s jsii-pacmak,
// which only cdktf-cli brings, and packaging is not wanted here anyway.

const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const SCHEMA = path.join(ROOT, "providers", "kubectl-provider-schema.json");
// An output folder may be given (the determinism test regenerates into a temporary one).
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, ".gen"));
const PROVIDER = "registry.terraform.io/alekc/kubectl";
const VERSION = "2.4.1";

async function main() {
  // @cdktf/commons reads the Terraform CLI config at load time and logs an error when
  // TF_CLI_CONFIG_FILE names a missing file; nothing here needs it.
  if (process.env.TF_CLI_CONFIG_FILE && !fs.existsSync(process.env.TF_CLI_CONFIG_FILE)) delete process.env.TF_CLI_CONFIG_FILE;
  const { CodeMaker } = require("codemaker");
  const { TerraformProviderGenerator } = require("@cdktf/provider-generator/lib/get/generator/provider-generator");
  const { ConstructsMakerProviderTarget, TerraformProviderConstraint, LANGUAGES } = require("@cdktf/commons");

  const schema = JSON.parse(fs.readFileSync(SCHEMA, "utf8"));
  // cdktf-only key: stamps providerVersion on every class, so synth writes an exact pin in required_providers.
  schema.provider_versions = { [PROVIDER]: VERSION };

  const code = new CodeMaker();
  const generator = new TerraformProviderGenerator(code, schema);
  const constraint = new TerraformProviderConstraint(`alekc/kubectl@= ${VERSION}`);
  generator.generate(new ConstructsMakerProviderTarget(constraint, LANGUAGES[0]));

  const target = path.join(OUT, "providers", "kubectl");
  fs.rmSync(target, { recursive: true, force: true });
  await code.save(OUT);
  console.log(`kubectl ${VERSION} bindings generated in ${path.relative(ROOT, target)}`);
}

main().catch((error) => {
  console.error(`generating the kubectl provider bindings failed: ${error.message}`);
  process.exit(1);
});
