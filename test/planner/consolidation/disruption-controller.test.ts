import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podGroup, podShape, pool } from "../simulation/fixtures";
import { blockers, clusterNode, on, settle, summary, testPool } from "./fixtures";

// The disruption controller on clusters worked out by hand, each after a test of Karpenter's own suites
// (kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/emptiness_test.go and consolidation_test.go).
// Catalogue: m.small 2 vCPU/4 GiB $0.10, m.large 4/8 $0.20, g.small (arm64) 2/4 $0.08, g.large 4/8 $0.16; every
// pool's budget is 100% unless a test says otherwise, as upstream's suites set it.

const small = (name: string, replicas = 1) => podGroup(name, replicas, podShape(500, 512));
const onDemand = inValues(LABEL.capacityType, "on-demand");
const amd64 = inValues(LABEL.arch, "amd64");
/** A pool that can launch m.small only, on-demand: a replacement can never be cheaper than an m.small. */
const mSmallOnly = testPool(pool("default", { requirements: [inValues(LABEL.instanceType, "m.small"), onDemand] }));

describe("emptiness (emptiness_test.go)", () => {
  it("can delete empty nodes, and several at once, in one command", () => {
    const result = settle([mSmallOnly], [clusterNode("a", "m.small", mSmallOnly), clusterNode("b", "m.small", mSmallOnly)]);
    expect(summary(result)).toEqual({ nodes: [], actions: ["emptiness delete a,b"] });
    expect(result.actions[0].savingHourlyUsd).toBeCloseTo(0.2, 10);
  });

  it("should only allow 3 empty nodes to be disrupted (30% of 10), then 3 of 7, 2 of 4, 1 of 2 and 1 of 1 as each command completes", () => {
    const budgeted = testPool(mSmallOnly.model, { budgets: [{ nodes: "30%" }] });
    const nodes = Array.from({ length: 10 }, (_, i) => clusterNode(`n${i}`, "m.small", budgeted));
    const result = settle([budgeted], nodes);
    expect(result.actions.map((a) => a.nodes.length)).toEqual([3, 3, 2, 1, 1]);
    expect(result.nodes).toEqual([]);
  });

  it("should allow no empty nodes to be disrupted under a 0% budget, and says so", () => {
    const blocked = testPool(mSmallOnly.model, { budgets: [{ nodes: "0%" }] });
    const result = settle([blocked], [clusterNode("a", "m.small", blocked)]);
    expect(summary(result).actions).toEqual([]);
    expect(blockers(result)).toEqual(["a: No allowed disruptions for disruption reason Empty due to blocking budget"]);
  });

  it("should ignore nodes with the karpenter.sh/do-not-disrupt annotation", () => {
    const result = settle([mSmallOnly], [clusterNode("a", "m.small", mSmallOnly, { doNotDisrupt: true })]);
    expect(summary(result).actions).toEqual([]);
    expect(blockers(result)).toEqual(['a: Disruption is blocked through the "karpenter.sh/do-not-disrupt" annotation']);
  });

  it("deletes an empty node of a WhenEmpty pool, and keeps one with a pod, naming the policy", () => {
    const whenEmpty = testPool(mSmallOnly.model, { policy: "WhenEmpty" });
    const result = settle([whenEmpty], [clusterNode("busy", "m.small", whenEmpty, { pods: [on(small("web"))] }), clusterNode("idle", "m.small", whenEmpty)]);
    expect(summary(result)).toEqual({ nodes: ["busy m.small on-demand"], actions: ["emptiness delete idle"] });
    expect(blockers(result)).toEqual(['busy: NodePool "default" has consolidation policy WhenEmpty, but node is not empty']);
  });

  it("leaves every node of a pool whose consolidateAfter is Never", () => {
    const never = testPool(mSmallOnly.model, { never: true });
    const result = settle([never], [clusterNode("idle", "m.small", never)]);
    expect(summary(result).actions).toEqual([]);
    expect(blockers(result)).toEqual(['idle: NodePool "default" has consolidation disabled']);
  });
});

