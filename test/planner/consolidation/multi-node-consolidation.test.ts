import { poolTotals } from "../../../src/planner/consolidation/balanced";
import { budgetMapping } from "../../../src/planner/consolidation/budget-mapping";
import { type Candidate, isCandidate, newCandidate } from "../../../src/planner/consolidation/candidates";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import { disruptionContext } from "../../../src/planner/consolidation/disruption-context";
import { disruptableWithinBudgets, firstNConsolidationOption, MULTI_NODE_CONSOLIDATION } from "../../../src/planner/consolidation/multi-node-consolidation";
import type { Taint } from "../../../src/planner/model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podGroup, podShape, pool, simulationOf } from "../simulation/fixtures";
import { AT, clusterNode, on, type PoolOptions, type TestPool, testPool } from "./fixtures";

// Multi-node consolidation: which candidates it takes (savings order, each pool within its budget, none without
// pods), the binary search for the longest prefix of two nodes or more that can go at once (at most 100 candidates
// considered), and its DisruptionMethod. After kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/
// multinodeconsolidation_test.go and consolidation_test.go (Multi-NodeClaim, Budgets). Catalogue: m.small $0.10
// (2000m), m.large $0.20 (4000m), g.small $0.08 (2000m), g.large $0.16 (4000m). A pod's disruption cost is 1, a
// node's 1 plus its pods': a candidate's savings ratio is its price / (1 + its pods).

const onDemand = inValues(LABEL.capacityType, "on-demand");
const poolNamed = (name: string, options: PoolOptions = {}, requirements = [onDemand]) => testPool(pool(name, { requirements }), options);
/** A taint the moved pods do not tolerate: a candidate left out of a prefix takes none of the prefix's pods. */
const TAINT: Taint = { key: "dedicated", value: "x", effect: "NoSchedule" };

const contextOf = (pools: readonly TestPool[], nodes: readonly ClusterNode[]) =>
  disruptionContext(simulationOf(pools.map((p) => ({ ...p.model, disruption: p.disruption }))), { nodes, spotToSpot: false });

function candidate(node: ClusterNode): Candidate {
  const c = newCandidate(node, []);
  if (!isCandidate(c)) throw new Error(c.message);
  return c;
}

/** Tainted m.large nodes ($0.20) named n0, n1, ..., each running `pods` pods of `cpu` millicores. */
const tainted = (p: TestPool, count: number, cpu = 1000, pods = 1) =>
  Array.from({ length: count }, (_, i) =>
    clusterNode(`n${i}`, "m.large", p, { taints: [TAINT], pods: [on(podGroup(`app-${i}`, pods, podShape(cpu, 512)), pods)] }),
  );

const names = (candidates: readonly Candidate[] | undefined) => candidates?.map((c) => c.node.state.name);
const optionNames = (command: { replacement?: { options: readonly { type: { name: string } }[] } } | undefined) =>
  command?.replacement?.options.map((o) => o.type.name);

describe("disruptableWithinBudgets (multinodeconsolidation_test.go Candidate Sorting, consolidation_test.go Budgets)", () => {
  it("should sort candidates by disruption cost globally without nodepool interweaving, each pool within its budget", () => {
    const a = poolNamed("a", { budgets: [{ nodes: "2" }] });
    const b = poolNamed("b", { budgets: [{ nodes: "1" }] });
    const c = poolNamed("c", { budgets: [{ nodes: "0" }] });
    const pod = (name: string) => [on(podGroup(name, 1, podShape(500, 512)))];
    // Savings ratios: idle 0.20/1 (no pods), a1 0.20/2 = 0.10, c1 0.20/2 = 0.10, a2 0.16/2 = 0.08,
    // b1 0.10/2 = 0.05, b2 0.08/2 = 0.04. Given out of order.
    const nodes = [
      clusterNode("b2", "g.small", b, { pods: pod("b2") }),
      clusterNode("a2", "g.large", a, { pods: pod("a2") }),
      clusterNode("c1", "m.large", c, { pods: pod("c1") }),
      clusterNode("b1", "m.small", b, { pods: pod("b1") }),
      clusterNode("idle", "m.large", a),
      clusterNode("a1", "m.large", a, { pods: pod("a1") }),
    ];
    const budgets = budgetMapping(nodes, "Underutilized", AT);
    expect(budgets).toEqual(
      new Map([
        ["b", 1],
        ["a", 2],
        ["c", 0],
      ]),
    );
    // idle has no pods (skipped, a's budget kept); a1 and a2 take a's 2, b1 takes b's 1; c1 and b2 find none left.
    // Interleaved by pool it would be a1, b1, a2.
    expect(names(disruptableWithinBudgets(nodes.map(candidate), budgets))).toEqual(["a1", "a2", "b1"]);
    expect(budgets).toEqual(
      new Map([
        ["b", 0],
        ["a", 0],
        ["c", 0],
      ]),
    );
  });
});

