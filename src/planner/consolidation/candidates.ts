import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { PoolDisruption, Taint } from "../model";
import { untoleratedTaint } from "../simulation/taints";
import type { PodCount } from "../simulation/topology";
import { selects } from "../workload/label-selector";
import type { PodDisruptionBudget } from "../workload/workload-model";
import { ORDINARY_DISRUPTION, type PodDisruption, type PodGroup, type Toleration } from "../workload/workload-model";
import type { ClusterNode } from "./cluster-node";
import { NODE_BASE_COST, rescheduleCost } from "./eviction-cost";

// Which nodes the disruption controller may consider, and why the others are left alone, in Karpenter's words
// (the DisruptionBlocked and Unconsolidatable events a user can match with the cluster's).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/types.go (NewCandidate)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/state/statenode.go (ValidateNodeDisruptable, ValidatePodsDisruptable)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/pdb/pdb.go (CanEvictPods, isEvictable)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/pod/scheduling.go (IsEvictable, IsReschedulable)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/consolidation.go (ShouldDisrupt), emptiness.go (ShouldDisrupt)

export interface Candidate {
  readonly node: ClusterNode;
  readonly pool: PoolDisruption;
  /** The pods consolidation moves: its reschedulable pods (reschedulablePods), never DaemonSet or mirror pods. */
  readonly pods: readonly PodCount[];
  /** USD per hour; 0 when unknown, as Karpenter prices a node whose offering it cannot find. */
  readonly price: number;
  readonly disruptionCost: number;
  /** No pod with a positive eviction cost: emptiness deletes it, consolidation leaves it to emptiness. */
  readonly empty: boolean;
}

/** Why a node is left alone: Karpenter's event reason and message; no event for a node Karpenter does not manage. */
export interface Blocker {
  readonly event: "DisruptionBlocked" | "Unconsolidatable" | undefined;
  readonly message: string;
  /** The PodDisruptionBudgets that block it ("namespace/name"), when they are the reason. */
  readonly pdbs?: readonly string[];
}

const blocked = (message: string): Blocker => ({ event: "DisruptionBlocked", message });

/** A node no NodePool manages: a managed node group's, or one joined by hand. */
export const NOT_MANAGED: Blocker = {
  event: undefined,
  message: "not managed by Karpenter: no NodePool owns it (a managed node group's node, or one joined by hand)",
};
const unconsolidatable = (message: string): Blocker => ({ event: "Unconsolidatable", message });

/** "ns/name" of a pod for messages: one pod's own name where the state has it, else its workload's. */
const podName = (group: PodGroup) => `${group.namespace}/${group.disruption?.examplePod ?? group.name}`;

/** The budgets selecting each pod group, by budget list: every pass of the controller asks again for the same pods. */
const matchingByList = new WeakMap<readonly PodDisruptionBudget[], Map<PodGroup, readonly PodDisruptionBudget[]>>();

function budgetsSelecting(group: PodGroup, pdbs: readonly PodDisruptionBudget[]): readonly PodDisruptionBudget[] {
  const byGroup = getOrAdd(matchingByList, pdbs, () => new Map<PodGroup, readonly PodDisruptionBudget[]>());
  return getOrAdd(byGroup, group, () => pdbs.filter((pdb) => pdb.namespace === group.namespace && selects(pdb.selector, group.labels)));
}

/** karpenter.sh/disrupted:NoSchedule, the taint a node about to be disrupted gets (v1.DisruptedNoScheduleTaint). */
const DISRUPTED_TAINT: Taint = { key: "karpenter.sh/disrupted", effect: "NoSchedule" };

/** A pod the disruption controller checks before it disrupts a node: one of a group, or a DaemonSet or mirror pod. */
interface CheckedPod {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly disruption: PodDisruption;
  readonly tolerations: readonly Toleration[];
  readonly mirror: boolean;
  /** "namespace/name", for messages. */
  readonly name: string;
  /** The budgets that select it, worked out once per pod group (undefined for a running DaemonSet or mirror pod). */
  readonly group?: PodGroup;
}

/** Every pod of the node, as ValidatePodsDisruptable reads them: those consolidation moves, and those it never moves. */
function podsOfNode(node: ClusterNode): CheckedPod[] {
  const moved = node.state.pods.map(({ group }) => ({
    namespace: group.namespace,
    labels: group.labels,
    disruption: group.disruption ?? ORDINARY_DISRUPTION,
    tolerations: group.pod.tolerations,
    mirror: false,
    name: podName(group),
    group,
  }));
  const fixed = node.state.daemonSetPods.flatMap((ds) =>
    ds.running === undefined
      ? []
      : [
          {
            namespace: ds.running.namespace,
            labels: ds.running.labels,
            disruption: ds.running.disruption,
            tolerations: ds.pod.tolerations,
            mirror: ds.running.mirror,
            name: `${ds.running.namespace}/${ds.running.name}`,
          },
        ],
  );
  return [...moved, ...fixed];
}

/**
 * Whether Karpenter evicts the pod at all when it drains the node (IsEvictable): an active pod that does not
 * tolerate the disrupted taint (such a pod stays) and is not a static pod's mirror.
 */
const isEvictable = (pod: CheckedPod) =>
  pod.disruption.terminating !== true && !pod.mirror && untoleratedTaint(pod.tolerations, [DISRUPTED_TAINT]) !== undefined;

/**
 * Why evicting the node's pods is blocked by their PodDisruptionBudgets, or undefined (pdb.go CanEvictPods,
 * isEvictable): the first evictable pod selected by several budgets, or by one that allows no disruption now;
 * a budget with unhealthyPodEvictionPolicy AlwaysAllow does not hold a pod that is not ready.
 */
