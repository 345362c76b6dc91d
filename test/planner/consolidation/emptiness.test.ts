import { budgetMapping } from "../../../src/planner/consolidation/budget-mapping";
import { type Candidate, isCandidate, newCandidate } from "../../../src/planner/consolidation/candidates";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import { disruptionContext } from "../../../src/planner/consolidation/disruption-context";
import { EMPTINESS, emptiness } from "../../../src/planner/consolidation/emptiness";
import type { DisruptionContext } from "../../../src/planner/consolidation/simulate-scheduling";
import { podGroup, podShape, pool, simulationOf } from "../simulation/fixtures";
import { AT, clusterNode, on, type TestPool, testPool } from "./fixtures";

// Emptiness, the first of the disruption controller's methods: its ShouldDisrupt (EMPTINESS.shouldDisrupt), the
// choice of empty candidates within each pool's budget for Empty (emptiness()), and the command it computes
// (EMPTINESS.computeCommand). After kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/emptiness_test.go
// (Describe "Emptiness", Contexts "Budgets" and "Emptiness"); the code is emptiness.go (ShouldDisrupt, ComputeCommand).
// Catalogue: m.small $0.10, m.large $0.20, g.small $0.08, g.large $0.16. An empty node's disruption cost is 1, so its
// savings ratio is its price.

const HELD = "No allowed disruptions for disruption reason Empty due to blocking budget";

const mSmall = testPool(pool("default"));

/** The node as the controller's candidate (no PodDisruptionBudgets); the fixtures' nodes are all candidates. */
function candidate(node: ClusterNode): Candidate {
  const c = newCandidate(node, []);
  if (!isCandidate(c)) throw new Error(`${node.state.name} is no candidate: ${c.message}`);
  return c;
}

const emptyNodes = (p: TestPool, names: readonly string[], type = "m.small") => names.map((name) => clusterNode(name, type, p));
const names = (candidates: readonly Candidate[]) => candidates.map((c) => c.node.state.name);
const heldOf = (outcome: ReturnType<typeof emptiness>) => outcome.heldByBudget.map((h) => `${h.candidate.node.state.name}: ${h.message}`);

/** The disruption context of these pools and nodes, as the controller builds it. */
const contextOf = (pools: readonly TestPool[], nodes: readonly ClusterNode[]): DisruptionContext =>
  disruptionContext(simulationOf(pools.map((p) => ({ ...p.model, disruption: p.disruption }))), { nodes, spotToSpot: false });

