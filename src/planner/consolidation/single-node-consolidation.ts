import { balancedRejection, describeScore, type PoolTotals, scoreShortOfThreshold } from "./balanced";
import { type BudgetMapping, blockingBudget } from "./budget-mapping";
import { type Blocker, bySavingsRatio, type Candidate } from "./candidates";
import { cannotConsolidate } from "./capacity-screen";
import type { ClusterNode } from "./cluster-node";
import { computeConsolidation, consolidationShouldDisrupt, estimatedSavings, isCommand } from "./compute-consolidation";
import type { DisruptionMethod, MethodOutcome } from "./disruption-method";
import type { DisruptionContext } from "./simulate-scheduling";

// Single-node consolidation: one candidate at a time, in savings order taken round-robin across NodePools, the
// first that can be deleted or replaced by one cheaper node wins. Each candidate tried and refused says why, in
// Karpenter's words: what the end state reports for the nodes that stay.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/singlenodeconsolidation.go
//      (ComputeCommands, SortCandidates, shuffleCandidates)

/** A candidate the capacity screen ruled out: no reason is worked out for it (capacity-screen.ts). */
const SCREENED_OUT: Blocker = { event: undefined, message: "not simulated: the other nodes' free room and the cheaper types cannot take its pods" };

/**
 * The candidates in savings order, interleaved by pool: the first of each pool, then the second of each. Upstream
 * orders the pools at random (Go map order) after those a timeout kept from being seen; here by name.
 */
export function interleavedByPool(candidates: readonly Candidate[]): Candidate[] {
  const byPool = new Map<string, Candidate[]>();
  for (const c of [...candidates].sort(bySavingsRatio)) byPool.set(c.pool.pool, [...(byPool.get(c.pool.pool) ?? []), c]);
  const pools = [...byPool.keys()].sort().map((pool) => byPool.get(pool) ?? []);
  const order: Candidate[] = [];
  for (let i = 0; pools.some((p) => i < p.length); i++) for (const p of pools) if (i < p.length) order.push(p[i]);
  return order;
}

export function singleNodeConsolidation(
  ctx: DisruptionContext,
  nodes: readonly ClusterNode[],
  candidates: readonly Candidate[],
  budgets: BudgetMapping,
  totals: ReadonlyMap<string, PoolTotals>,
): MethodOutcome {
  const refused = new Map<Candidate, Blocker>();
  for (const candidate of interleavedByPool(candidates)) {
    if ((budgets.get(candidate.pool.pool) ?? 0) <= 0) {
      refused.set(candidate, { event: "DisruptionBlocked", message: blockingBudget("Underutilized") });
      continue;
    }
    const short = scoreShortOfThreshold(candidate, totals);
    if (short !== undefined) {
      refused.set(candidate, { event: "Unconsolidatable", message: `Balanced: even deleting it would not pay: ${describeScore(short)}` });
      continue;
    }
    if (ctx.screen === true && cannotConsolidate(ctx, nodes, [candidate])) {
      refused.set(candidate, SCREENED_OUT);
      continue;
    }
    const outcome = computeConsolidation(ctx, nodes, [candidate]);
    if (!isCommand(outcome)) {
      refused.set(candidate, outcome);
      continue;
    }
    const rejection = balancedRejection(outcome.candidates, estimatedSavings(ctx, outcome), totals);
    if (rejection !== undefined) {
      refused.set(candidate, { event: "Unconsolidatable", message: `Balanced: ${describeScore(rejection)}` });
      continue;
    }
    return { command: outcome, refused };
  }
  return { refused };
}

export const SINGLE_NODE_CONSOLIDATION: DisruptionMethod = {
  name: "single-node",
  reason: "Underutilized",
  class: "graceful",
  consolidationType: "single",
  shouldDisrupt: consolidationShouldDisrupt,
  computeCommand: ({ ctx, nodes, candidates, budgets, totals }) => singleNodeConsolidation(ctx, nodes, candidates, budgets, totals),
};
