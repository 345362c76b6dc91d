import * as fs from "node:fs";
import * as path from "node:path";
import { helmValues, manifests, policyDocuments, type StackJson, stableAddress, statementLine } from "./stack-contents";
import { unifiedDiff } from "./unified-diff";

// Two synths of the same repository compared cluster by cluster: what a pull request adds, removes and
// changes, by stable addresses, with its IAM statements and the YAML Karpenter and Helm will read.

/** The stacks of a synthesized output folder, by stack name; empty when there is no output. */
export function readSynthesized(outdir: string): Map<string, StackJson> {
  const manifestFile = path.join(outdir, "manifest.json");
  if (!fs.existsSync(manifestFile)) return new Map();
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { stacks: Record<string, { synthesizedStackPath: string }> };
  return new Map(
    Object.entries(manifest.stacks).map(([name, stack]) => [
      name,
      JSON.parse(fs.readFileSync(path.join(outdir, stack.synthesizedStackPath), "utf8")) as StackJson,
    ]),
  );
}

export interface ResourceChange {
  readonly stack: string;
  readonly address: string;
  /** The top-level arguments whose values differ. */
  readonly attributes: readonly string[];
}

export interface ClusterDiff {
  readonly cluster: string;
  readonly status: "added" | "removed" | "changed" | "unchanged";
  readonly added: readonly { readonly stack: string; readonly address: string }[];
  readonly removed: readonly { readonly stack: string; readonly address: string }[];
  readonly changed: readonly ResourceChange[];
  readonly iamAdded: readonly { readonly usedBy: string; readonly statement: string }[];
  readonly iamRemoved: readonly { readonly usedBy: string; readonly statement: string }[];
  /** Unified diffs of the YAML that changed: NodePools, EC2NodeClasses, other manifests, Helm values. */
  readonly yaml: readonly { readonly title: string; readonly diff: string }[];
}

/** "prod" for "prod-cluster" and "prod-karpenter"; the stack's role, "cluster" or "karpenter". */
function clusterOf(stack: string): { readonly cluster: string; readonly role: string } {
  const match = /^(.*)-(cluster|karpenter)$/.exec(stack);
  return match ? { cluster: match[1], role: match[2] } : { cluster: stack, role: stack };
}

/** The resources of a stack, by address, each body without cdktf's metadata. */
function resourcesOf(json: StackJson | undefined): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  for (const [type, byId] of Object.entries(json?.resource ?? {})) {
    for (const [id, body] of Object.entries(byId)) {
      const { "//": _metadata, ...rest } = body;
      found.set(stableAddress(type, id), rest);
    }
  }
  return found;
}

function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}

function statementsOf(json: StackJson | undefined): Set<string> {
  return new Set(
    json === undefined ? [] : policyDocuments(json).flatMap(({ usedBy, statements }) => statements.map((s) => JSON.stringify([usedBy, statementLine(s)]))),
  );
}

/** The YAML texts of a stack a reviewer reads as diffs, by title. */
function yamlOf(json: StackJson | undefined): Map<string, string> {
  const found = new Map<string, string>();
  if (json === undefined) return found;
  for (const { kind, name, yaml } of manifests(json).values()) found.set(`${kind} ${name}`, yaml);
  for (const [key, { yaml }] of helmValues(json)) found.set(`Helm values of ${key}`, yaml);
  return found;
}

/** The order a reviewer wants the YAML in: NodePools, then EC2NodeClasses, then the rest. */
const yamlRank = (title: string) => (title.startsWith("NodePool ") ? 0 : title.startsWith("EC2NodeClass ") ? 1 : title.startsWith("Helm ") ? 3 : 2);

function diffCluster(cluster: string, stacks: readonly string[], base: ReadonlyMap<string, StackJson>, head: ReadonlyMap<string, StackJson>): ClusterDiff {
  const added: { stack: string; address: string }[] = [];
  const removed: { stack: string; address: string }[] = [];
  const changed: ResourceChange[] = [];
  const iamAdded: { usedBy: string; statement: string }[] = [];
  const iamRemoved: { usedBy: string; statement: string }[] = [];
  const yaml: { title: string; diff: string }[] = [];
  for (const stack of stacks) {
    const role = clusterOf(stack).role;
    const before = resourcesOf(base.get(stack));
    const after = resourcesOf(head.get(stack));
    for (const address of after.keys()) if (!before.has(address)) added.push({ stack: role, address });
    for (const address of before.keys()) if (!after.has(address)) removed.push({ stack: role, address });
    for (const [address, body] of after) {
      const old = before.get(address);
      if (old === undefined) continue;
      const attributes = changedAttributes(old, body);
      if (attributes.length > 0) changed.push({ stack: role, address, attributes });
    }
    const statementsBefore = statementsOf(base.get(stack));
    const statementsAfter = statementsOf(head.get(stack));
    const unpack = (key: string) => {
      const [usedBy, statement] = JSON.parse(key) as [string, string];
      return { usedBy, statement };
    };
    for (const key of statementsAfter) if (!statementsBefore.has(key)) iamAdded.push(unpack(key));
    for (const key of statementsBefore) if (!statementsAfter.has(key)) iamRemoved.push(unpack(key));
    const yamlBefore = yamlOf(base.get(stack));
    const yamlAfter = yamlOf(head.get(stack));
    for (const title of [...new Set([...yamlBefore.keys(), ...yamlAfter.keys()])]) {
      const diff = unifiedDiff(yamlBefore.get(title) ?? "", yamlAfter.get(title) ?? "");
      if (diff !== "") yaml.push({ title: `${title}${!yamlBefore.has(title) ? " (new)" : !yamlAfter.has(title) ? " (removed)" : ""}`, diff });
    }
  }
  yaml.sort((a, b) => yamlRank(a.title) - yamlRank(b.title) || (a.title < b.title ? -1 : 1));
  const inBase = stacks.some((s) => base.has(s));
  const inHead = stacks.some((s) => head.has(s));
  const any = added.length + removed.length + changed.length + iamAdded.length + iamRemoved.length + yaml.length > 0;
  return {
    cluster,
    status: !inBase ? "added" : !inHead ? "removed" : any ? "changed" : "unchanged",
    added,
    removed,
    changed,
    iamAdded,
    iamRemoved,
    yaml,
  };
}

/** Each cluster of either output, by name, compared. */
export function diffOutputs(base: ReadonlyMap<string, StackJson>, head: ReadonlyMap<string, StackJson>): ClusterDiff[] {
  const stacksByCluster = new Map<string, string[]>();
  for (const stack of new Set([...base.keys(), ...head.keys()])) {
    const { cluster } = clusterOf(stack);
    stacksByCluster.set(cluster, [...(stacksByCluster.get(cluster) ?? []), stack]);
  }
  return [...stacksByCluster.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([cluster, stacks]) => diffCluster(cluster, stacks.sort(), base, head));
}
