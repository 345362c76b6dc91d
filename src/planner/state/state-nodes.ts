import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { bytes, cpuMillis, parseQuantity } from "../../shared/quantity";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { ClusterNode } from "../consolidation/cluster-node";
import type { PoolDisruption, Taint } from "../model";
import type { Resources } from "../simulation/resources";
import { isRecord, type Raw } from "../workload/raw-object";
import { type DaemonSetShape, EPHEMERAL_STORAGE, type PodGroup } from "../workload/workload-model";

// A running cluster's nodes: EC2 nodes (Karpenter's, and any a node group runs) as the scheduler and the
// disruption controller see them, priced from the instance catalogue by type and capacity type; Fargate nodes
// apart, one per pod. The well-known labels say what a node is, the deprecated ones too (beta.kubernetes.io/
// instance-type, failure-domain.beta.kubernetes.io/zone), and a managed node group's capacity type label.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/labels.go (NormalizedLabels)

const DEPRECATED: Readonly<Record<string, string>> = {
  "beta.kubernetes.io/instance-type": LABEL.instanceType,
  "failure-domain.beta.kubernetes.io/zone": LABEL.zone,
  "failure-domain.beta.kubernetes.io/region": LABEL.region,
  "beta.kubernetes.io/arch": LABEL.arch,
  "beta.kubernetes.io/os": LABEL.os,
};

/** A managed node group says its capacity type in its own label and its own words. */
const NODE_GROUP_CAPACITY_TYPE = "eks.amazonaws.com/capacityType";
const COMPUTE_TYPE = "eks.amazonaws.com/compute-type";

export interface FargateNode {
  readonly name: string;
}

export interface StateNodes {
  readonly ec2: readonly ClusterNode[];
  readonly fargate: readonly FargateNode[];
}

const strings = (value: unknown): Record<string, string> =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string")) : {};

/** Kubernetes resource amounts in the planner's units (millicores, bytes, counts). */
function resourcesOf(list: Record<string, string>): Resources {
  const extended: Record<string, number> = {};
  for (const [name, value] of Object.entries(list)) {
    if (name.includes("/")) extended[name] = parseQuantity(value) ?? 0;
  }
  // A node that does not report its ephemeral storage is not limited by it (the planner's convention for unknown).
  extended[EPHEMERAL_STORAGE] = list[EPHEMERAL_STORAGE] === undefined ? Number.POSITIVE_INFINITY : (bytes(list[EPHEMERAL_STORAGE]) ?? 0);
  return { cpu: cpuMillis(list.cpu ?? "0") ?? 0, memory: bytes(list.memory ?? "0") ?? 0, pods: parseQuantity(list.pods ?? "0") ?? 0, extended };
}

function taintsOf(spec: Raw): Taint[] {
  if (!Array.isArray(spec.taints)) return [];
  return spec.taints
    .filter(isRecord)
    .map((t) => ({ key: String(t.key), value: typeof t.value === "string" ? t.value : undefined, effect: t.effect as Taint["effect"] }));
}

const isReady = (status: Raw) => Array.isArray(status.conditions) && status.conditions.some((c) => isRecord(c) && c.type === "Ready" && c.status === "True");

export interface NodeInputs {
  readonly catalogue: InstanceCatalogue;
  readonly pools: ReadonlyMap<string, PoolDisruption>;
  readonly podsOf: (node: string) => readonly { readonly group: PodGroup; readonly count: number }[];
  readonly fixedPodsOf: (node: string) => readonly DaemonSetShape[];
  /** Node names whose NodeClaim carries karpenter.sh/do-not-disrupt: "true". */
  readonly claimsDoNotDisrupt: ReadonlySet<string>;
}

/** The nodes of a state; an EC2 node that says no instance type is a problem. */
export function stateNodes(nodes: readonly Raw[], inputs: NodeInputs, problems: string[]): StateNodes {
  const ec2: ClusterNode[] = [];
  const fargate: FargateNode[] = [];
  for (const raw of nodes) {
    const metadata = isRecord(raw.metadata) ? raw.metadata : {};
    const name = String(metadata.name ?? "");
    const given = strings(metadata.labels);
    const labels: Record<string, string> = { ...given };
    for (const [old, current] of Object.entries(DEPRECATED)) if (labels[current] === undefined && given[old] !== undefined) labels[current] = given[old];
    if (labels[COMPUTE_TYPE] === "fargate") {
      fargate.push({ name });
      continue;
    }
    const typeName = labels[LABEL.instanceType];
    if (typeName === undefined) {
      problems.push(
        `Node ${name}: has no ${LABEL.instanceType} label (nor beta.kubernetes.io/instance-type), so neither its type nor its price is known; an EC2 node has one`,
      );
      continue;
    }
    const type = inputs.catalogue.type(typeName);
    const capacityType =
      labels[LABEL.capacityType] ??
      ({ ON_DEMAND: "on-demand", SPOT: "spot", CAPACITY_BLOCK: "reserved" } as Record<string, string>)[labels[NODE_GROUP_CAPACITY_TYPE]] ??
      "on-demand";
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const status = isRecord(raw.status) ? raw.status : {};
    const pool = labels[LABEL.nodePool];
    const allocatable = resourcesOf(strings(status.allocatable));
    const capacity = resourcesOf(strings(status.capacity));
    const annotations = strings(metadata.annotations);
    ec2.push({
      state: {
        name,
        // The catalogue's labels under the node's own: a node group's node has no karpenter.k8s.aws/* labels.
        labels: { ...(type?.labels ?? {}), ...labels, [LABEL.capacityType]: capacityType, [LABEL.hostname]: labels[LABEL.hostname] ?? name },
        taints: taintsOf(spec),
        allocatable,
        capacity: { cpu: capacity.cpu, memory: capacity.memory, pods: capacity.pods, ...capacity.extended },
        pods: inputs.podsOf(name).map(({ group, count }) => ({ group, count })),
        daemonSetPods: [...inputs.fixedPodsOf(name)],
        initialized: pool === undefined ? isReady(status) : labels["karpenter.sh/initialized"] === "true",
      },
      pool: pool === undefined ? undefined : inputs.pools.get(pool),
      instanceType: typeName,
      capacityType,
      zone: labels[LABEL.zone],
      hourlyUsd: capacityType === "reserved" ? undefined : type?.onDemandUsd,
      priceIsUpperBound: capacityType === "spot",
      doNotDisrupt: annotations["karpenter.sh/do-not-disrupt"] === "true" || inputs.claimsDoNotDisrupt.has(name),
      deleting: metadata.deletionTimestamp !== undefined,
    });
  }
  return { ec2, fargate };
}