describe("emptiness() within budgets (emptiness_test.go Context Budgets)", () => {
  it("deletes the empty candidates of several pools together, each pool within its budget for Empty (should allow 2 nodes from each nodePool to be deleted)", () => {
    const a = testPool(pool("a"), { budgets: [{ nodes: "50%" }] });
    const b = testPool(pool("b"), { budgets: [{ nodes: "1" }] });
    const nodes = [...emptyNodes(a, ["a1", "a2", "a3"]), ...emptyNodes(b, ["b1", "b2"])];
    const budgets = budgetMapping(nodes, "Empty", AT);
    // a: 50% of 3 rounds up to 2; b: 1. Same price everywhere, so by name within each pool.
    expect(Object.fromEntries(budgets)).toEqual({ a: 2, b: 1 });
    const outcome = emptiness(nodes.map(candidate), budgets);
    expect(names(outcome.empty)).toEqual(["a1", "a2", "b1"]);
    expect(heldOf(outcome)).toEqual([`a3: ${HELD}`, `b2: ${HELD}`]);
    // It takes from the mapping as it picks.
    expect(Object.fromEntries(budgets)).toEqual({ a: 0, b: 0 });
  });

  it("should allow all nodes from each nodePool to be deleted under 100% budgets", () => {
    const a = testPool(pool("a"));
    const b = testPool(pool("b"));
    const nodes = [...emptyNodes(a, ["a1", "a2", "a3"]), ...emptyNodes(b, ["b1", "b2", "b3"])];
    const outcome = emptiness(nodes.map(candidate), budgetMapping(nodes, "Empty", AT));
    expect(names(outcome.empty)).toEqual(["a1", "a2", "a3", "b1", "b2", "b3"]);
    expect(outcome.heldByBudget).toEqual([]);
  });

  it("should only allow 3 empty nodes to be disrupted (30% of 10), and holds the other 7", () => {
    const thirty = testPool(pool("default"), { budgets: [{ nodes: "30%" }] });
    const nodes = emptyNodes(thirty, ["n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"]);
    const outcome = emptiness(nodes.map(candidate), budgetMapping(nodes, "Empty", AT));
    expect(names(outcome.empty)).toEqual(["n0", "n1", "n2"]);
    expect(names(outcome.heldByBudget.map((h) => h.candidate))).toEqual(["n3", "n4", "n5", "n6", "n7", "n8", "n9"]);
  });

  it("should allow no empty nodes to be disrupted under a budget of 0: each is held, with the blocking budget's message", () => {
    const budgets = new Map([["default", 0]]);
    const outcome = emptiness(emptyNodes(mSmall, ["a", "b"]).map(candidate), budgets);
    expect(outcome.empty).toEqual([]);
    expect(heldOf(outcome)).toEqual([`a: ${HELD}`, `b: ${HELD}`]);
    expect(Object.fromEntries(budgets)).toEqual({ default: 0 });
  });

  it("holds the empty candidates of a pool the mapping has no entry for (emptiness.go: disruptionBudgetMapping[pool] == 0, Go's value for a missing key)", () => {
    const outcome = emptiness(emptyNodes(mSmall, ["a"]).map(candidate), new Map([["other", 5]]));
    expect(outcome.empty).toEqual([]);
    expect(heldOf(outcome)).toEqual([`a: ${HELD}`]);
  });

  it("deletes the empties that save the most first when the budget allows fewer than there are (consolidation.go sortCandidates)", () => {
    // Ratios are the prices: m.large 0.20, g.large 0.16, m.small 0.10, g.small 0.08. Given in the reverse order.
    const nodes = [
      clusterNode("d", "g.small", mSmall),
      clusterNode("a", "m.small", mSmall),
      clusterNode("c", "g.large", mSmall),
      clusterNode("b", "m.large", mSmall),
    ];
    const outcome = emptiness(nodes.map(candidate), new Map([["default", 2]]));
    expect(names(outcome.empty)).toEqual(["b", "c"]);
    expect(names(outcome.heldByBudget.map((h) => h.candidate))).toEqual(["a", "d"]);
  });

  it("breaks a tie of savings ratios by node name", () => {
    const outcome = emptiness(emptyNodes(mSmall, ["z", "y", "x"]).map(candidate), new Map([["default", 2]]));
    expect(names(outcome.empty)).toEqual(["x", "y"]);
    expect(names(outcome.heldByBudget.map((h) => h.candidate))).toEqual(["z"]);
  });
});

