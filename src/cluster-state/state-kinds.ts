// The kinds of a cluster's state that the savings report reads, where the API serves each, and what a missing
// kind costs the report. Nodes and pods are the report; Karpenter's objects say how it consolidates (without
// them the cluster has no Karpenter, and the moves are planned on this project's default NodePool); the rest
// refine it (PDBs block disruption, DaemonSets size new nodes, volumes pin pods to zones).

export interface StateKind {
  /** The kind of the objects, as in `kind:`. */
  readonly kind: string;
  /** Its group and version, as in `apiVersion:`. */
  readonly apiVersion: string;
  /** The list path across all namespaces. */
  readonly path: string;
  /** The name `kubectl get` takes for it (its resource, with the group for custom resources). */
  readonly resource: string;
  /** Without it there is no report: a refusal stops the read. */
  readonly required: boolean;
  /** Served only where a CRD installs it: a 404 means "not installed", not an error. */
  readonly custom: boolean;
}

const kind = (kind: string, apiVersion: string, resource: string, required = false, custom = false): StateKind => {
  const plural = resource.split(".")[0];
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  return { kind, apiVersion, path: group === "" ? `/api/${version}/${plural}` : `/apis/${group}/${version}/${plural}`, resource, required, custom };
};

export const STATE_KINDS: readonly StateKind[] = [
  kind("Node", "v1", "nodes", true),
  kind("Pod", "v1", "pods", true),
  kind("NodePool", "karpenter.sh/v1", "nodepools.karpenter.sh", false, true),
  kind("NodeClaim", "karpenter.sh/v1", "nodeclaims.karpenter.sh", false, true),
  kind("EC2NodeClass", "karpenter.k8s.aws/v1", "ec2nodeclasses.karpenter.k8s.aws", false, true),
  kind("PodDisruptionBudget", "policy/v1", "poddisruptionbudgets"),
  kind("DaemonSet", "apps/v1", "daemonsets"),
  kind("PersistentVolumeClaim", "v1", "persistentvolumeclaims"),
  kind("PersistentVolume", "v1", "persistentvolumes"),
  kind("StorageClass", "storage.k8s.io/v1", "storageclasses"),
];

export type StateKindName = (typeof STATE_KINDS)[number]["kind"];

/** The kind of a `kind:` value, or undefined for a kind the report does not read. */
export function stateKind(name: string): StateKind | undefined {
  return STATE_KINDS.find((k) => k.kind === name);
}

/** The command a user runs to save a state file of every kind: what `--state` reads. */
export const KUBECTL_GET_STATE = `kubectl get ${STATE_KINDS.map((k) => k.resource).join(",")} -A -o json > state.json`;
