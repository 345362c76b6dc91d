import { helmValues, manifests, policyDocuments, type StackJson } from "./stack-contents";

/** File name (relative to the stack's review folder) to content. */
export type ReviewFiles = ReadonlyMap<string, string>;

/**
 * What a reviewer wants to read in a pull request, from one stack's cdk.tf.json: the resources by type, every
 * IAM statement in plain words, and the Kubernetes manifests and Helm values as plain YAML files (in the
 * JSON they are escaped strings, and kubectl's yaml_body is hidden in plans as sensitive).
 */
export function reviewArtifacts(stackName: string, json: StackJson): ReviewFiles {
  const files = new Map<string, string>();
  files.set("resources.md", resourceList(stackName, json));
  const iam = iamStatements(json);
  if (iam) files.set("iam.md", iam);
  for (const { id, kind, name, yaml } of manifests(json).values())
    files.set(`manifests/${kind.toLowerCase()}-${name}.yaml`, `# kubectl_manifest.${id}\n${yaml}`);
  for (const { id, release, index, chart, version, yaml } of helmValues(json).values()) {
    files.set(`helm/${release}-values${index === undefined ? "" : `-${index}`}.yaml`, `# helm_release.${id}: chart ${chart} ${version}\n${yaml}`);
  }
  return files;
}

function resourceList(stackName: string, json: StackJson): string {
  const lines = [`# ${stackName}: resources`, ""];
  const types = Object.entries(json.resource ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const total = types.reduce((n, [, r]) => n + Object.keys(r).length, 0);
  lines.push(`${total} resources of ${types.length} types.`, "", "| type | count | addresses (name) |", "|---|---|---|");
  for (const [type, resources] of types) {
    const entries = Object.entries(resources).map(([id, body]) => {
      const name = body.name ?? body.function_name ?? body.fargate_profile_name ?? body.addon_name ?? body.cidr_block;
      return `\`${id}\`${name !== undefined ? ` (${String(name)})` : ""}`;
    });
    lines.push(`| ${type} | ${entries.length} | ${entries.join("<br>")} |`);
  }
  const data = Object.entries(json.data ?? {}).map(([type, d]) => `${type} × ${Object.keys(d).length}`);
  if (data.length) lines.push("", `Data sources: ${data.join(", ")}.`);
  return `${lines.join("\n")}\n`;
}

function iamStatements(json: StackJson): string | undefined {
  const documents = policyDocuments(json);
  if (documents.length === 0) return undefined;
  const lines = ["# IAM statements", ""];
  for (const { usedBy, statements } of documents) {
    lines.push(`## ${usedBy}`, "");
    for (const s of statements) {
      lines.push(`- **${s.sid ?? "(no sid)"}**: ${s.effect ?? "Allow"} \`${(s.actions ?? []).join("`, `")}\``);
      if (s.resources) lines.push(`  - on ${s.resources.map((r) => `\`${r}\``).join(", ")}`);
      for (const p of s.principals ?? []) lines.push(`  - to ${p.type} ${p.identifiers.map((i) => `\`${i}\``).join(", ")}`);
      for (const c of s.condition ?? []) lines.push(`  - if ${c.test} \`${c.variable}\` = ${c.values.map((v) => `\`${v}\``).join(" or ")}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
