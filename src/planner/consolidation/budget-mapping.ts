import type { DisruptionReason } from "../model";
import type { ClusterNode } from "./cluster-node";
import { allowedDisruptions } from "./disruption-budgets";

// How many more nodes of each NodePool a method may disrupt for its reason now: what the pool's budgets allow out
// of its nodes, less those already being disrupted. A pool's nodes are its managed, initialized nodes whose
// instance is not terminating; those not Ready or marked for deletion are being disrupted, whatever the reason.
// A method takes from it as it picks candidates.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/helpers.go (BuildDisruptionBudgetMapping)

export type BudgetMapping = Map<string, number>;

export function budgetMapping(nodes: readonly ClusterNode[], reason: DisruptionReason, at: Date): BudgetMapping {
  const counted = new Map<string, { pool: NonNullable<ClusterNode["pool"]>; nodes: number; disrupting: number }>();
  for (const node of nodes) {
    if (node.pool === undefined || !node.managed || !node.state.initialized || node.instanceTerminating) continue;
    const entry = counted.get(node.pool.pool) ?? { pool: node.pool, nodes: 0, disrupting: 0 };
    entry.nodes++;
    if (!node.ready || node.deleting) entry.disrupting++;
    counted.set(node.pool.pool, entry);
  }
  const mapping: BudgetMapping = new Map();
  for (const [name, { pool, nodes: count, disrupting }] of counted) {
    mapping.set(name, Math.max(0, allowedDisruptions(pool.budgets, reason, count, at) - disrupting));
  }
  return mapping;
}

/** Karpenter's DisruptionBlocked event on a NodePool whose budgets allow no disruption for a reason. */
export const blockingBudget = (reason: DisruptionReason) => `No allowed disruptions for disruption reason ${reason} due to blocking budget`;
