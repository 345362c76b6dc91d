import type { Candidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import { rescheduleCost } from "./eviction-cost";

// The Balanced consolidation policy (Karpenter 1.14): a move must save at least half as large a share of its
// NodePool's cost as the share of the pool's disruption it causes (k = 2, no setting). Empty nodes are never
// scored. Pools of other policies approve every move.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/balanced.go (computeNodePoolTotals, ScoreMove,
//      EvaluateBalancedMove, CanPassThreshold); kubernetes-sigs/karpenter#2942, #2962

/** Karpenter's BalancedK: the threshold is 1/k. */
export const BALANCED_K = 2;

export interface PoolTotals {
  /** What the pool's nodes cost together, USD per hour. */
  readonly cost: number;
  /** Its nodes' disruption costs together. */
  readonly disruption: number;
}

/** Each pool's totals, for the pools with a candidate: its nodes' prices and disruption costs (computeNodePoolTotals). */
export function poolTotals(nodes: readonly ClusterNode[], candidates: readonly Candidate[]): Map<string, PoolTotals> {
  const withCandidates = new Set(candidates.map((c) => c.pool.pool));
  const byNode = new Map(candidates.map((c) => [c.node, c]));
  const totals = new Map<string, { cost: number; disruption: number }>();
  for (const node of nodes) {
    const pool = node.pool?.pool;
    if (pool === undefined || !withCandidates.has(pool)) continue;
    const entry = totals.get(pool) ?? { cost: 0, disruption: 0 };
    const candidate = byNode.get(node);
    entry.cost += candidate?.price ?? node.hourlyUsd ?? 0;
    entry.disruption += candidate?.disruptionCost ?? rescheduleCost(node.state.pods);
    totals.set(pool, entry);
  }
  return totals;
}

export interface Score {
  readonly score: number;
  readonly savingsFraction: number;
  readonly disruptionFraction: number;
}

/** A move's score in its pool: its share of the pool's cost saved over its share of the pool's disruption (ScoreMove). */
export function scoreMove(savings: number, disruption: number, totals: PoolTotals | undefined): Score {
  if (totals === undefined || totals.cost <= 0 || totals.disruption <= 0) return { score: 0, savingsFraction: 0, disruptionFraction: 0 };
  const savingsFraction = savings / totals.cost;
  const disruptionFraction = disruption / totals.disruption;
  const score = savingsFraction <= 0 ? 0 : disruptionFraction === 0 ? Number.POSITIVE_INFINITY : savingsFraction / disruptionFraction;
  return { score, savingsFraction, disruptionFraction };
}

export const approved = (score: Score) => score.score >= 1 / BALANCED_K;

/** Karpenter's words for a score (the ConsolidationApproved event's format, with < for a rejection). */
export function describeScore(score: Score): string {
  return `score ${score.score.toFixed(2)} ${approved(score) ? ">=" : "<"} threshold ${(1 / BALANCED_K).toFixed(2)} (k: ${BALANCED_K}, savings ${(score.savingsFraction * 100).toFixed(1)}%, disruption ${(score.disruptionFraction * 100).toFixed(1)}%)`;
}

/**
 * The score that rejects the move in one of its Balanced pools, or undefined when every Balanced pool approves
 * (EvaluateBalancedMove). A move across pools shares its savings among them by the candidates' prices.
 */
export function balancedRejection(candidates: readonly Candidate[], savings: number, totals: ReadonlyMap<string, PoolTotals>): Score | undefined {
  const source = candidates.reduce((sum, c) => sum + c.price, 0);
  const pools = new Set(candidates.map((c) => c.pool.pool));
  for (const pool of pools) {
    const mine = candidates.filter((c) => c.pool.pool === pool);
    if (mine[0].pool.policy !== "Balanced") continue;
    const share = pools.size > 1 && source > 0 ? mine.reduce((sum, c) => sum + c.price, 0) / source : 1;
    const score = scoreMove(
      savings * share,
      mine.reduce((sum, c) => sum + c.disruptionCost, 0),
      totals.get(pool),
    );
    if (!approved(score)) return score;
  }
  return undefined;
}

/**
 * The score by which even deleting the candidate outright falls short of its pool's threshold, or undefined when
 * it would pass, as it always does outside a Balanced pool (CanPassThreshold).
 */
export function scoreShortOfThreshold(candidate: Candidate, totals: ReadonlyMap<string, PoolTotals>): Score | undefined {
  if (candidate.pool.policy !== "Balanced") return undefined;
  const pool = totals.get(candidate.pool.pool);
  if (pool === undefined || pool.cost <= 0) return undefined;
  const score = scoreMove(candidate.price, candidate.disruptionCost, pool);
  return approved(score) ? undefined : score;
}
