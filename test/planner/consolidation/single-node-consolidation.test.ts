import { poolTotals } from "../../../src/planner/consolidation/balanced";
import { budgetMapping } from "../../../src/planner/consolidation/budget-mapping";
import { type Candidate, isCandidate, newCandidate } from "../../../src/planner/consolidation/candidates";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import { disruptionContext } from "../../../src/planner/consolidation/disruption-context";
import type { MethodOutcome } from "../../../src/planner/consolidation/disruption-method";
import { interleavedByPool, SINGLE_NODE_CONSOLIDATION, singleNodeConsolidation } from "../../../src/planner/consolidation/single-node-consolidation";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podGroup, podShape, pool, simulationOf } from "../simulation/fixtures";
import { AT, clusterNode, on, type PoolOptions, type TestPool, testPool } from "./fixtures";

// Single-node consolidation: the candidates in savings order taken round-robin across NodePools, the first that can
// be deleted or replaced wins, and each one tried and refused says why in Karpenter's words; and its
// DisruptionMethod. After kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/singlenodeconsolidation_test.go
// (Candidate Shuffling) and consolidation_test.go (Delete, Budgets), with balanced_test.go for the Balanced policy.
// Catalogue: m.small $0.10 (2000m), m.large $0.20 (4000m), g.small $0.08 (2000m), g.large $0.16 (4000m). A pod's
// disruption cost is 1, a node's 1 plus its pods': a candidate's savings ratio is its price / (1 + its pods).

const onDemand = inValues(LABEL.capacityType, "on-demand");
const poolNamed = (name: string, options: PoolOptions = {}, requirements = [onDemand]) => testPool(pool(name, { requirements }), options);
const mSmallOnly = poolNamed("default", {}, [inValues(LABEL.instanceType, "m.small"), onDemand]);
const pods = (name: string, count: number, cpu = 500) => [on(podGroup(name, count, podShape(cpu, 512)), count)];

function candidate(node: ClusterNode): Candidate {
  const c = newCandidate(node, []);
  if (!isCandidate(c)) throw new Error(c.message);
  return c;
}

/** singleNodeConsolidation over every node as a candidate unless `only` names some, budgets and totals as the controller builds them. */
function run(pools: readonly TestPool[], nodes: readonly ClusterNode[], only?: readonly string[]): MethodOutcome {
  const ctx = disruptionContext(simulationOf(pools.map((p) => ({ ...p.model, disruption: p.disruption }))), { nodes, spotToSpot: false });
  const candidates = nodes.filter((n) => only === undefined || only.includes(n.state.name)).map(candidate);
  return singleNodeConsolidation(ctx, nodes, candidates, budgetMapping(nodes, "Underutilized", AT), poolTotals(nodes, candidates));
}

const names = (candidates: readonly Candidate[] | undefined) => candidates?.map((c) => c.node.state.name);
/** Each refused candidate as "name: event: message". */
const refusals = (outcome: MethodOutcome) => [...outcome.refused].map(([c, b]) => `${c.node.state.name}: ${b.event}: ${b.message}`);

describe("interleavedByPool (singlenodeconsolidation_test.go Candidate Shuffling)", () => {
  it("should interweave candidates from different nodepools: pools by name, each in savings order", () => {
    const a = poolNamed("a");
    const b = poolNamed("b");
    // Savings ratios: b1 0.20/2 = 0.10, a1 0.16/2 = 0.08, b2 0.10/2 = 0.05, a2 0.08/2 = 0.04, a3 0.10/4 = 0.025.
    const nodes = [
      clusterNode("a3", "m.small", a, { pods: pods("a3", 3) }),
      clusterNode("b2", "m.small", b, { pods: pods("b2", 1) }),
      clusterNode("a1", "g.large", a, { pods: pods("a1", 1) }),
      clusterNode("a2", "g.small", a, { pods: pods("a2", 1) }),
      clusterNode("b1", "m.large", b, { pods: pods("b1", 1) }),
    ];
    // Savings order alone would be b1, a1, b2, a2, a3; round robin with pool a first: a1 b1, a2 b2, a3.
    expect(names(interleavedByPool(nodes.map(candidate)))).toEqual(["a1", "b1", "a2", "b2", "a3"]);
  });
});

