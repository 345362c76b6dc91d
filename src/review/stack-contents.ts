import { parse } from "yaml";

// What the review reads from a synthesized stack (cdk.tf.json): resources by a stable address, IAM statements,
// Kubernetes manifests and Helm values as YAML. The review artifacts and the diff of two synths share it.

/** A synthesized stack as Terraform JSON; only the parts the review reads. */
export interface StackJson {
  readonly resource?: Record<string, Record<string, Record<string, unknown>>>;
  readonly data?: Record<string, Record<string, Record<string, unknown>>>;
}

export interface PolicyStatementJson {
  readonly sid?: string;
  readonly effect?: string;
  readonly actions?: readonly string[];
  readonly resources?: readonly string[];
  readonly principals?: readonly { readonly type: string; readonly identifiers: readonly string[] }[];
  readonly condition?: readonly { readonly test: string; readonly variable: string; readonly values: readonly string[] }[];
}

/**
 * "aws_eks_cluster.eks_cluster" for "aws_eks_cluster" and "eks_cluster_55B0C966": cdktf ends each logical id
 * with a hash of its construct path, which says nothing to a reader and is the same on both sides of a diff.
 */
export function stableAddress(type: string, id: string): string {
  return `${type}.${id.replace(/_[0-9A-F]{8}$/, "")}`;
}

/** Terraform references in a value (also inside expressions), with their hashes dropped, for reading. */
function withStableReferences(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9_]*\.[\w-]+?)_[0-9A-F]{8}\b/g, "$1");
}

/** Who uses each policy document: a role's trust, a managed policy, a queue policy. */
function documentUsers(json: StackJson): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const [type, resources] of Object.entries(json.resource ?? {})) {
    for (const [id, body] of Object.entries(resources)) {
      for (const [attribute, value] of Object.entries(body)) {
        const match = typeof value === "string" ? /^\$\{data\.aws_iam_policy_document\.([^.]+)\.json\}$/.exec(value) : null;
        if (match)
          users.set(match[1], [...(users.get(match[1]) ?? []), `${stableAddress(type, id)}${body.name ? ` (${String(body.name)})` : ""} ${attribute}`]);
      }
    }
  }
  return users;
}

/** Every policy document of the stack, named by who uses it, with its statements. */
export function policyDocuments(json: StackJson): { readonly usedBy: string; readonly statements: readonly PolicyStatementJson[] }[] {
  const users = documentUsers(json);
  return Object.entries(json.data?.aws_iam_policy_document ?? {}).map(([id, document]) => ({
    usedBy: (users.get(id) ?? [`${stableAddress("data.aws_iam_policy_document", id)} (unused)`]).join(", "),
    statements: (document.statement as PolicyStatementJson[] | undefined) ?? [],
  }));
}

/** A statement on one line, references without hashes: what the diff compares and shows. */
export function statementLine(s: PolicyStatementJson): string {
  const parts = [`**${s.sid ?? "(no sid)"}**: ${s.effect ?? "Allow"} \`${(s.actions ?? []).join("`, `")}\``];
  if (s.resources) parts.push(`on ${s.resources.map((r) => `\`${r}\``).join(", ")}`);
  for (const p of s.principals ?? []) parts.push(`to ${p.type} ${p.identifiers.map((i) => `\`${i}\``).join(", ")}`);
  for (const c of s.condition ?? []) parts.push(`if ${c.test} \`${c.variable}\` = ${c.values.map((v) => `\`${v}\``).join(" or ")}`);
  return withStableReferences(parts.join("; "));
}

/** The Kubernetes manifests a stack applies, by "kind/name", with their Terraform address. */
export function manifests(json: StackJson): Map<string, { readonly id: string; readonly kind: string; readonly name: string; readonly yaml: string }> {
  const found = new Map<string, { id: string; kind: string; name: string; yaml: string }>();
  for (const [id, manifest] of Object.entries(json.resource?.kubectl_manifest ?? {})) {
    const yaml = String(manifest.yaml_body);
    const { kind, metadata } = parse(yaml) as { kind: string; metadata: { name: string } };
    found.set(`${kind}/${metadata.name}`, { id, kind, name: metadata.name, yaml });
  }
  return found;
}

/** The values files of each Helm release, by "release" (or "release-<i>" when it has several). */
export function helmValues(
  json: StackJson,
): Map<
  string,
  { readonly id: string; readonly release: string; readonly index?: number; readonly chart: string; readonly version: string; readonly yaml: string }
> {
  const found = new Map<string, { id: string; release: string; index?: number; chart: string; version: string; yaml: string }>();
  for (const [id, body] of Object.entries(json.resource?.helm_release ?? {})) {
    const values = (body.values as string[] | undefined) ?? [];
    const release = String(body.name);
    values.forEach((yaml, i) => {
      const index = values.length > 1 ? i : undefined;
      found.set(`${release}${index === undefined ? "" : `-${index}`}`, { id, release, index, chart: String(body.chart), version: String(body.version), yaml });
    });
  }
  return found;
}
