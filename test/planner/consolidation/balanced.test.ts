import { approved, balancedRejection, describeScore, poolTotals, scoreMove, scoreShortOfThreshold } from "../../../src/planner/consolidation/balanced";
import type { Candidate } from "../../../src/planner/consolidation/candidates";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import type { PodGroup } from "../../../src/planner/workload/workload-model";
import { podGroup, podShape, pool } from "../simulation/fixtures";
import { clusterNode, on, type TestPool, testPool } from "./fixtures";

// The Balanced consolidation policy's arithmetic: a move's score is its share of the pool's cost saved over its
// share of the pool's disruption, approved at 1/k = 0.5 or more (k = 2). Each test follows one of
// kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/balanced_scoring_test.go ("Balanced Scoring":
// ScoreMove, EvaluateBalancedMove, computeNodePoolTotals), with balanced.go CanPassThreshold for
// scoreShortOfThreshold. Candidates are literals: a price in USD per hour and a disruption cost (1 per node, plus
// 1 per ordinary pod); the numbers are chosen so that most fractions are exact in binary floating point, and
// toBeCloseTo is used where they are not.

const balanced = testPool(pool("bal"), { policy: "Balanced" });
const underutilized = testPool(pool("under"));

/** A candidate of the pool at this price and disruption cost (its node's own price and pods do not matter here). */
const candidate = (name: string, p: TestPool, price: number, disruptionCost: number): Candidate => ({
  node: clusterNode(name, "m.small", p),
  pool: p.disruption,
  pods: [],
  price,
  disruptionCost,
  empty: false,
});

describe("scoreMove (balanced_scoring_test.go ScoreMove: should compute correct scores, totals 100 / 100)", () => {
  const totals = { cost: 100, disruption: 100 };

  it("high savings low disruption: 20% saved for 5% of the disruption scores 0.20 / 0.05 = 4", () => {
    expect(scoreMove(20, 5, totals)).toEqual({ score: 4, savingsFraction: 0.2, disruptionFraction: 0.05 });
  });

  it("equal fractions score 1; low savings high disruption score 0.05 / 0.5 = 0.1", () => {
    expect(scoreMove(10, 10, totals)).toEqual({ score: 1, savingsFraction: 0.1, disruptionFraction: 0.1 });
    expect(scoreMove(5, 50, totals)).toEqual({ score: 0.1, savingsFraction: 0.05, disruptionFraction: 0.5 });
  });

  it("zero disruption cost scores Infinity (approved)", () => {
    const score = scoreMove(10, 0, totals);
    expect(score).toEqual({ score: Number.POSITIVE_INFINITY, savingsFraction: 0.1, disruptionFraction: 0 });
    expect(approved(score)).toBe(true);
  });

  it("zero or negative savings score 0, whatever the disruption (even none), keeping the fractions", () => {
    expect(scoreMove(0, 10, totals)).toEqual({ score: 0, savingsFraction: 0, disruptionFraction: 0.1 });
    expect(scoreMove(-5, 10, totals)).toEqual({ score: 0, savingsFraction: -0.05, disruptionFraction: 0.1 });
    expect(scoreMove(-5, 0, totals)).toEqual({ score: 0, savingsFraction: -0.05, disruptionFraction: 0 });
    expect(scoreMove(0, 0, totals)).toEqual({ score: 0, savingsFraction: 0, disruptionFraction: 0 });
  });

  it("scores 0 against no totals, a pool costing nothing, or a pool of no disruption: nothing to normalize against", () => {
    const zero = { score: 0, savingsFraction: 0, disruptionFraction: 0 };
    expect(scoreMove(10, 10, undefined)).toEqual(zero);
    expect(scoreMove(10, 10, { cost: 0, disruption: 100 })).toEqual(zero);
    expect(scoreMove(10, 10, { cost: 100, disruption: 0 })).toEqual(zero);
  });
});