function pdbBlocker(pods: readonly CheckedPod[], pdbs: readonly PodDisruptionBudget[]): Blocker | undefined {
  if (pdbs.length === 0) return undefined;
  for (const pod of pods) {
    if (!isEvictable(pod)) continue;
    const matching =
      pod.group !== undefined ? budgetsSelecting(pod.group, pdbs) : pdbs.filter((pdb) => pdb.namespace === pod.namespace && selects(pdb.selector, pod.labels));
    const names = matching.map((p) => `${p.namespace}/${p.name}`);
    if (matching.length > 1) {
      return { ...blocked(`Eviction does not support multiple PDBs (PodDisruptionBudget(s)=[${names.join(" ")}])`), pdbs: names };
    }
    const pdb = matching[0];
    if (pdb === undefined || (pdb.unhealthyPodEvictionPolicy === "AlwaysAllow" && pod.disruption.unready === true)) continue;
    if (pdb.disruptionsAllowed <= 0) return { ...blocked(`Pdb prevents pod evictions (PodDisruptionBudget=[${names[0]}])`), pdbs: names };
  }
  return undefined;
}

/**
 * The pods Karpenter reschedules when the node goes (IsReschedulable): all but the terminating ones, except a
 * StatefulSet's, whose replacement waits for them to go. DaemonSet and mirror pods are not among the node's pods here.
 */
export function reschedulablePods(node: ClusterNode): readonly PodCount[] {
  const pods = node.state.pods;
  if (!pods.some(({ group }) => group.disruption?.terminating === true)) return pods;
  return pods.filter(({ group }) => group.disruption?.terminating !== true || group.kind === "StatefulSet");
}

/** The node as a candidate for disruption, or why it is not one (NewCandidate, ValidateNodeDisruptable, ValidatePodsDisruptable). */
export function newCandidate(node: ClusterNode, pdbs: readonly PodDisruptionBudget[]): Candidate | Blocker {
  // Karpenter publishes no event for a node without a NodeClaim (NewCandidate): it is simply not Karpenter's.
  if (!node.managed) return NOT_MANAGED;
  if (!node.state.initialized) return blocked("Node isn't initialized");
  if (node.deleting) return blocked("Node is deleting or marked for deletion");
  if (node.doNotDisrupt) return blocked('Disruption is blocked through the "karpenter.sh/do-not-disrupt" annotation');
  const poolName = node.state.labels[LABEL.nodePool];
  if (poolName === undefined) return blocked(`Node doesn't have required label (label=${LABEL.nodePool})`);
  if (node.pool === undefined) return blocked(`NodePool not found (NodePool=${poolName})`);
  const checked = podsOfNode(node);
  // A DaemonSet's or a static pod's annotation holds the node too: Karpenter checks every pod of it.
  // A terminating pod is going anyway: its annotation holds nothing (IsDisruptable).
  const doNotDisrupt = checked.find((pod) => pod.disruption.doNotDisrupt && pod.disruption.terminating !== true);
  if (doNotDisrupt !== undefined) return blocked(`Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=${doNotDisrupt.name})`);
  const pdb = pdbBlocker(checked, pdbs);
  if (pdb !== undefined) return pdb;
  const pods = reschedulablePods(node);
  const cost = rescheduleCost(pods);
  return { node, pool: node.pool, pods, price: node.hourlyUsd ?? 0, disruptionCost: cost, empty: cost <= NODE_BASE_COST };
}

export const isCandidate = (value: Candidate | Blocker): value is Candidate => "node" in value;

/** A NodePool whose consolidateAfter is Never: neither emptiness nor consolidation touches its nodes. */
export const consolidationDisabled = (pool: PoolDisruption): Blocker => unconsolidatable(`NodePool "${pool.pool}" has consolidation disabled`);

/**
 * An empty candidate, which consolidation leaves to emptiness (single-node consolidation skips it, upstream, as
 * one its budget kept): Karpenter publishes no event for it.
 */
export const LEFT_TO_EMPTINESS: Blocker = { event: undefined, message: "empty: emptiness deletes it, within its NodePool's budget for Empty" };

/**
 * A node whose consolidateAfter has not passed since its last pod event: neither emptiness nor consolidation
 * considers it yet (the Consolidatable condition). Karpenter publishes no event for it.
 */
export const NOT_CONSOLIDATABLE: Blocker = { event: undefined, message: "not consolidatable yet: consolidateAfter has not passed since its last pod event" };

/** Why multi- and single-node consolidation leave the candidate alone, or undefined (consolidation.go ShouldDisrupt). */
export function consolidationBlocker(candidate: Candidate, typeKnown: boolean): Blocker | undefined {
  const { node, pool } = candidate;
  if (!typeKnown) return unconsolidatable(`Instance Type "${node.instanceType}" not found`);
  if (node.state.labels[LABEL.capacityType] === undefined) return unconsolidatable(`Node does not have label "${LABEL.capacityType}"`);
  if (node.state.labels[LABEL.zone] === undefined) return unconsolidatable(`Node does not have label "${LABEL.zone}"`);
  if (pool.consolidateAfterNever) return consolidationDisabled(pool);
  if (node.consolidatable === false) return NOT_CONSOLIDATABLE;
  if (candidate.empty) return LEFT_TO_EMPTINESS;
  if (pool.policy === "WhenEmpty") return unconsolidatable(`NodePool "${pool.pool}" has consolidation policy WhenEmpty, but node is not empty`);
  return undefined;
}

/** Karpenter tries the nodes that save the most per unit of disruption first (consolidation.go sortCandidates); ties by name. */
export function bySavingsRatio(a: Candidate, b: Candidate): number {
  return (
    b.price / b.disruptionCost - a.price / a.disruptionCost || (a.node.state.name < b.node.state.name ? -1 : a.node.state.name > b.node.state.name ? 1 : 0)
  );
}