describe("consolidation (consolidation_test.go)", () => {
  it("can delete nodes: the one with fewer pods goes, its pod joins the other; 2 m.small into 1 m.small is no merge", () => {
    const result = settle(
      [mSmallOnly],
      [clusterNode("node0", "m.small", mSmallOnly, { pods: [on(small("a"), 2)] }), clusterNode("node1", "m.small", mSmallOnly, { pods: [on(small("b"))] })],
    );
    expect(summary(result)).toEqual({ nodes: ["node0 m.small on-demand"], actions: ["single-node delete node1"] });
    expect(result.nodes[0].state.pods.map((p) => `${p.group.name}x${p.count}`)).toEqual(["ax2", "bx1"]);
    // node0 alone needs a node for its 3 pods, and the pool has nothing cheaper than the m.small it is.
    expect(blockers(result)).toEqual(["node0: Can't replace with a cheaper node"]);
  });

  it("can delete nodes, considers PDB: the node whose pod a PDB protects stays, the other goes to it", () => {
    const guarded = small("b");
    const pdb = { namespace: "default", name: "b", selector: { matchLabels: { app: "b" }, matchExpressions: [] }, disruptionsAllowed: 0 };
    const result = settle(
      [mSmallOnly],
      [clusterNode("node0", "m.small", mSmallOnly, { pods: [on(small("a"), 2)] }), clusterNode("node1", "m.small", mSmallOnly, { pods: [on(guarded)] })],
      {
        pdbs: [pdb],
      },
    );
    expect(summary(result)).toEqual({ nodes: ["node1 m.small on-demand"], actions: ["single-node delete node0"] });
    expect(blockers(result)).toEqual(["node1: Pdb prevents pod evictions (PodDisruptionBudget=[default/b])"]);
  });

  it("refuses to evict a pod two PDBs select, whatever they allow", () => {
    const selector = { matchLabels: { app: "b" }, matchExpressions: [] };
    const pdbs = ["one", "two"].map((name) => ({ namespace: "default", name, selector, disruptionsAllowed: 5 }));
    const result = settle([mSmallOnly], [clusterNode("node1", "m.small", mSmallOnly, { pods: [on(small("b"))] })], { pdbs });
    expect(blockers(result)).toEqual(["node1: Eviction does not support multiple PDBs (PodDisruptionBudget(s)=[default/one default/two])"]);
  });

  it("can delete nodes, considers karpenter.sh/do-not-disrupt on pods, naming the pod", () => {
    const pinned = { ...small("b"), disruption: { doNotDisrupt: true, deletionCost: 0, priority: 0, examplePod: "b-7d9f-x2k4" } };
    const result = settle(
      [mSmallOnly],
      [clusterNode("node0", "m.small", mSmallOnly, { pods: [on(small("a"), 2)] }), clusterNode("node1", "m.small", mSmallOnly, { pods: [on(pinned)] })],
    );
    expect(summary(result).actions).toEqual(["single-node delete node0"]);
    expect(blockers(result)).toEqual(['node1: Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=default/b-7d9f-x2k4)']);
  });

  it("can delete nodes, evicts pods without an ownerRef (they are expected back)", () => {
    const bare = { ...small("lonely"), kind: "Pod" };
    const result = settle(
      [mSmallOnly],
      [clusterNode("node0", "m.small", mSmallOnly, { pods: [on(small("a"), 2)] }), clusterNode("node1", "m.small", mSmallOnly, { pods: [on(bare)] })],
    );
    expect(summary(result).actions).toEqual(["single-node delete node1"]);
  });

  it("can delete nodes, when non-Karpenter capacity can fit pods; the node group's node is never a candidate", () => {
    const result = settle(
      [mSmallOnly],
      [clusterNode("karpenter", "m.small", mSmallOnly, { pods: [on(small("a"), 3)] }), clusterNode("node-group", "m.large", undefined)],
    );
    expect(summary(result)).toEqual({ nodes: ["node-group m.large on-demand"], actions: ["single-node delete karpenter"] });
    expect(blockers(result)).toEqual(["node-group: not managed by Karpenter: no NodePool owns it (a managed node group's node, or one joined by hand)"]);
  });

  it("can replace node: an m.large holding one small pod becomes the cheapest type that holds it", () => {
    const anyType = testPool(pool("default", { requirements: [onDemand] }));
    const result = settle([anyType], [clusterNode("big", "m.large", anyType, { pods: [on(small("a"))] })]);
    expect(summary(result)).toEqual({ nodes: ["replacement-1 g.small on-demand"], actions: ["single-node replace big -> g.small on-demand"] });
    expect(result.actions[0].savingHourlyUsd).toBeCloseTo(0.12, 10);
  });

  it("won't replace on-demand node if on-demand replacement is more expensive", () => {
    const amd = testPool(pool("default", { requirements: [amd64, onDemand] }));
    const result = settle([amd], [clusterNode("a", "m.small", amd, { pods: [on(podGroup("wide", 1, podShape(1500, 512)))] })]);
    expect(summary(result).actions).toEqual([]);
    expect(blockers(result)).toEqual(["a: Can't replace with a cheaper node"]);
  });

  it("replaces on-demand by spot where the pool allows both, pinned to spot (offline, at the on-demand rate)", () => {
    const both = testPool(pool("default"));
    const result = settle([both], [clusterNode("big", "m.large", both, { pods: [on(small("a"))] })]);
    expect(summary(result).actions).toEqual(["single-node replace big -> g.small spot"]);
    expect(result.nodes[0].priceIsUpperBound).toBe(true);
  });

  it("replaces spot by spot only behind SpotToSpotConsolidation, and then among 15 cheaper options at least", () => {
    const spot = testPool(pool("default", { requirements: [inValues(LABEL.capacityType, "spot")] }));
    const node = () => clusterNode("big", "m.large", spot, { capacityType: "spot", pods: [on(small("a"))] });
    expect(blockers(settle([spot], [node()]))).toEqual(["big: SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node"]);
    // g.small, m.small and g.large are cheaper than the m.large: 3 of the 15 the gate asks for.
    expect(blockers(settle([spot], [node()], { spotToSpot: true }))).toEqual([
      "big: SpotToSpotConsolidation requires 15 cheaper instance type options than the current candidate to consolidate, got 3",
    ]);
  });

  it("can merge 3 nodes into 1 (multi-node): the longest prefix that goes, replaced by one cheaper node", () => {
    const anyType = testPool(pool("default", { requirements: [onDemand] }));
    const nodes = ["x", "y", "z"].map((name) => clusterNode(name, "m.large", anyType, { pods: [on(small(`app-${name}`))] }));
    const result = settle([anyType], nodes);
    // Three pods of 500m fit one g.small (2000m): $0.08 for $0.60.
    expect(summary(result)).toEqual({ nodes: ["replacement-1 g.small on-demand"], actions: ["multi-node replace x,y,z -> g.small on-demand"] });
    expect(result.actions[0].savingHourlyUsd).toBeCloseTo(0.52, 10);
  });

  it("leaves a node of a type the catalogue does not know", () => {
    const anyType = testPool(pool("default", { requirements: [onDemand] }));
    const unknown = { ...clusterNode("odd", "m.large", anyType, { pods: [on(small("a"))] }), instanceType: "z9.mega", hourlyUsd: undefined };
    expect(blockers(settle([anyType], [unknown]))).toEqual(['odd: Instance Type "z9.mega" not found']);
  });
});

