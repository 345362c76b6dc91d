import { balancedRejection, type PoolTotals } from "./balanced";
import type { BudgetMapping } from "./budget-mapping";
import { bySavingsRatio, type Candidate } from "./candidates";
import { cannotConsolidate } from "./capacity-screen";
import type { ClusterNode } from "./cluster-node";
import { type Command, computeConsolidation, consolidationShouldDisrupt, estimatedSavings, isCommand, withoutSameInstanceType } from "./compute-consolidation";
import type { DisruptionMethod } from "./disruption-method";
import type { DisruptionContext } from "./simulate-scheduling";

// Multi-node consolidation: the candidates in savings order, each pool within its budget, at most 100, and a
// binary search for the longest prefix (of two nodes or more) that can go at once, deleted or replaced by one
// cheaper node. The search tries prefixes only, so it may settle on a shorter one than the longest that works.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/multinodeconsolidation.go
//      (ComputeCommands, firstNConsolidationOption)

/** Karpenter's cap on the candidates one multi-node command considers. */
export const MAX_MULTI_NODE_CANDIDATES = 100;

/** The candidates multi-node consolidation may take, in savings order, each pool within its budget (taken from it). */
export function disruptableWithinBudgets(candidates: readonly Candidate[], budgets: BudgetMapping): Candidate[] {
  const disruptable: Candidate[] = [];
  for (const candidate of [...candidates].sort(bySavingsRatio)) {
    const left = budgets.get(candidate.pool.pool) ?? 0;
    if (left <= 0 || candidate.pods.length === 0) continue;
    budgets.set(candidate.pool.pool, left - 1);
    disruptable.push(candidate);
  }
  return disruptable;
}

/** The longest prefix of `disruptable` the binary search finds that can go at once (firstNConsolidationOption). */
export function firstNConsolidationOption(
  ctx: DisruptionContext,
  nodes: readonly ClusterNode[],
  disruptable: readonly Candidate[],
  totals: ReadonlyMap<string, PoolTotals>,
): Command | undefined {
  if (disruptable.length < 2) return undefined;
  // As upstream: with more than the cap, max stays at the cap and a prefix may hold one more.
  let max = disruptable.length <= MAX_MULTI_NODE_CANDIDATES ? disruptable.length - 1 : MAX_MULTI_NODE_CANDIDATES;
  let min = 1;
  let last: Command | undefined;
  while (min <= max) {
    const mid = Math.floor((min + max) / 2);
    const prefix = disruptable.slice(0, mid + 1);
    const outcome = ctx.screen === true && cannotConsolidate(ctx, nodes, prefix) ? undefined : computeConsolidation(ctx, nodes, prefix);
    const command = outcome !== undefined && isCommand(outcome) ? withoutSameInstanceType(ctx, outcome) : undefined;
    const valid = command !== undefined && balancedRejection(command.candidates, estimatedSavings(ctx, command), totals) === undefined;
    if (valid) {
      last = command;
      min = mid + 1;
    } else max = mid - 1;
  }
  return last;
}

export const MULTI_NODE_CONSOLIDATION: DisruptionMethod = {
  name: "multi-node",
  reason: "Underutilized",
  class: "graceful",
  consolidationType: "multi",
  shouldDisrupt: consolidationShouldDisrupt,
  computeCommand({ ctx, nodes, candidates, budgets, totals }) {
    const command = firstNConsolidationOption(ctx, nodes, disruptableWithinBudgets(candidates, budgets), totals);
    return { command, refused: new Map() };
  },
};