describe("singleNodeConsolidation (consolidation_test.go Delete, Budgets; balanced_test.go)", () => {
  it("takes the first candidate that can go, recording why those before it could not, and tries none after it", () => {
    // All m.small ($0.10) of a pool that launches m.small only. Ratios: one 0.10/2, two 0.10/3, three 0.10/4.
    // one's 1500m fits neither two (1200m free) nor three (1100m free), and a new m.small is no cheaper;
    // two's 2 x 400m fit on the others (one has 500m free, three 1100m): two is deleted; three is never tried.
    const nodes = [
      clusterNode("one", "m.small", mSmallOnly, { pods: pods("p1", 1, 1500) }),
      clusterNode("two", "m.small", mSmallOnly, { pods: pods("p2", 2, 400) }),
      clusterNode("three", "m.small", mSmallOnly, { pods: pods("p3", 3, 300) }),
    ];
    const outcome = run([mSmallOnly], nodes);
    expect(names(outcome.command?.candidates)).toEqual(["two"]);
    expect(outcome.command?.replacement).toBeUndefined();
    expect(refusals(outcome)).toEqual(["one: Unconsolidatable: Can't replace with a cheaper node"]);
  });

  it("should not single-node consolidate a candidate whose pool's budget allows no disruption, and says so", () => {
    // Pool a (tried first, by name) allows none; b's node goes, its 500m pod joining a's m.large.
    const a = poolNamed("a", { budgets: [{ nodes: "0" }] });
    const b = poolNamed("b");
    const nodes = [clusterNode("in-a", "m.large", a, { pods: pods("pa", 1) }), clusterNode("in-b", "m.large", b, { pods: pods("pb", 1) })];
    const outcome = run([a, b], nodes);
    expect(names(outcome.command?.candidates)).toEqual(["in-b"]);
    expect(outcome.command?.replacement).toBeUndefined();
    expect(refusals(outcome)).toEqual(["in-a: DisruptionBlocked: No allowed disruptions for disruption reason Underutilized due to blocking budget"]);
  });

  it("refuses under the Balanced policy a candidate that even deleting would not pay for, before simulating it", () => {
    // The pool: cheap (g.small $0.08, 3 pods, disruption 4) and dear (m.large $0.20, 1 pod, disruption 2), cheap the
    // only candidate: $0.08 of $0.28 is 28.6%, for 4 of 6 of the disruption, 66.7%: score 0.2857 / 0.6667 = 0.43.
    const balanced = poolNamed("default", { policy: "Balanced" });
    const nodes = [clusterNode("cheap", "g.small", balanced, { pods: pods("c", 3) }), clusterNode("dear", "m.large", balanced, { pods: pods("d", 1) })];
    const outcome = run([balanced], nodes, ["cheap"]);
    expect(outcome.command).toBeUndefined();
    expect(refusals(outcome)).toEqual([
      "cheap: Unconsolidatable: Balanced: even deleting it would not pay: score 0.43 < threshold 0.50 (k: 2, savings 28.6%, disruption 66.7%)",
    ]);
  });

  it("refuses under the Balanced policy a command that saves too little for its disruption (should reject a well-packed node)", () => {
    // One m.large, 6 x 600m: deleting it would pay (100% for 100%), but only a g.large holds 3600m: $0.04 saved of
    // $0.20, 20%, for all of the disruption: score 0.20.
    const balanced = poolNamed("default", { policy: "Balanced" });
    const outcome = run([balanced], [clusterNode("big", "m.large", balanced, { pods: pods("a", 6, 600) })]);
    expect(outcome.command).toBeUndefined();
    expect(refusals(outcome)).toEqual(["big: Unconsolidatable: Balanced: score 0.20 < threshold 0.50 (k: 2, savings 20.0%, disruption 100.0%)"]);
  });
});

describe("SINGLE_NODE_CONSOLIDATION (singlenodeconsolidation.go)", () => {
  it("is the graceful Underutilized method of the single consolidation type", () => {
    const { name, reason, class: kind, consolidationType } = SINGLE_NODE_CONSOLIDATION;
    expect({ name, reason, kind, consolidationType }).toEqual({ name: "single-node", reason: "Underutilized", kind: "graceful", consolidationType: "single" });
  });

  it("leaves a non-empty node of a WhenEmpty pool alone (consolidation.go ShouldDisrupt)", () => {
    const whenEmpty = poolNamed("default", { policy: "WhenEmpty" });
    const nodes = [clusterNode("busy", "m.large", whenEmpty, { pods: pods("a", 1) })];
    const ctx = disruptionContext(simulationOf([{ ...whenEmpty.model, disruption: whenEmpty.disruption }]), { nodes, spotToSpot: false });
    expect(SINGLE_NODE_CONSOLIDATION.shouldDisrupt(ctx, candidate(nodes[0]))).toEqual({
      event: "Unconsolidatable",
      message: 'NodePool "default" has consolidation policy WhenEmpty, but node is not empty',
    });
  });

  it("computes its command by single-node consolidation, one candidate, leaving the budget as it was", () => {
    // An m.large with one 500m pod, alone: replaced by the options below $0.20, cheapest first.
    const p = poolNamed("default", { budgets: [{ nodes: "1" }] });
    const nodes = [clusterNode("big", "m.large", p, { pods: pods("a", 1) })];
    const ctx = disruptionContext(simulationOf([{ ...p.model, disruption: p.disruption }]), { nodes, spotToSpot: false });
    const candidates = nodes.map(candidate);
    const budgets = budgetMapping(nodes, "Underutilized", AT);
    const outcome = SINGLE_NODE_CONSOLIDATION.computeCommand({ ctx, nodes, candidates, budgets, totals: poolTotals(nodes, candidates) });
    expect(names(outcome.command?.candidates)).toEqual(["big"]);
    expect(outcome.command?.replacement?.options.map((o) => o.type.name)).toEqual(["g.small", "m.small", "g.large"]);
    expect(outcome.refused.size).toBe(0);
    expect(budgets.get("default")).toBe(1);
  });
});
