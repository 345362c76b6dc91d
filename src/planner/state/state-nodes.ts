import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { bytes, cpuMillis, parseQuantity } from "../../shared/quantity";
import { DEPRECATED_LABELS, LABEL } from "../../shared/vocabulary/well-known-labels";
import type { ClusterNode } from "../consolidation/cluster-node";
import type { PoolDisruption, Taint } from "../model";
import type { Resources } from "../simulation/resources";
import { isRecord, type Raw } from "../workload/raw-object";
import { type DaemonSetShape, EPHEMERAL_STORAGE, type PodGroup } from "../workload/workload-model";

// A running cluster's nodes: EC2 nodes (Karpenter's, and any a node group runs) as the scheduler and the
// disruption controller see them, priced from the instance catalogue by type, zone and capacity type; Fargate
// nodes apart, one per pod. A node is Karpenter's when a NodeClaim stands behind it (StateNode.Managed): its
// registration, initialization, annotations and deletion are read as Karpenter reads them, from the NodeClaim until
// the node registers and from the node after. A NodeClaim that launched and has no node yet is in-flight capacity:
// billed, and a place the scheduler may put pods, though not pods consolidation moves. The deprecated label keys
// (beta.kubernetes.io/instance-type, ...) are read as the current ones, and a node group's capacity type label too.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/state/statenode.go (Managed, Registered, Initialized,
//      Annotations, Deleted, MarkedForDeletion), pkg/apis/v1/labels.go (NormalizedLabels)

/** A managed node group says its capacity type in its own label and its own words. */
const NODE_GROUP_CAPACITY_TYPE = "eks.amazonaws.com/capacityType";
const COMPUTE_TYPE = "eks.amazonaws.com/compute-type";
const REGISTERED = "karpenter.sh/registered";
const INITIALIZED = "karpenter.sh/initialized";
const DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";
/** The taint the disruption controller puts on a node it is about to disrupt: the node is in its queue. */
const DISRUPTED_TAINT = "karpenter.sh/disrupted";

export interface FargateNode {
  readonly name: string;
}

