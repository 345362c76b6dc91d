#!/usr/bin/env node
// Validates Karpenter manifests against the OpenAPI schemas of @kubernetes-models/karpenter.
//
//   node test/provisioners/validate-manifests.mjs [file ...]      (no file: read stdin)
//
// Input: YAML or JSON, several documents separated by `---`. Each document must be a karpenter.sh/v1
// NodePool or a karpenter.k8s.aws/v1 EC2NodeClass. Prints one line per problem,
// `<source>#<document index> <Kind>/<name> <json pointer>: <problem>`, then a summary; exits 1 when any
// document is invalid, 2 on unreadable input.
//
// Why a separate ESM process: the package is ESM-only and Jest (CommonJS here) cannot load it. It declares
// engines node >=22 but runs on node 20 (it uses nothing newer); the Jest test proves that on every run.
//
// What this does NOT check: the CRDs' CEL rules (x-kubernetes-validations); the package has no CEL
// evaluator. Those rules are checked at config time in src/provisioners/ (node-class-schema.ts, node-pool-schema.ts).
import { readFileSync } from "node:fs";
import { EC2NodeClass } from "@kubernetes-models/karpenter/karpenter.k8s.aws/v1/EC2NodeClass";
import { NodePool } from "@kubernetes-models/karpenter/karpenter.sh/v1/NodePool";
import { parseAllDocuments } from "yaml";

const MODELS = {
  "karpenter.sh/v1/NodePool": NodePool,
  "karpenter.k8s.aws/v1/EC2NodeClass": EC2NodeClass,
};

// The package's 2.0.0 schemas were generated from Karpenter 1.12. These values are valid in 1.14.1 (the
// version this project installs) but not in 1.12, so their enum errors are not problems here.
const KARPENTER_1_14_VALUES = [
  { path: /^\/spec\/disruption\/consolidationPolicy$/, value: "Balanced" },
  { path: /^\/spec\/template\/spec\/requirements\/\d+\/operator$/, value: "Gte" },
  { path: /^\/spec\/template\/spec\/requirements\/\d+\/operator$/, value: "Lte" },
];

function valueAt(document, pointer) {
  return pointer
    .split("/")
    .slice(1)
    .reduce((node, key) => (node === undefined || node === null ? undefined : node[key.replace(/~1/g, "/").replace(/~0/g, "~")]), document);
}

function isNewerEnumValue(document, error) {
  return (
    error.keyword === "enum" &&
    KARPENTER_1_14_VALUES.some((allowed) => allowed.path.test(error.instancePath) && valueAt(document, error.instancePath) === allowed.value)
  );
}

function describe(error) {
  const params = error.params ?? {};
  switch (error.keyword) {
    case "enum":
      return `must be one of ${params.allowedValues.join(", ")}`;
    case "required":
      return `missing required field ${params.missingProperty}`;
    case "pattern":
      return `must match ${params.pattern}`;
    case "type":
      return `must be of type ${params.type}`;
    default:
      return `${error.keyword} ${JSON.stringify(params)}`;
  }
}

/** Problems of one document, as lines. */
function validateDocument(document, where) {
  const apiVersion = document?.apiVersion;
  const kind = document?.kind;
  const label = `${where} ${kind ?? "?"}/${document?.metadata?.name ?? "?"}`;
  const Model = MODELS[`${apiVersion}/${kind}`];
  if (Model === undefined) return [`${label}: unsupported apiVersion/kind ${apiVersion}/${kind}; expected ${Object.keys(MODELS).join(" or ")}`];
  try {
    new Model(document).validate();
    return [];
  } catch (error) {
    const errors = (error.errors ?? [{ instancePath: "", keyword: "error", params: { message: error.message } }]).filter((e) => !isNewerEnumValue(document, e));
    // oneOf/anyOf wrappers repeat the real errors below them.
    return errors.filter((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf").map((e) => `${label} ${e.instancePath || "/"}: ${describe(e)}`);
  }
}

function main() {
  const sources = process.argv.slice(2);
  const inputs =
    sources.length === 0 ? [{ name: "stdin", text: readFileSync(0, "utf8") }] : sources.map((name) => ({ name, text: readFileSync(name, "utf8") }));
  const problems = [];
  let count = 0;
  for (const { name, text } of inputs) {
    parseAllDocuments(text).forEach((doc, index) => {
      if (doc.errors?.length > 0) {
        problems.push(`${name}#${index}: not YAML: ${doc.errors[0].message.split("\n")[0]}`);
        return;
      }
      const document = doc.toJS();
      if (document === null || document === undefined) return;
      count += 1;
      problems.push(...validateDocument(document, `${name}#${index}`));
    });
  }
  for (const line of problems) console.log(line);
  console.log(
    problems.length === 0 ? `ok: ${count} documents valid` : `invalid: ${problems.length} problem${problems.length === 1 ? "" : "s"} in ${count} documents`,
  );
  process.exitCode = problems.length === 0 ? 0 : 1;
}

try {
  main();
} catch (error) {
  console.error(`cannot validate: ${error.message}`);
  process.exitCode = 2;
}