describe("which candidates are emptiness's (emptiness_test.go Context Emptiness; emptiness.go ShouldDisrupt)", () => {
  it("should ignore nodes that have pods: a non-empty candidate is consolidation's, neither deleted nor held", () => {
    const busy = candidate(clusterNode("busy", "m.small", mSmall, { pods: [on(podGroup("web", 1, podShape(500, 512)))] }));
    const idle = candidate(clusterNode("idle", "m.small", mSmall));
    const ctx = contextOf([mSmall], [busy.node, idle.node]);
    expect(EMPTINESS.shouldDisrupt(ctx, busy)?.message).toBe("not empty: its pods would move, which is consolidation's to decide");
    expect(EMPTINESS.shouldDisrupt(ctx, idle)).toBeUndefined();
    const open = emptiness([busy, idle], new Map([["default", 5]]));
    expect(names(open.empty)).toEqual(["idle"]);
    const shut = emptiness([busy, idle], new Map([["default", 0]]));
    expect(names(shut.heldByBudget.map((h) => h.candidate))).toEqual(["idle"]);
  });

  it("leaves every node of a pool whose consolidateAfter is Never, naming the pool", () => {
    const never = testPool(pool("x"), { never: true });
    const idle = candidate(clusterNode("idle", "m.small", never));
    expect(EMPTINESS.shouldDisrupt(contextOf([never], [idle.node]), idle)).toEqual({
      event: "Unconsolidatable",
      message: 'NodePool "x" has consolidation disabled',
    });
    expect(emptiness([idle], new Map([["x", 5]]))).toEqual({ empty: [], heldByBudget: [] });
  });

  it.each(["WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"] as const)("can delete empty nodes under any consolidation policy: %s", (policy) => {
    const p = testPool(pool("default"), { policy });
    const idle = candidate(clusterNode("idle", "m.small", p));
    expect(EMPTINESS.shouldDisrupt(contextOf([p], [idle.node]), idle)).toBeUndefined();
    expect(names(emptiness([idle], new Map([["default", 1]])).empty)).toEqual(["idle"]);
  });
});

describe("EMPTINESS.computeCommand (emptiness.go ComputeCommand)", () => {
  const input = (nodes: readonly ClusterNode[], budget: number) => ({
    ctx: contextOf([mSmall], nodes),
    nodes,
    candidates: nodes.map(candidate),
    budgets: new Map([["default", budget]]),
    totals: new Map(),
  });

  it("can delete multiple empty nodes: one command with every empty candidate, in savings order, launching nothing", () => {
    const nodes = [clusterNode("a", "m.small", mSmall), clusterNode("b", "m.large", mSmall)];
    const outcome = EMPTINESS.computeCommand(input(nodes, 5));
    expect(names(outcome.command?.candidates ?? [])).toEqual(["b", "a"]);
    expect(outcome.command?.replacement).toBeUndefined();
    expect(outcome.command?.results.newNodeClaims).toEqual([]);
    expect(outcome.refused).toEqual(new Map());
  });

  it("yields no command when nothing is empty, or when the budget holds every empty node", () => {
    const busy = clusterNode("busy", "m.small", mSmall, { pods: [on(podGroup("web", 1, podShape(500, 512)))] });
    expect(EMPTINESS.computeCommand(input([busy], 5))).toEqual({ refused: new Map() });
    expect(EMPTINESS.computeCommand(input([clusterNode("idle", "m.small", mSmall)], 0))).toEqual({ refused: new Map() });
  });

  it("counts a node whose pods have no eviction cost as empty (types.go IsEmpty), and places those pods on the nodes that stay", () => {
    // pod-deletion-cost -2^27 makes the pod's eviction cost 1 - 1 = 0: the node's cost stays 1, the base.
    const cheap = podGroup("batch", 1, podShape(500, 512));
    const batch = { ...cheap, disruption: { doNotDisrupt: false, deletionCost: -(2 ** 27), priority: 0 } };
    const web = podGroup("web", 1, podShape(500, 512));
    const nodes = [clusterNode("busy", "m.small", mSmall, { pods: [on(web)] }), clusterNode("idle", "m.small", mSmall, { pods: [on(batch)] })];
    const outcome = EMPTINESS.computeCommand(input(nodes, 5));
    expect(names(outcome.command?.candidates ?? [])).toEqual(["idle"]);
    // busy (2000m, 500m used) takes the 500m pod: no new NodeClaim.
    const placed = outcome.command?.results.existingNodes.map((n) => `${n.name}: ${n.added.map((p) => `${p.group.name}x${p.count}`).join(",")}`);
    expect(placed).toEqual(["busy: batchx1"]);
    expect(outcome.command?.results.newNodeClaims).toEqual([]);
  });
});
