import type { ClusterObjects, UnreadKind } from "../../cluster-state/cluster-objects";
import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { InputError } from "../../shared/input-error";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { ClusterNode } from "../consolidation/cluster-node";
import type { PoolModel } from "../model";
import { type AdmissionObjects, admittedPod, noAdmissionObjects } from "../workload/admission";
import { readPodSpec } from "../workload/pod-spec";
import { isRecord } from "../workload/raw-object";
import { readVolumeObject, volumeStorage } from "../workload/volume-topology";
import type { DaemonSetShape, PodDisruptionBudget, PodGroup } from "../workload/workload-model";
import { type FargateNode, stateNodes } from "./state-nodes";
import { statePdbs } from "./state-pdbs";
import { type PendingPods, statePods } from "./state-pods";
import { statePools } from "./state-pools";

// A running cluster's state in the planner's terms, from the objects a state file or the API gave: its NodePools,
// its EC2 nodes with their pods, its Fargate nodes, the pods pending, its PDBs and DaemonSets. Every problem of the
// state at once, as an InputError: an EC2 node without a type, pods bound to a node the state does not hold.

export interface ClusterState {
  readonly source: string;
  /** From the nodes' region label; undefined when no node says it. */
  readonly region: string | undefined;
  /** The zones the nodes run in. */
  readonly zones: readonly string[];
  readonly pools: readonly PoolModel[];
  readonly nodes: readonly ClusterNode[];
  readonly fargateNodes: readonly FargateNode[];
  /** Pods on Fargate nodes, each with EKS's CapacityProvisioned annotation where the pod has it. */
  readonly fargatePods: readonly { readonly group: PodGroup; readonly node: string; readonly capacityProvisioned?: string }[];
  /** The control plane's Kubernetes version: the API server's, else the newest kubelet's minor (a lower bound). */
  readonly kubernetesVersion?: { readonly version: string; readonly from: "the API server" | "the newest kubelet" };
  /** Pods bound to no node, and why Karpenter leaves them alone where it does (state-pods.ts). */
  readonly pending: readonly PendingPods[];
  readonly pdbs: readonly PodDisruptionBudget[];
  readonly daemonSets: readonly DaemonSetShape[];
  /** The container images of each pod group. */
  readonly images: ReadonlyMap<PodGroup, readonly string[]>;
  readonly unread: readonly UnreadKind[];
  readonly warnings: readonly string[];
}

/** The DaemonSets, as their templates say; what the planner cannot model of a template is a warning (the API server admitted it). */
function daemonSetsOf(objects: readonly Record<string, unknown>[], warnings: string[]): DaemonSetShape[] {
  return objects.map((ds) => {
    const metadata = isRecord(ds.metadata) ? ds.metadata : {};
    const id = `${String(metadata.namespace ?? "default")}/${String(metadata.name ?? "")}`;
    const spec = isRecord(ds.spec) && isRecord(ds.spec.template) ? ds.spec.template.spec : undefined;
    const found: string[] = [];
    const facts = readPodSpec(spec, `DaemonSet ${id}: spec.template.spec`, (path, _v, message) => found.push(`${path}: ${message}`));
    if (found.length > 0) warnings.push(`${id.split("/")[0]}/DaemonSet/${id.split("/")[1]}: read as far as the planner models it: ${found.join("; ")}`);
    return { id, pod: admittedPod(facts, String(metadata.namespace ?? "default"), noAdmissionObjects()).pod, file: "the cluster's state" };
  });
}

/**
 * The state's StorageClasses, claims and volumes, as admission reads them: a pod with a zonal volume stays in its
 * zone. What the planner cannot model of an object the API server admitted is a warning.
 */
function stateVolumes(objects: ClusterObjects, warnings: string[]): AdmissionObjects {
  const admission = noAdmissionObjects();
  for (const kind of ["StorageClass", "PersistentVolumeClaim", "PersistentVolume"] as const) {
    for (const object of objects.byKind[kind]) {
      const metadata = isRecord(object.metadata) ? object.metadata : {};
      const name = String(metadata.name ?? "");
      const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
      const report = (path: string, _v: unknown, message: string) =>
        warnings.push(`${kind} ${name}: ${path}: ${message}; read as far as the planner models it`);
      readVolumeObject(kind, object, name, namespace, volumeStorage, report, admission.volumes);
    }
  }
  return admission;
}

/**
 * The region the nodes say they run in (topology.kubernetes.io/region; the first by name if they disagree), read
 * before prices are chosen: --live fetches that region's.
 */