export interface StateNodes {
  readonly ec2: readonly ClusterNode[];
  readonly fargate: readonly FargateNode[];
  readonly warnings: readonly string[];
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

function taintsOf(spec: Raw, field = "taints"): Taint[] {
  const list = spec[field];
  if (!Array.isArray(list)) return [];
  return list
    .filter(isRecord)
    .map((t) => ({ key: String(t.key), value: typeof t.value === "string" ? t.value : undefined, effect: t.effect as Taint["effect"] }));
}

const conditionIs = (status: Raw, type: string, value: string) =>
  Array.isArray(status.conditions) && status.conditions.some((c) => isRecord(c) && c.type === type && c.status === value);

/** The labels with each deprecated key also under its current one. */
function normalized(given: Record<string, string>): Record<string, string> {
  const labels = { ...given };
  for (const [old, current] of Object.entries(DEPRECATED_LABELS)) if (labels[current] === undefined && given[old] !== undefined) labels[current] = given[old];
  return labels;
}

export interface NodeInputs {
  readonly catalogue: InstanceCatalogue;
  readonly pools: ReadonlyMap<string, PoolDisruption>;
  readonly podsOf: (node: string) => readonly { readonly group: PodGroup; readonly count: number }[];
  readonly fixedPodsOf: (node: string) => readonly DaemonSetShape[];
  /** The cluster's NodeClaims; undefined when they could not be read (Karpenter's CRDs not installed, forbidden, not saved). */
  readonly claims: readonly Raw[] | undefined;
}

/** A NodeClaim, and the node it stands behind: by status.nodeName, else by provider ID. */
interface Claim {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly spec: Raw;
  readonly status: Raw;
  readonly deleting: boolean;
  readonly instanceTerminating: boolean;
}

function claimOf(raw: Raw): Claim {
  const metadata = isRecord(raw.metadata) ? raw.metadata : {};
  const status = isRecord(raw.status) ? raw.status : {};
  return {
    name: String(metadata.name ?? ""),
    labels: normalized(strings(metadata.labels)),
    annotations: strings(metadata.annotations),
    spec: isRecord(raw.spec) ? raw.spec : {},
    status,
    deleting: metadata.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null,
    instanceTerminating: conditionIs(status, "InstanceTerminating", "True"),
  };
}

/**
 * The taints Karpenter expects on a node that is still starting, and does not hold against pods while it is
 * uninitialized (scheduling.KnownEphemeralTaints), beside the NodeClaim's startup taints.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/scheduling/taints.go (KnownEphemeralTaints), pkg/controllers/state/statenode.go (Taints)
 */
const EPHEMERAL_TAINTS: readonly Pick<Taint, "key" | "effect">[] = [
  { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" },
  { key: "node.kubernetes.io/unreachable", effect: "NoSchedule" },
  { key: "node.cloudprovider.kubernetes.io/uninitialized", effect: "NoSchedule" },
  { key: "karpenter.sh/unregistered", effect: "NoExecute" },
];

const sameTaint = (a: Pick<Taint, "key" | "effect">, b: Pick<Taint, "key" | "effect">) => a.key === b.key && a.effect === b.effect;

/** What the catalogue asks an hour for a type at a zone and capacity type: spot where it has spot prices for the zone. */
function priceOf(catalogue: InstanceCatalogue, typeName: string, capacityType: string, zone: string | undefined) {
  const type = catalogue.type(typeName);
  if (capacityType === "reserved") return { hourlyUsd: undefined, upperBound: false };
  const spot = capacityType === "spot" && zone !== undefined ? catalogue.spot?.usd[typeName]?.[zone] : undefined;
  if (spot !== undefined) return { hourlyUsd: spot, upperBound: false };
  return { hourlyUsd: type?.onDemandUsd, upperBound: capacityType === "spot" };
}

interface NodeFacts {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly taints: readonly Taint[];
  readonly allocatable: Resources;
  readonly capacity: Resources;
  readonly annotations: Record<string, string>;
  readonly ready: boolean;
  readonly nodeDeleting: boolean;
}

/** One EC2 node as the simulation holds it, from the node's facts and the NodeClaim behind it. */
function clusterNode(node: NodeFacts, claim: Claim | undefined, claimsKnown: boolean, typeName: string, inputs: NodeInputs): ClusterNode {
  const { labels } = node;
  const capacityType =
    labels[LABEL.capacityType] ??
    ({ ON_DEMAND: "on-demand", SPOT: "spot", CAPACITY_BLOCK: "reserved" } as Record<string, string>)[labels[NODE_GROUP_CAPACITY_TYPE]] ??
    "on-demand";
  const pool = labels[LABEL.nodePool];
  // Without the NodeClaims, the NodePool label is all there is to tell Karpenter's nodes by.
  const managed = claimsKnown ? claim !== undefined : pool !== undefined;
  // A node initializes only once registered: either label says it registered (a state saved by hand may lack one).
  const registered = !managed || labels[REGISTERED] === "true" || labels[INITIALIZED] === "true";
  const annotations = managed && !registered && claim !== undefined ? claim.annotations : node.annotations;
  const disrupted = node.taints.some((t) => t.key === DISRUPTED_TAINT);
  // An unmanaged node is initialized as far as Karpenter is concerned (StateNode.Initialized).
  const initialized = !managed || labels[INITIALIZED] === "true";
  const startingTaints = [...EPHEMERAL_TAINTS, ...(claim === undefined ? [] : taintsOf(claim.spec, "startupTaints"))];
  const type = inputs.catalogue.type(typeName);
  const price = priceOf(inputs.catalogue, typeName, capacityType, labels[LABEL.zone]);
  return {
    state: {
      name: node.name,
      // The catalogue's labels under the node's own: a node group's node has no karpenter.k8s.aws/* labels.
      labels: { ...(type?.labels ?? {}), ...labels, [LABEL.capacityType]: capacityType, [LABEL.hostname]: labels[LABEL.hostname] ?? node.name },
      taints: initialized ? node.taints : node.taints.filter((t) => !startingTaints.some((e) => sameTaint(e, t))),
      allocatable: node.allocatable,
      capacity: { cpu: node.capacity.cpu, memory: node.capacity.memory, pods: node.capacity.pods, ...node.capacity.extended },
      pods: inputs.podsOf(node.name).map(({ group, count }) => ({ group, count })),
      daemonSetPods: [...inputs.fixedPodsOf(node.name)],
      initialized,
    },
    pool: pool === undefined ? undefined : inputs.pools.get(pool),
    managed,
    instanceType: typeName,
    capacityType,
    zone: labels[LABEL.zone],
    hourlyUsd: price.hourlyUsd,
    priceIsUpperBound: price.upperBound,
    // Karpenter reads the NodeClaim's annotations until the node registers, the node's after (StateNode.Annotations).
    doNotDisrupt: annotations[DO_NOT_DISRUPT] === "true",
    // Deleted() reads the NodeClaim of a managed node, the node of another; the disrupted taint marks a node in the
    // disruption queue, which Karpenter has marked for deletion.
    deleting: (managed ? claim?.deleting === true || claim?.instanceTerminating === true : node.nodeDeleting) || disrupted,
    ready: node.ready,
    instanceTerminating: claim?.instanceTerminating === true,
  };
}

/** The nodes of a state; an EC2 node that says no instance type is a problem. */
export function stateNodes(nodes: readonly Raw[], inputs: NodeInputs, problems: string[]): StateNodes {
  const ec2: ClusterNode[] = [];
  const fargate: FargateNode[] = [];
  const warnings: string[] = [];
  const claimsKnown = inputs.claims !== undefined;
  const claims = (inputs.claims ?? []).map(claimOf);
  const byNode = new Map(claims.flatMap((c) => (typeof c.status.nodeName === "string" ? [[c.status.nodeName, c] as const] : [])));
  const byProvider = new Map(claims.flatMap((c) => (typeof c.status.providerID === "string" ? [[c.status.providerID, c] as const] : [])));
  const matched = new Set<Claim>();
  for (const raw of nodes) {
    const metadata = isRecord(raw.metadata) ? raw.metadata : {};
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const status = isRecord(raw.status) ? raw.status : {};
    const name = String(metadata.name ?? "");
    const labels = normalized(strings(metadata.labels));
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
    const claim = byNode.get(name) ?? (typeof spec.providerID === "string" ? byProvider.get(spec.providerID) : undefined);
    if (claim !== undefined) matched.add(claim);
    const node: NodeFacts = {
      name,
      labels,
      taints: taintsOf(spec),
      allocatable: resourcesOf(strings(status.allocatable)),
      capacity: resourcesOf(strings(status.capacity)),
      annotations: strings(metadata.annotations),
      ready: conditionIs(status, "Ready", "True"),
      nodeDeleting: metadata.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null,
    };
    ec2.push(clusterNode(node, claim, claimsKnown, typeName, inputs));
  }
  // NodeClaims that launched an instance whose node has not registered: billed, and in-flight capacity.
  const launching: string[] = [];
  for (const claim of claims) {
    if (matched.has(claim)) continue;
    const typeName = claim.labels[LABEL.instanceType];
    if (typeName === undefined) {
      launching.push(claim.name);
      continue;
    }
    const node: NodeFacts = {
      name: claim.name,
      labels: claim.labels,
      // An uninitialized node's startup taints are not held against pods (StateNode.Taints).
      taints: taintsOf(claim.spec),
      allocatable: resourcesOf(strings(claim.status.allocatable)),
      capacity: resourcesOf(strings(claim.status.capacity)),
      annotations: {},
      ready: false,
      nodeDeleting: false,
    };
    ec2.push(clusterNode(node, claim, claimsKnown, typeName, inputs));
  }
  if (launching.length > 0) warnings.push(`NodeClaims that have not launched an instance yet are left out: ${launching.join(", ")}`);
  if (!claimsKnown && ec2.some((n) => n.managed)) {
    warnings.push(
      "the NodeClaims were not read: a node with a karpenter.sh/nodepool label is taken as Karpenter's, and a NodeClaim's do-not-disrupt annotation or deletion is not known",
    );
  }
  return { ec2, fargate, warnings };
}
