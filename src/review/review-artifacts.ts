import { parse } from "yaml";

/** A synthesized stack as Terraform JSON; only the parts the review reads. */
interface StackJson {
  readonly resource?: Record<string, Record<string, Record<string, unknown>>>;
  readonly data?: Record<string, Record<string, Record<string, unknown>>>;
}

interface PolicyStatementJson {
  readonly sid?: string;
  readonly effect?: string;
  readonly actions?: readonly string[];
  readonly resources?: readonly string[];
  readonly principals?: readonly { readonly type: string; readonly identifiers: readonly string[] }[];
  readonly condition?: readonly { readonly test: string; readonly variable: string; readonly values: readonly string[] }[];
}

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
  for (const [id, manifest] of Object.entries(json.resource?.kubectl_manifest ?? {})) {
    const body = String(manifest.yaml_body);
    const { kind, metadata } = parse(body) as { kind: string; metadata: { name: string } };
    files.set(`manifests/${kind.toLowerCase()}-${metadata.name}.yaml`, `# kubectl_manifest.${id}\n${body}`);
  }
  for (const [id, release] of Object.entries(json.resource?.helm_release ?? {})) {
    const values = (release.values as string[] | undefined) ?? [];
    values.forEach((v, i) => {
      files.set(
        `helm/${String(release.name)}-values${values.length > 1 ? `-${i}` : ""}.yaml`,
        `# helm_release.${id}: chart ${String(release.chart)} ${String(release.version)}\n${v}`,
      );
    });
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

/** Who uses each policy document: a role's trust, a managed policy, a queue policy. */
function documentUsers(json: StackJson): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const [type, resources] of Object.entries(json.resource ?? {})) {
    for (const [id, body] of Object.entries(resources)) {
      for (const [attribute, value] of Object.entries(body)) {
        const match = typeof value === "string" ? /^\$\{data\.aws_iam_policy_document\.([^.]+)\.json\}$/.exec(value) : null;
        if (match) users.set(match[1], [...(users.get(match[1]) ?? []), `${type}.${id}${body.name ? ` (${String(body.name)})` : ""} ${attribute}`]);
      }
    }
  }
  return users;
}

function iamStatements(json: StackJson): string | undefined {
  const documents = Object.entries(json.data?.aws_iam_policy_document ?? {});
  if (documents.length === 0) return undefined;
  const users = documentUsers(json);
  const lines = ["# IAM statements", ""];
  for (const [id, document] of documents) {
    lines.push(`## ${(users.get(id) ?? [`data.aws_iam_policy_document.${id} (unused)`]).join(", ")}`, "");
    for (const s of (document.statement as PolicyStatementJson[]) ?? []) {
      lines.push(`- **${s.sid ?? "(no sid)"}**: ${s.effect ?? "Allow"} \`${(s.actions ?? []).join("`, `")}\``);
      if (s.resources) lines.push(`  - on ${s.resources.map((r) => `\`${r}\``).join(", ")}`);
      for (const p of s.principals ?? []) lines.push(`  - to ${p.type} ${p.identifiers.map((i) => `\`${i}\``).join(", ")}`);
      for (const c of s.condition ?? []) lines.push(`  - if ${c.test} \`${c.variable}\` = ${c.values.map((v) => `\`${v}\``).join(" or ")}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
