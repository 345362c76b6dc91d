import { budgetScheduleActive, cronScheduleProblem } from "../../provisioners/cron-schedule";
import type { DisruptionReason, NodePoolBudget } from "../model";

// A NodePool's disruption budgets: how many of its nodes may be disrupted at once, for a reason, at a time.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/nodepool.go
//      (GetAllowedDisruptionsByReason, MustGetAllowedDisruptions, Budget.GetAllowedDisruptions, Budget.IsActive)

/** What one budget allows out of `nodeCount` nodes at `at`: everything when it is not active. */
function allowedBy(budget: NodePoolBudget, nodeCount: number, at: Date): number {
  if (budget.schedule !== undefined && !budgetScheduleActive(budget.schedule.cron, budget.schedule.minutes, at)) return Number.POSITIVE_INFINITY;
  // intstr.GetScaledValueFromIntOrPercent(nodes, numNodes, roundUp=true).
  const percent = /^(\d+)%$/.exec(budget.nodes);
  return percent === null ? Number(budget.nodes) : Math.ceil((nodeCount * Number(percent[1])) / 100);
}

/**
 * How many of a pool's nodes may be disrupted for a reason at `at`: the smallest allowance of the budgets that
 * apply to the reason and are active. A schedule that does not parse (the CRD only counts its fields, so a
 * cluster can hold one) makes the pool allow none, for every reason: MustGetAllowedDisruptions returns 0 on any
 * budget's error.
 */
export function allowedDisruptions(budgets: readonly NodePoolBudget[], reason: DisruptionReason, nodeCount: number, at: Date): number {
  if (budgets.some((b) => b.schedule !== undefined && cronScheduleProblem(b.schedule.cron) !== undefined)) return 0;
  let allowed = Number.POSITIVE_INFINITY;
  for (const budget of budgets) {
    if (budget.reasons === undefined || budget.reasons.includes(reason)) allowed = Math.min(allowed, allowedBy(budget, nodeCount, at));
  }
  return allowed;
}
