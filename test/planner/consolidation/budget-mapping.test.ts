import { budgetMapping } from "../../../src/planner/consolidation/budget-mapping";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import type { DisruptionReason } from "../../../src/planner/model";
import { pool } from "../simulation/fixtures";
import { AT, clusterNode, type TestPool, testPool } from "./fixtures";

// budgetMapping: how many more nodes of each NodePool a method may disrupt for its reason now: what the pool's
// budgets allow out of its counted nodes (managed, initialized, instance not terminating), less those of them not
// Ready or marked for deletion, never below 0. After kubernetes-sigs/karpenter v1.14.1
// pkg/controllers/disruption/helpers.go (BuildDisruptionBudgetMapping) and its tests in
// pkg/controllers/disruption/suite_test.go (Describe "BuildDisruptionBudgetMapping"), plus emptiness_test.go's
// per-NodePool budgets. Upstream maps every NodePool; here a pool with no counted node has no entry, which
// emptiness reads as 0 (as Go reads a missing key). Every count below is worked out by hand.

/** Pool "a" allows half its nodes (rounded up): 4 counted nodes give 2, 5 give 3. */
const half = testPool(pool("a"), { budgets: [{ nodes: "50%" }] });
/** Pool "b" allows one node, whatever its size. */
const one = testPool(pool("b"), { budgets: [{ nodes: "1" }] });

const nodesOf = (p: TestPool, prefix: string, count: number) => Array.from({ length: count }, (_, i) => clusterNode(`${prefix}${i}`, "m.small", p));
const altered = (node: ClusterNode, fields: Partial<ClusterNode>): ClusterNode => ({ ...node, ...fields });

/** The mapping as a plain object, for a literal comparison. */
const allowance = (nodes: readonly ClusterNode[], reason: DisruptionReason = "Empty", at = AT) => Object.fromEntries(budgetMapping(nodes, reason, at));

describe("budgetMapping (helpers.go BuildDisruptionBudgetMapping)", () => {
  it("allows what the pool's budget gives out of its nodes: 50% of 4 is 2 (nodepool.go MustGetAllowedDisruptions)", () => {
    expect(allowance(nodesOf(half, "a", 4))).toEqual({ a: 2 });
  });

  it("does not count a node that is not initialized, nor take it from the allowance when it is not Ready (should not consider nodes that are not initialized as part of disruption count)", () => {
    const uninitialized = clusterNode("a4", "m.small", half, { initialized: false });
    // Counted, it would make 5 nodes and 3 allowed. Counted and not Ready it would leave 3 - 1 = 2, as if ignored:
    // alone in its pool it shows the difference (counted: 50% of 1 = 1, less 1 = 0; ignored: no entry).
    expect(allowance([...nodesOf(half, "a", 4), uninitialized])).toEqual({ a: 2 });
    expect(allowance([...nodesOf(half, "a", 4), altered(uninitialized, { ready: false })])).toEqual({ a: 2 });
    expect(allowance([altered(uninitialized, { ready: false })])).toEqual({});
  });

  it("does not count a node whose NodeClaim's instance is terminating (should not consider nodes that have the terminating status condition as part of disruption count)", () => {
    const terminating = altered(clusterNode("a4", "m.small", half), { instanceTerminating: true });
    expect(allowance([...nodesOf(half, "a", 4), terminating])).toEqual({ a: 2 });
    // Nor does it use up the allowance, deleting and not Ready as it is: alone, its pool has no entry (not { a: 0 }).
    expect(allowance([altered(terminating, { deleting: true, ready: false })])).toEqual({});
  });

  it("does not count a node no NodeClaim stands behind, even one labelled with the pool (should not consider nodes that are not managed as part of disruption count)", () => {
    const unmanaged = altered(clusterNode("a4", "m.small", half), { managed: false });
    expect(allowance([...nodesOf(half, "a", 4), unmanaged])).toEqual({ a: 2 });
  });

  it("ignores nodes of no pool, Ready or not, managed or not (should not consider nodes that are not managed as part of disruption count)", () => {
    // ng0 and ng1: a node group's; orphan: a NodeClaim's whose NodePool is gone (upstream maps only existing pools).
    const orphan = altered(clusterNode("orphan", "m.small", undefined), { managed: true });
    const strays = [clusterNode("ng0", "m.large", undefined), altered(clusterNode("ng1", "m.large", undefined), { ready: false }), orphan];
    expect(allowance([...nodesOf(half, "a", 4), ...strays])).toEqual({ a: 2 });
    expect(allowance(strays)).toEqual({});
  });

  it("takes a node that is not Ready from the allowance, still counting it among the pool's nodes (should consider not ready nodes to the disruption count)", () => {
    const [a0, ...rest] = nodesOf(half, "a", 4);
    // 50% of 4 = 2, less 1 not Ready.
    expect(allowance([altered(a0, { ready: false }), ...rest])).toEqual({ a: 1 });
  });

  it("takes a node marked for deletion from the allowance (should consider nodes with a deletion timestamp set and MarkedForDeletion to the disruption count)", () => {
    const [a0, ...rest] = nodesOf(half, "a", 4);
    expect(allowance([altered(a0, { deleting: true }), ...rest])).toEqual({ a: 1 });
  });

  it("takes a node both not Ready and deleting from the allowance once", () => {
    const [a0, ...rest] = nodesOf(half, "a", 4);
    expect(allowance([altered(a0, { deleting: true, ready: false }), ...rest])).toEqual({ a: 1 });
  });

  it("never allows fewer than 0: a budget of 1 with 2 nodes disrupting leaves 0 (should not return a negative disruption value)", () => {
    const [b0, b1, b2] = nodesOf(one, "b", 3);
    expect(allowance([altered(b0, { ready: false }), altered(b1, { deleting: true }), b2])).toEqual({ b: 0 });
  });

  it("counts and takes from each pool on its own (emptiness_test.go: should allow 2 nodes from each nodePool to be deleted)", () => {
    const [b0, ...bRest] = nodesOf(one, "b", 3);
    // a: 50% of 4 = 2; b: 1 less 1 not Ready = 0.
    expect(allowance([...nodesOf(half, "a", 4), altered(b0, { ready: false }), ...bRest])).toEqual({ a: 2, b: 0 });
  });

  it("is per reason: a budget for Underutilized only does not limit Empty or Drifted (for _, reason := range allKnownDisruptionReasons)", () => {
    const p = testPool(pool("a"), { budgets: [{ nodes: "0", reasons: ["Underutilized"] }, { nodes: "100%" }] });
    const nodes = nodesOf(p, "a", 3);
    expect(allowance(nodes, "Underutilized")).toEqual({ a: 0 });
    expect(allowance(nodes, "Empty")).toEqual({ a: 3 });
    expect(allowance(nodes, "Drifted")).toEqual({ a: 3 });
  });

  it("reads the budgets' schedules at the time given: a weekday 09:00 + 8h freeze holds on Wednesday at 12:00, not at 20:00 (the clock BuildDisruptionBudgetMapping is given)", () => {
    const p = testPool(pool("a"), { budgets: [{ nodes: "0", schedule: { cron: "0 9 * * 1-5", minutes: 8 * 60 } }] });
    const nodes = nodesOf(p, "a", 2);
    // 2026-11-25 is a Wednesday; out of its window the budget limits nothing.
    expect(allowance(nodes, "Empty", new Date("2026-11-25T12:00:00Z"))).toEqual({ a: 0 });
    expect(allowance(nodes, "Empty", new Date("2026-11-25T20:00:00Z"))).toEqual({ a: Number.POSITIVE_INFINITY });
  });
});