describe("approved and describeScore (the threshold 1/k = 0.5, the ConsolidationApproved event's words)", () => {
  it("approves a score of exactly 0.5 (>=), and rejects one just below", () => {
    // 50% of the cost saved for all of the disruption: 0.5 / 1 = 0.5.
    expect(approved(scoreMove(50, 100, { cost: 100, disruption: 100 }))).toBe(true);
    expect(approved({ score: 0.49, savingsFraction: 0.49, disruptionFraction: 1 })).toBe(false);
  });

  it("says the score, the threshold, k and both fractions in percent, with >= for an approval and < for a rejection", () => {
    expect(describeScore({ score: 4, savingsFraction: 0.2, disruptionFraction: 0.05 })).toBe(
      "score 4.00 >= threshold 0.50 (k: 2, savings 20.0%, disruption 5.0%)",
    );
    expect(describeScore({ score: 0.2, savingsFraction: 0.2, disruptionFraction: 1 })).toBe(
      "score 0.20 < threshold 0.50 (k: 2, savings 20.0%, disruption 100.0%)",
    );
    expect(describeScore({ score: 0.5, savingsFraction: 0.25, disruptionFraction: 0.5 })).toBe(
      "score 0.50 >= threshold 0.50 (k: 2, savings 25.0%, disruption 50.0%)",
    );
  });
});

describe("balancedRejection (balanced_scoring_test.go EvaluateBalancedMove)", () => {
  it("should skip non-Balanced pools and approve unconditionally, even a move that saves nothing", () => {
    const moved = [candidate("a", underutilized, 0.1, 8)];
    expect(balancedRejection(moved, 0, new Map([["under", { cost: 1, disruption: 10 }]]))).toBeUndefined();
  });

  it("should approve a delete command for a single Balanced NodePool: 1 of 10 like nodes scores 0.1 / 0.1 = 1", () => {
    const moved = [candidate("n0", balanced, 0.1, 2)];
    expect(balancedRejection(moved, 0.1, new Map([["bal", { cost: 1, disruption: 20 }]]))).toBeUndefined();
  });

  it("rejects a move short of the threshold, with its score: 20% saved for 100% of the disruption", () => {
    // An m.large ($0.20, 6 pods: cost 7) replaced by a g.large ($0.16): $0.04 saved of $0.20; 7 of 7.
    const moved = [candidate("big", balanced, 0.2, 7)];
    const score = balancedRejection(moved, 0.04, new Map([["bal", { cost: 0.2, disruption: 7 }]]));
    expect(score?.score).toBeCloseTo(0.2, 12);
    expect(score?.savingsFraction).toBeCloseTo(0.2, 12);
    expect(score?.disruptionFraction).toBe(1);
  });

  it("should reject when candidate NodePool is missing from totals map (score 0)", () => {
    const moved = [candidate("n0", balanced, 0.1, 2)];
    expect(balancedRejection(moved, 0.1, new Map())).toEqual({ score: 0, savingsFraction: 0, disruptionFraction: 0 });
  });

  it("should attribute savings proportionally in cross-NodePool scenarios: by the candidates' prices", () => {
    // $0.50 saved by moving $0.25 of Balanced nodes and $0.75 of others: the Balanced pool's share is
    // 0.25 / 1.00 = 1/4, $0.125, 12.5% of its $1; its disruption 2 of 4 is 50%: 0.125 / 0.5 = 0.25 < 0.5.
    // (Its whole savings would score 1, its share by count 0.5: both approved.)
    const moved = [candidate("b0", balanced, 0.25, 2), candidate("u0", underutilized, 0.75, 2)];
    const totals = new Map([
      ["bal", { cost: 1, disruption: 4 }],
      ["under", { cost: 1, disruption: 4 }],
    ]);
    expect(balancedRejection(moved, 0.5, totals)).toEqual({ score: 0.25, savingsFraction: 0.125, disruptionFraction: 0.5 });
  });

  it("should reject when any Balanced pool rejects, though the first one approves, with the rejecting pool's score", () => {
    const balanced2 = testPool(pool("bal2"), { policy: "Balanced" });
    const totals = new Map([
      ["bal", { cost: 1, disruption: 4 }],
      ["bal2", { cost: 1, disruption: 4 }],
    ]);
    // $1 saved, shared $0.50 / $0.50. bal: 50% for 1 of 4 (25%) scores 2; bal2: 50% for 2 of 4 (50%) scores 1.
    expect(balancedRejection([candidate("a0", balanced, 0.5, 1), candidate("b0", balanced2, 0.5, 2)], 1, totals)).toBeUndefined();
    // $1 saved, shared $0.75 / $0.25. bal: 75% for 25% scores 3; bal2: 25% for 4 of 4 (100%) scores 0.25.
    const skewed = [candidate("a0", balanced, 0.75, 1), candidate("b0", balanced2, 0.25, 4)];
    expect(balancedRejection(skewed, 1, totals)).toEqual({ score: 0.25, savingsFraction: 0.25, disruptionFraction: 1 });
  });
});