describe("budgets (budgets_test.go)", () => {
  const weekdays = { nodes: "0", schedule: { cron: "0 9 * * mon-fri", minutes: 8 * 60 } };

  it("blocks during a budget's window, and not outside it", () => {
    const windowed = testPool(mSmallOnly.model, { budgets: [{ nodes: "100%" }, weekdays] });
    const nodes = () => [clusterNode("a", "m.small", windowed)];
    // Thursday 2026-11-26 12:00 UTC is inside 09:00 + 8h; 18:00 is outside.
    expect(summary(settle([windowed], nodes(), { at: new Date("2026-11-26T12:00:00Z") })).actions).toEqual([]);
    expect(summary(settle([windowed], nodes(), { at: new Date("2026-11-26T18:00:00Z") })).actions).toEqual(["emptiness delete a"]);
  });

  it("limits a reason only where the budget names it", () => {
    const underutilizedOnly = testPool(mSmallOnly.model, { budgets: [{ nodes: "0", reasons: ["Underutilized"] }] });
    const result = settle(
      [underutilizedOnly],
      [
        clusterNode("idle", "m.small", underutilizedOnly),
        clusterNode("node0", "m.small", underutilizedOnly, { pods: [on(small("a"))] }),
        clusterNode("node1", "m.small", underutilizedOnly, { pods: [on(small("b"))] }),
      ],
    );
    expect(summary(result).actions).toEqual(["emptiness delete idle"]);
    expect(blockers(result)).toEqual([
      "node0: No allowed disruptions for disruption reason Underutilized due to blocking budget",
      "node1: No allowed disruptions for disruption reason Underutilized due to blocking budget",
    ]);
  });
});

describe("the Balanced policy (balanced_test.go)", () => {
  const balanced = testPool(pool("default", { requirements: [onDemand] }), { policy: "Balanced" });

  it("should approve replacing an oversized node: 60% of the pool's cost saved for all of its disruption", () => {
    const result = settle([balanced], [clusterNode("big", "m.large", balanced, { pods: [on(small("a"))] })]);
    expect(summary(result).actions).toEqual(["single-node replace big -> g.small on-demand"]);
  });

  it("should reject replacing a well-packed node, which WhenEmptyOrUnderutilized replaces", () => {
    const packed = (p: typeof balanced) => [clusterNode("big", "m.large", p, { pods: [on(podGroup("a", 6, podShape(600, 512)), 6)] })];
    // Only a g.large ($0.16) holds 3600m: 20% of the pool's $0.20 saved, for all of its disruption (7 of 7).
    const result = settle([balanced], packed(balanced));
    expect(summary(result).actions).toEqual([]);
    expect(blockers(result)).toEqual(["big: Balanced: score 0.20 < threshold 0.50 (k: 2, savings 20.0%, disruption 100.0%)"]);
    const underutilized = testPool(balanced.model);
    expect(summary(settle([underutilized], packed(underutilized))).actions).toEqual(["single-node replace big -> g.large on-demand"]);
  });
});
