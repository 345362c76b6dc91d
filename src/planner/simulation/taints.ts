import type { Taint } from "../model";
import type { Toleration } from "../workload/workload-model";

// Taints and the tolerations that let a pod past them, as Karpenter checks them for a NodePool's NodeClaims
// and for nodes already running: every taint of the node must be tolerated, PreferNoSchedule included, until a
// pod's last relaxation step tolerates it (preferences.ts); DaemonSet pods always tolerate it.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/scheduling/taints.go (Taints.ToleratesPod)
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/

/** The toleration Karpenter adds for PreferNoSchedule taints (preferences.go toleratePreferNoScheduleTaints). */
export const TOLERATE_PREFER_NO_SCHEDULE: Toleration = { operator: "Exists", effect: "PreferNoSchedule" };

/**
 * A taint is tolerated by a toleration of the same effect (or of no effect), and of its key with Exists or
 * its value with Equal; an empty key with Exists tolerates every taint of the toleration's effect.
 */
function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== undefined && toleration.effect !== "" && toleration.effect !== taint.effect) return false;
  if ((toleration.key === undefined || toleration.key === "") && toleration.operator === "Exists") return true;
  if (toleration.key !== taint.key) return false;
  return toleration.operator === "Exists" || (toleration.value ?? "") === (taint.value ?? "");
}

/** The first taint none of the tolerations tolerates, or undefined when the pod tolerates them all. */
export function untoleratedTaint(tolerations: readonly Toleration[], taints: readonly Taint[]): Taint | undefined {
  return taints.find((taint) => !tolerations.some((t) => tolerates(t, taint)));
}

/** "key=value:Effect", as kubectl prints a taint. */
export const formatTaint = (taint: Taint): string => `${taint.key}${taint.value === undefined ? "" : `=${taint.value}`}:${taint.effect}`;