describe("firstNConsolidationOption (consolidation_test.go Multi-NodeClaim)", () => {
  const p = poolNamed("default");

  function firstN(nodes: readonly ClusterNode[], pools: readonly TestPool[] = [p]) {
    const candidates = nodes.map(candidate);
    return firstNConsolidationOption(contextOf(pools, nodes), nodes, candidates, poolTotals(nodes, candidates));
  }

  it("considers two nodes at least: when two cannot go together, it takes no single node, though one could go alone", () => {
    // 2 x 1500m = 3000m: of the amd64 types only an m.large holds it, the candidates' own type. n0 alone would be
    // replaced: its 1500m fits a new m.small ($0.10 < $0.20). The search's prefixes start at two nodes.
    const amd = poolNamed("default", {}, [inValues(LABEL.arch, "amd64"), onDemand]);
    expect(firstN(tainted(amd, 2, 1500), [amd])).toBeUndefined();
  });

  it("can merge 3 nodes into 1: the whole list when it can go at once, replaced by one cheaper node", () => {
    // 3 x 1000m = 3000m: g.large ($0.16) or m.large ($0.20), both below $0.60; m.large is the candidates' own type,
    // so only what is below $0.20 stays: g.large.
    const command = firstN(tainted(p, 3));
    expect(names(command?.candidates)).toEqual(["n0", "n1", "n2"]);
    expect(optionNames(command)).toEqual(["g.large"]);
  });

  it("finds the longest prefix that can go by binary search: 4 of 8, a fifth pod needing a second NodeClaim", () => {
    // Prefixes of mid + 1 nodes, mid from 1 to 7: mid 4 (5 x 1000m: two NodeClaims) fails; mid 2 (3000m) and mid 3
    // (4000m, one g.large) work; the search ends on 4 nodes, the longest, though it went down before going up.
    const command = firstN(tainted(p, 8));
    expect(names(command?.candidates)).toEqual(["n0", "n1", "n2", "n3"]);
    expect(optionNames(command)).toEqual(["g.large"]);
  });

  it("considers at most 100 candidates (MAX_MULTI_NODE_CANDIDATES): of 102, a prefix of 101 at most, as upstream", () => {
    // Pod-less candidates always go (a delete); the search's max stays at 100, so its longest prefix is mid 100 + 1.
    const nodes = Array.from({ length: 102 }, (_, i) => clusterNode(`n${i}`, "m.small", p));
    const command = firstN(nodes);
    expect(command?.candidates).toHaveLength(101);
    expect(command?.candidates[100].node.state.name).toBe("n100");
    expect(command?.replacement).toBeUndefined();
  });

  it("rejects a prefix the Balanced policy scores below its threshold, which WhenEmptyOrUnderutilized takes", () => {
    // n0 and n1 run 3 x 600m each (disruption 1 + 3 = 4 each); n2 is the pool's third m.large, empty (disruption 1),
    // kept out of the candidates. 3600m goes on a g.large: $0.40 - $0.16 = $0.24 saved of the pool's $0.60 (40%),
    // for 8 of its 9 disruption (88.9%): score 0.45 < 0.50.
    const clusterOf = (q: TestPool) => [...tainted(q, 2, 600, 3), clusterNode("n2", "m.large", q, { taints: [TAINT] })];
    const balanced = poolNamed("default", { policy: "Balanced" });
    const balancedNodes = clusterOf(balanced);
    const candidates = balancedNodes.slice(0, 2).map(candidate);
    const ctx = contextOf([balanced], balancedNodes);
    expect(firstNConsolidationOption(ctx, balancedNodes, candidates, poolTotals(balancedNodes, candidates))).toBeUndefined();
    const underutilized = clusterOf(p);
    const taken = underutilized.slice(0, 2).map(candidate);
    const command = firstNConsolidationOption(contextOf([p], underutilized), underutilized, taken, poolTotals(underutilized, taken));
    expect(optionNames(command)).toEqual(["g.large"]);
  });
});

describe("MULTI_NODE_CONSOLIDATION (multinodeconsolidation.go)", () => {
  it("is the graceful Underutilized method of the multi consolidation type", () => {
    const { name, reason, class: kind, consolidationType } = MULTI_NODE_CONSOLIDATION;
    expect({ name, reason, kind, consolidationType }).toEqual({ name: "multi-node", reason: "Underutilized", kind: "graceful", consolidationType: "multi" });
  });

  it("leaves empty nodes to emptiness and nodes of unknown types alone (consolidation.go ShouldDisrupt)", () => {
    const p = poolNamed("default");
    const busy = clusterNode("busy", "m.large", p, { pods: [on(podGroup("a", 1, podShape(500, 512)))] });
    const odd = { ...busy, state: { ...busy.state, name: "odd" }, instanceType: "z9.mega" };
    const nodes = [busy, odd, clusterNode("idle", "m.large", p)];
    const ctx = contextOf([p], nodes);
    expect(nodes.map((n) => MULTI_NODE_CONSOLIDATION.shouldDisrupt(ctx, candidate(n))?.message)).toEqual([
      undefined,
      'Instance Type "z9.mega" not found',
      "empty: emptiness deletes it, within its NodePool's budget for Empty",
    ]);
  });

  it("computes its command from the candidates its budget allows, takes them from it, and refuses none by name", () => {
    // A budget of 2 of 3 equal candidates: n0 and n1 (by name). 2000m: every type is below $0.40, and below the
    // candidates' own m.large ($0.20): g.small, m.small, g.large.
    const p = poolNamed("default", { budgets: [{ nodes: "2" }] });
    const nodes = tainted(p, 3);
    const candidates = nodes.map(candidate);
    const budgets = budgetMapping(nodes, "Underutilized", AT);
    const ctx = contextOf([p], nodes);
    const outcome = MULTI_NODE_CONSOLIDATION.computeCommand({ ctx, nodes, candidates, budgets, totals: poolTotals(nodes, candidates) });
    expect(names(outcome.command?.candidates)).toEqual(["n0", "n1"]);
    expect(optionNames(outcome.command)).toEqual(["g.small", "m.small", "g.large"]);
    expect(outcome.refused.size).toBe(0);
    expect(budgets.get("default")).toBe(0);
  });
});
