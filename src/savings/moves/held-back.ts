import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { type Requirement, satisfiesAll } from "../../instance-catalogue/requirements";
import type { ClusterState } from "../../planner/state/cluster-state";
import { selects } from "../../planner/workload/label-selector";
import type { PodDisruptionBudget } from "../../planner/workload/workload-model";
import { ORDINARY_DISRUPTION, type PodGroup } from "../../planner/workload/workload-model";
import { workloadName } from "../../planner/workload/workload-name";
import { LABEL } from "../../shared/vocabulary/well-known-labels";

// Which workloads a move to Graviton or to spot would leave where they are, and why, by rules a platform team
// would apply before moving them:
//   - arm64: a pod whose node selector or required affinity admits no arm64 instance type stays on amd64 (the
//     scheduler keeps it there); a pod whose images were never seen running on an arm64 node moves in the
//     figures, but is listed: nothing here can tell whether an image has an arm64 variant.
//   - spot: a workload of one replica, one whose pods carry karpenter.sh/do-not-disrupt, one a
//     PodDisruptionBudget allows no disruption of, or one that requires on-demand capacity stays on-demand:
//     a spot interruption gives two minutes' notice, and these cannot take it without an outage.

export interface HeldBack {
  readonly workload: string;
  readonly reason: string;
}

export interface Unverified {
  readonly workload: string;
  /** The images not seen on an arm64 node. */
  readonly images: readonly string[];
}

/** The pod's requirements on instance-type labels only: those decide which types it may run on. */
function typeRequirements(requirements: readonly Requirement[], catalogue: InstanceCatalogue): Requirement[] {
  return requirements.filter((r) => catalogue.labelKeys.has(r.key));
}

/** Whether any arm64 type of the catalogue meets the pod's node selector and one of its required affinity terms. */
function admitsArm64(group: PodGroup, catalogue: InstanceCatalogue): boolean {
  const selector = typeRequirements(group.pod.nodeSelector, catalogue);
  const terms = group.pod.affinityTerms.map((t) => typeRequirements(t, catalogue));
  return catalogue.types.some((type) => {
    if (type.arch !== "arm64") return false;
    const label = (key: string) => type.labels[key];
    return satisfiesAll(label, selector) && (terms.length === 0 || terms.some((t) => satisfiesAll(label, t)));
  });
}

/** Whether every way the pod may schedule requires on-demand capacity. */
function requiresOnDemand(group: PodGroup): boolean {
  const spot = (key: string) => (key === LABEL.capacityType ? "spot" : undefined);
  const onCapacity = (rs: readonly Requirement[]) => rs.filter((r) => r.key === LABEL.capacityType);
  if (!satisfiesAll(spot, onCapacity(group.pod.nodeSelector))) return true;
  const terms = group.pod.affinityTerms;
  return terms.length > 0 && terms.every((t) => !satisfiesAll(spot, onCapacity(t)));
}

const blockingPdb = (group: PodGroup, pdbs: readonly PodDisruptionBudget[]) =>
  pdbs.find((pdb) => pdb.namespace === group.namespace && pdb.disruptionsAllowed <= 0 && selects(pdb.selector, group.labels));

export interface MoveRules {
  /** Why each group would stay on amd64; groups not listed may move. */
  readonly stayAmd64: ReadonlyMap<PodGroup, string>;
  /** Groups that may move to arm64 although their images were not seen on an arm64 node. */
  readonly unverified: ReadonlyMap<PodGroup, readonly string[]>;
  /** Why each group would stay on on-demand capacity. */
  readonly stayOnDemand: ReadonlyMap<PodGroup, string>;
}

/** The rules applied to the groups that would move. */
export function moveRules(groups: readonly PodGroup[], state: ClusterState, catalogue: InstanceCatalogue): MoveRules {
  const seenOnArm64 = new Set<string>();
  for (const node of state.nodes) {
    if (node.state.labels[LABEL.arch] !== "arm64") continue;
    for (const { group } of node.state.pods) for (const image of state.images.get(group) ?? []) seenOnArm64.add(image);
  }
  // A workload's pods across every node and pending: one Deployment's revisions and shapes are several groups.
  const replicas = new Map<string, number>();
  for (const { group, count } of [...state.nodes.flatMap((n) => n.state.pods), ...state.pending]) {
    replicas.set(workloadName(group), (replicas.get(workloadName(group)) ?? 0) + count);
  }

  const stayAmd64 = new Map<PodGroup, string>();
  const unverified = new Map<PodGroup, readonly string[]>();
  const stayOnDemand = new Map<PodGroup, string>();
  for (const group of groups) {
    if (!admitsArm64(group, catalogue)) stayAmd64.set(group, "its node selector or required node affinity admits no arm64 instance type");
    else {
      const unseen = (state.images.get(group) ?? []).filter((image) => !seenOnArm64.has(image));
      if (unseen.length > 0) unverified.set(group, unseen);
    }
    const pdb = blockingPdb(group, state.pdbs);
    const spotReason = requiresOnDemand(group)
      ? "it requires on-demand capacity"
      : (group.disruption ?? ORDINARY_DISRUPTION).doNotDisrupt
        ? 'its pods carry karpenter.sh/do-not-disrupt: "true"'
        : pdb !== undefined
          ? `PodDisruptionBudget ${pdb.namespace}/${pdb.name} allows no disruption`
          : (replicas.get(workloadName(group)) ?? 0) <= 1
            ? "one replica: a spot interruption would take it down"
            : undefined;
    if (spotReason !== undefined) stayOnDemand.set(group, spotReason);
  }
  return { stayAmd64, unverified, stayOnDemand };
}

/** The group kept on on-demand capacity: the requirement a team would add before moving the rest to spot. */
export function keptOnDemand(group: PodGroup): PodGroup {
  return { ...group, pod: { ...group.pod, nodeSelector: [...group.pod.nodeSelector, { key: LABEL.capacityType, operator: "In", values: ["on-demand"] }] } };
}