export function regionOfNodes(objects: ClusterObjects): string | undefined {
  const regions = objects.byKind.Node.flatMap((node) => {
    const labels = isRecord(node.metadata) && isRecord(node.metadata.labels) ? node.metadata.labels : {};
    const region = labels[LABEL.region];
    return typeof region === "string" && region !== "" ? [region] : [];
  });
  return regions.sort()[0];
}

export function clusterStateOf(objects: ClusterObjects, catalogue: InstanceCatalogue, at: Date): ClusterState {
  const problems: string[] = [];
  const volumeWarnings: string[] = [];
  const pods = statePods(objects.byKind.Pod, at, stateVolumes(objects, volumeWarnings));
  const readWarnings = [...pods.warnings, ...volumeWarnings];
  const { pools, warnings } = statePools(objects.byKind.NodePool, objects.byKind.EC2NodeClass, problems);
  const disruption = new Map(pools.flatMap((p) => (p.disruption === undefined ? [] : [[p.name, p.disruption] as const])));
  const nodes = stateNodes(
    objects.byKind.Node,
    {
      catalogue,
      pools: disruption,
      podsOf: (node) => pods.byNode.get(node) ?? [],
      fixedPodsOf: (node) => pods.fixedByNode.get(node) ?? [],
      claims: objects.unread.some((u) => u.kind === "NodeClaim") ? undefined : objects.byKind.NodeClaim,
    },
    problems,
  );
  const known = new Set([...nodes.ec2.map((n) => n.state.name), ...nodes.fargate.map((n) => n.name)]);
  const bound = new Map<string, number>();
  for (const [node, runs] of pods.byNode) bound.set(node, (bound.get(node) ?? 0) + runs.reduce((sum, r) => sum + r.count, 0));
  for (const [node, fixed] of pods.fixedByNode) bound.set(node, (bound.get(node) ?? 0) + fixed.length);
  for (const [node, count] of bound) {
    if (!known.has(node))
      problems.push(`${count} pod${count === 1 ? " is" : "s are"} bound to node ${node}, which is not in the state: save the nodes and the pods together`);
  }
  const pdbs = statePdbs(objects.byKind.PodDisruptionBudget, pods.groups, readWarnings);
  const daemonSets = objects.byKind.DaemonSet.length > 0 ? daemonSetsOf(objects.byKind.DaemonSet, readWarnings) : pods.daemonSetsFromPods;
  if (problems.length > 0) throw new InputError(objects.source, problems);

  const fargateNames = new Set(nodes.fargate.map((n) => n.name));
  const fargatePods = [...pods.byNode.entries()]
    .filter(([node]) => fargateNames.has(node))
    .flatMap(([node, runs]) =>
      runs.flatMap((r) => Array.from({ length: r.count }, () => ({ group: r.group, node, capacityProvisioned: pods.capacityProvisioned.get(node) }))),
    );
  const labelled = (key: string) => [...new Set(nodes.ec2.flatMap((n) => (n.state.labels[key] === undefined ? [] : [n.state.labels[key]])))].sort();
  return {
    source: objects.source,
    region: regionOfNodes(objects),
    zones: labelled(LABEL.zone),
    kubernetesVersion: kubernetesVersionOf(objects),
    pools,
    nodes: nodes.ec2,
    fargateNodes: nodes.fargate,
    fargatePods,
    pending: pods.pending,
    pdbs,
    daemonSets,
    images: pods.images,
    unread: objects.unread,
    warnings: [...objects.warnings, ...warnings, ...nodes.warnings, ...readWarnings],
  };
}

/** "1.33" from a version such as "v1.33.4-eks-1234": its major and minor. */
const minorOf = (version: string) => /^v?(\d+)\.(\d+)/.exec(version)?.slice(1, 3).join(".");

function kubernetesVersionOf(objects: ClusterObjects): ClusterState["kubernetesVersion"] {
  const server = objects.serverVersion === undefined ? undefined : minorOf(objects.serverVersion);
  if (server !== undefined) return { version: server, from: "the API server" };
  const kubelets = objects.byKind.Node.flatMap((n) => {
    const info = isRecord(n.status) && isRecord(n.status.nodeInfo) ? n.status.nodeInfo : {};
    const minor = typeof info.kubeletVersion === "string" ? minorOf(info.kubeletVersion) : undefined;
    return minor === undefined ? [] : [minor];
  });
  const newest = kubelets.sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1])).pop();
  return newest === undefined ? undefined : { version: newest, from: "the newest kubelet" };
}
