import type { PoolModel } from "../model";
import type { Candidate } from "./pool-offerings";

// A NodePool's limits during planning, as Karpenter's scheduler tracks them: what is left of each limited
// resource, counted on the nodes' capacity (not their allocatable, nor EC2's nominal memory). A new NodeClaim
// may only take types that fit in what is left, and reserves the largest option it still has: Karpenter
// "pessimistically assume[s] that if e.g. we request a 2, 4 or 8 CPU instance type that the 8 CPU instance
// type is all that will be available" (scheduler.go subtractMax, filterByRemainingResources).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go

/** A pool's limits left, by resource; `nodes` counts NodeClaims. */
export type Remaining = Record<string, number>;

export const remainingOf = (pool: PoolModel): Remaining => ({ ...pool.limits });

/** Whether a type fits in what is left of every limited resource. */
export function withinLimits(c: Candidate, remaining: Remaining): boolean {
  for (const [key, left] of Object.entries(remaining)) {
    if (key !== "nodes" && (c.capacity[key] ?? 0) > left) return false;
  }
  return true;
}

/** Whether the pool may open another NodeClaim at all. */
export const nodesLeft = (remaining: Remaining): boolean => remaining.nodes === undefined || remaining.nodes > 0;

/** Reserves the largest capacity among a new NodeClaim's options, and one node. */
export function reserveLargest(remaining: Remaining, options: readonly Candidate[]): void {
  for (const key of Object.keys(remaining)) {
    remaining[key] -= key === "nodes" ? 1 : Math.max(0, ...options.map((c) => c.capacity[key] ?? 0));
  }
}

/** Counts a launched node against the limits at its real capacity (a later batch sees nodes, not options). */
export function countLaunched(remaining: Remaining, launched: Candidate): void {
  for (const key of Object.keys(remaining)) remaining[key] -= key === "nodes" ? 1 : (launched.capacity[key] ?? 0);
}