describe("scoreShortOfThreshold (balanced.go CanPassThreshold: even deleting the candidate outright)", () => {
  const totals = new Map([["bal", { cost: 1, disruption: 10 }]]);

  it("returns the score when even a delete falls short: $0.10 of $1 (10%) for 8 of 10 (80%) scores 0.125", () => {
    expect(scoreShortOfThreshold(candidate("n0", balanced, 0.1, 8), totals)).toEqual({ score: 0.125, savingsFraction: 0.1, disruptionFraction: 0.8 });
  });

  it("is undefined when a delete passes, at the threshold exactly: 25% for 50% scores 0.5", () => {
    expect(scoreShortOfThreshold(candidate("n0", balanced, 0.25, 5), totals)).toBeUndefined();
  });

  it("is undefined outside a Balanced pool, and for a pool without totals or costing nothing", () => {
    expect(scoreShortOfThreshold(candidate("n0", underutilized, 0.1, 8), new Map([["under", { cost: 1, disruption: 10 }]]))).toBeUndefined();
    expect(scoreShortOfThreshold(candidate("n0", balanced, 0.1, 8), new Map())).toBeUndefined();
    expect(scoreShortOfThreshold(candidate("n0", balanced, 0.1, 8), new Map([["bal", { cost: 0, disruption: 10 }]]))).toBeUndefined();
  });
});

describe("poolTotals (balanced_scoring_test.go computeNodePoolTotals)", () => {
  const other = testPool(pool("other"));
  const web = podGroup("web", 1, podShape(500, 512));
  const api = podGroup("api", 3, podShape(500, 512));
  const leaving: PodGroup = { ...podGroup("old", 2, podShape(500, 512)), disruption: { doNotDisrupt: false, deletionCost: 0, priority: 0, terminating: true } };

  it("totals only the pools with a candidate; a non-candidate node counts at its price and its pods' reschedule cost", () => {
    // n1, the candidate: its own price $0.10 and disruption cost 2 (web; the terminating pods are not moved).
    // n2 (m.large, not a candidate): $0.20, and 1 + 3 pods = 4. n3 is of a pool with no candidate, n4 of none.
    const n1 = clusterNode("n1", "m.small", balanced, { pods: [on(web), on(leaving, 2)] });
    const nodes: ClusterNode[] = [
      n1,
      clusterNode("n2", "m.large", balanced, { pods: [on(api, 3)] }),
      clusterNode("n3", "g.small", other, { pods: [on(api, 3)] }),
      clusterNode("n4", "m.large", undefined, { pods: [on(api, 3)] }),
    ];
    const totals = poolTotals(nodes, [{ node: n1, pool: balanced.disruption, pods: [on(web)], price: 0.1, disruptionCost: 2, empty: false }]);
    expect([...totals.keys()]).toEqual(["bal"]);
    expect(totals.get("bal")?.cost).toBeCloseTo(0.3, 12); // 0.10 + 0.20
    expect(totals.get("bal")?.disruption).toBe(6); // 2 + 4
  });

  it("should accumulate disruption from zero-priced candidates and nodes of unknown price", () => {
    // Two candidates of unknown price ($0, cost 2 each) and a node of unknown price with 3 pods (cost 4): $0, 8.
    const nodes = ["n1", "n2"].map((name) => ({ ...clusterNode(name, "m.small", balanced, { pods: [on(web)] }), hourlyUsd: undefined }));
    const idle = { ...clusterNode("n3", "m.small", balanced, { pods: [on(api, 3)] }), hourlyUsd: undefined };
    const candidates = nodes.map((node) => ({ node, pool: balanced.disruption, pods: [on(web)], price: 0, disruptionCost: 2, empty: false }));
    expect(poolTotals([...nodes, idle], candidates)).toEqual(new Map([["bal", { cost: 0, disruption: 8 }]]));
  });
});
