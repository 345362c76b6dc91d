import { CATALOGUE_FORMAT } from "../../../src/instance-catalogue/catalogue-file";
import { catalogueFrom } from "../../../src/instance-catalogue/instance-catalogue";
import { type Candidate, isCandidate, newCandidate } from "../../../src/planner/consolidation/candidates";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import {
  type Command,
  computeConsolidation,
  estimatedSavings,
  isCommand,
  withoutSameInstanceType,
} from "../../../src/planner/consolidation/compute-consolidation";
import { disruptionContext } from "../../../src/planner/consolidation/disruption-context";
import type { DisruptionContext } from "../../../src/planner/consolidation/simulate-scheduling";
import { simulationContext } from "../../../src/planner/simulation/simulation-context";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podGroup, podShape, pool, REGION, simulationOf, ZONES } from "../simulation/fixtures";
import { clusterNode, on, type TestPool, testPool } from "./fixtures";

// computeConsolidation: whether candidates can go, deleted or replaced by one NodeClaim strictly cheaper than they
// are together, and the spot-to-spot rules; withoutSameInstanceType and estimatedSavings on its commands. After
// kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/consolidation_test.go (Delete, Replace) and the
// multi-node rule of multinodeconsolidation.go (filterOutSameInstanceType). Catalogue: m.small $0.10 (2000m),
// m.large $0.20 (4000m), g.small $0.08 (2000m), g.large $0.16 (4000m), offline: spot at the on-demand rate.

const small = (name: string) => podGroup(name, 1, podShape(500, 512));
const sized = (name: string, cpu: number) => podGroup(name, 1, podShape(cpu, 512));
const onDemand = inValues(LABEL.capacityType, "on-demand");
const spotOnly = inValues(LABEL.capacityType, "spot");
const anyOnDemand = testPool(pool("default", { requirements: [onDemand] }));
const mSmallOnly = testPool(pool("default", { requirements: [inValues(LABEL.instanceType, "m.small"), onDemand] }));

const contextOf = (pools: readonly TestPool[], nodes: readonly ClusterNode[], spotToSpot = false) =>
  disruptionContext(simulationOf(pools.map((p) => ({ ...p.model, disruption: p.disruption }))), { nodes, spotToSpot });

function candidate(node: ClusterNode): Candidate {
  const c = newCandidate(node, []);
  if (!isCandidate(c)) throw new Error(c.message);
  return c;
}

/** computeConsolidation on these nodes, the candidates named. */
function compute(ctx: DisruptionContext, nodes: readonly ClusterNode[], ...names: string[]) {
  return computeConsolidation(
    ctx,
    nodes,
    names.map((n) => candidate(nodes.find((node) => node.state.name === n) as ClusterNode)),
  );
}

function command(outcome: ReturnType<typeof computeConsolidation>): Command {
  if (!isCommand(outcome)) throw new Error(`expected a command, got: ${outcome.message}`);
  return outcome;
}

const optionNames = (c: Command | undefined) => c?.replacement?.options.map((o) => o.type.name);

describe("computeConsolidation: delete or replace (consolidation_test.go Delete, Replace)", () => {
  it("can delete nodes: a candidate whose pods fit on the nodes that stay goes, with no replacement", () => {
    // node0 (m.small, 2000m) runs 2 x 500m; node1's 500m pod joins it: 1500m <= 2000m.
    const nodes = [
      clusterNode("node0", "m.small", mSmallOnly, { pods: [on(small("a"), 2)] }),
      clusterNode("node1", "m.small", mSmallOnly, { pods: [on(small("b"))] }),
    ];
    const ctx = contextOf([mSmallOnly], nodes);
    const deleted = command(compute(ctx, nodes, "node1"));
    expect(deleted.candidates.map((c) => c.node.state.name)).toEqual(["node1"]);
    expect(deleted.replacement).toBeUndefined();
    expect(deleted.results.newNodeClaims).toHaveLength(0);
    // A delete saves the candidate's whole price: $0.10.
    expect(estimatedSavings(ctx, deleted)).toBeCloseTo(0.1, 10);
  });

  it("lets a pending pod that finds no node wait without blocking the command, and says it still waits", () => {
    // As above, with a 3000m pod pending: no m.small (2000m) holds it; node1 is still deleted.
    const nodes = [
      clusterNode("node0", "m.small", mSmallOnly, { pods: [on(small("a"), 2)] }),
      clusterNode("node1", "m.small", mSmallOnly, { pods: [on(small("b"))] }),
    ];
    const huge = sized("huge", 3000);
    const ctx = disruptionContext(simulationOf([{ ...mSmallOnly.model, disruption: mSmallOnly.disruption }]), {
      nodes,
      pending: [on(huge)],
      spotToSpot: false,
    });
    const deleted = command(compute(ctx, nodes, "node1"));
    expect(deleted.replacement).toBeUndefined();
    expect(deleted.stillPending).toEqual([{ group: huge, count: 1 }]);
  });

  it("can replace node: one NodeClaim, its options those strictly cheaper than the candidate, cheapest first", () => {
    const nodes = [clusterNode("big", "m.large", anyOnDemand, { pods: [on(small("a"))] })];
    const ctx = contextOf([anyOnDemand], nodes);
    const replaced = command(compute(ctx, nodes, "big"));
    // Every type holds 500m; below the m.large's $0.20: g.small 0.08, m.small 0.10, g.large 0.16 (m.large 0.20 is not).
    expect(optionNames(replaced)).toEqual(["g.small", "m.small", "g.large"]);
    expect(replaced.replacement?.capacityTypes).toEqual(["on-demand"]);
    // $0.20 less the cheapest option, g.small $0.08.
    expect(estimatedSavings(ctx, replaced)).toBeCloseTo(0.12, 10);
  });

  it("prices the replacement at spot where the pool allows both, so that it cannot fall back to on-demand", () => {
    const both = testPool(pool("default"));
    const nodes = [clusterNode("big", "m.large", both, { pods: [on(small("a"))] })];
    const replaced = command(compute(contextOf([both], nodes), nodes, "big"));
    expect(replaced.replacement?.capacityTypes).toEqual(["spot"]);
    expect(optionNames(replaced)).toEqual(["g.small", "m.small", "g.large"]);
  });

  it("won't replace on-demand node if on-demand replacement is more expensive: an equal price is not cheaper", () => {
    // The pod needs a new node, and the only type is the candidate's own: $0.10 is not below $0.10.
    const nodes = [clusterNode("a", "m.small", mSmallOnly, { pods: [on(small("a"))] })];
    expect(compute(contextOf([mSmallOnly], nodes), nodes, "a")).toEqual({ event: "Unconsolidatable", message: "Can't replace with a cheaper node" });
  });

  it("refuses a move that needs two new NodeClaims: Can't remove without creating 2 candidates", () => {
    // Two 3000m pods, m.large only (4000m): 6000m needs two NodeClaims. (computeConsolidation's own message.)
    const mLargeOnly = testPool(pool("default", { requirements: [inValues(LABEL.instanceType, "m.large"), onDemand] }));
    const nodes = ["x", "y"].map((n) => clusterNode(n, "m.large", mLargeOnly, { pods: [on(sized(`app-${n}`, 3000))] }));
    expect(compute(contextOf([mLargeOnly], nodes), nodes, "x", "y")).toEqual({
      event: "Unconsolidatable",
      message: "Can't remove without creating 2 candidates",
    });
  });

  it("refuses when a pod would schedule nowhere, naming it and why: Not all pods would schedule, ...", () => {
    // A 3000m pod on an m.large; the pool launches m.small only (2000m), and no other node stays.
    const nodes = [clusterNode("big", "m.large", mSmallOnly, { pods: [on(sized("wide", 3000))] })];
    expect(compute(contextOf([mSmallOnly], nodes), nodes, "big")).toEqual({
      event: "Unconsolidatable",
      message: "Not all pods would schedule, default/wide => NodePool default: no instance type it allows holds the pod and the DaemonSets beside it",
    });
  });

  it("Consolidation should fail if filterByPrice breaks the minimum requirement from the NodePools", () => {
    const twoFamilies = testPool(pool("default", { requirements: [onDemand, { ...inValues(LABEL.instanceFamily, "g", "m"), minValues: 2 }] }));
    // 1500m fits all four types (families g and m); below the m.small's $0.10 only g.small: 1 family of the 2 asked.
    const nodes = [clusterNode("a", "m.small", twoFamilies, { pods: [on(sized("a", 1500))] })];
    expect(compute(contextOf([twoFamilies], nodes), nodes, "a")).toEqual({
      event: "Unconsolidatable",
      message: `Filtering by price: the types left have 1 distinct ${LABEL.instanceFamily} values; the pool's minValues asks for 2`,
    });
  });
});

// s.01 to s.18 and z.01, of one shape (4 vCPU, 8 GiB), with spot prices as upstream's spot-to-spot test sets them: s.NN at
// $1.00 + (NN - 1) x $0.10, except s.17, the cheapest ($0.001 to $0.003 by zone); z.01 is $0.001 in two zones but $9
// in zone-b, so its worst launch price is never cheaper. A node is priced at its type's spot price.
// biome-ignore format: a price table
const SPOT_USD: Record<string, number> = {
  "s.01": 1.0, "s.02": 1.1, "s.03": 1.2, "s.04": 1.3, "s.05": 1.4, "s.06": 1.5, "s.07": 1.6, "s.08": 1.7, "s.09": 1.8,
  "s.10": 1.9, "s.11": 2.0, "s.12": 2.1, "s.13": 2.2, "s.14": 2.3, "s.15": 2.4, "s.16": 2.5, "s.18": 2.7,
};
const zonal = (usd: number) => Object.fromEntries(ZONES.map((z) => [z, usd]));
const spotCatalogue = catalogueFrom({
  format: CATALOGUE_FORMAT,
  source: "test",
  asOf: "2026-01-01T00:00:00Z",
  region: REGION,
  labelKeys: [LABEL.arch, LABEL.os, LABEL.instanceType, LABEL.instanceFamily],
  resourceKeys: [],
  types: [...Object.keys(SPOT_USD), "s.17", "z.01"].map((name) => [name, ["amd64", "linux", name, name.split(".")[0]], [4, 8192, 20], [4000, 8192, 20], []]),
  onDemandUsd: Object.fromEntries([...Object.keys(SPOT_USD), "s.17", "z.01"].map((name) => [name, 5])),
  spot: {
    asOf: "2026-01-01T00:00:00Z",
    usd: {
      ...Object.fromEntries(Object.entries(SPOT_USD).map(([name, usd]) => [name, zonal(usd)])),
      "s.17": { "zone-a": 0.001, "zone-b": 0.002, "zone-c": 0.003 },
      "z.01": { "zone-a": 0.001, "zone-b": 9, "zone-c": 0.001 },
    },
  },
});
const spotPool = testPool(pool("default", { requirements: [spotOnly] }));

/** A spot node of the spot catalogue (its resources those of the test catalogue's m.large, the same shape). */
function spotNode(typeName: string, ofPool = spotPool): ClusterNode {
  const node = clusterNode("big", "m.large", ofPool, { capacityType: "spot", pods: [on(small("a"))] });
  const labels = { ...node.state.labels, [LABEL.instanceType]: typeName, [LABEL.instanceFamily]: typeName.split(".")[0] };
  return { ...node, state: { ...node.state, labels }, instanceType: typeName, hourlyUsd: SPOT_USD[typeName] };
}

function spotToSpot(typeName: string, ofPool = spotPool) {
  const nodes = [spotNode(typeName, ofPool)];
  const simulation = simulationContext({
    pools: [{ ...ofPool.model, disruption: ofPool.disruption }],
    daemonSets: [],
    catalogue: spotCatalogue,
    region: REGION,
    zones: ZONES,
  });
  const ctx = disruptionContext(simulation, { nodes, spotToSpot: true });
  return { ctx, outcome: compute(ctx, nodes, "big") };
}

/** The 15 cheapest types, cheapest first: s.17 ($0.001 to $0.003), then s.01 to s.14 ($1.00 to $2.30). */
const CHEAPEST_15 = ["s.17", "s.01", "s.02", "s.03", "s.04", "s.05", "s.06", "s.07", "s.08", "s.09", "s.10", "s.11", "s.12", "s.13", "s.14"];

describe("computeConsolidation: spot to spot (consolidation_test.go Replace)", () => {
  it("cannot replace spot with spot if the spotToSpotConsolidation is disabled", () => {
    const nodes = [clusterNode("big", "m.large", spotPool, { capacityType: "spot", pods: [on(small("a"))] })];
    expect(compute(contextOf([spotPool], nodes, false), nodes, "big")).toEqual({
      event: "Unconsolidatable",
      message: "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node",
    });
  });

  it("cannot replace spot with spot if less than minimum InstanceTypes flexibility: 14 cheaper options", () => {
    // Below s.14's $2.30: s.01 to s.13 and s.17, 14; z.01's worst launch price ($9, zone-b) is not below.
    expect(spotToSpot("s.14").outcome).toEqual({
      event: "Unconsolidatable",
      message: "SpotToSpotConsolidation requires 15 cheaper instance type options than the current candidate to consolidate, got 14",
    });
  });

  it("replaces spot with spot with exactly 15 cheaper options, every one of them", () => {
    // Below s.15's $2.40: s.01 to s.14 and s.17, 15.
    expect(optionNames(command(spotToSpot("s.15").outcome))).toEqual(CHEAPEST_15);
  });

  it("spot to spot consolidation should order the instance types by price before enforcing minimum flexibility", () => {
    // Below s.18's $2.70: s.01 to s.17, 17 types; the launch keeps the cheapest 15, s.17 first though named late.
    const { ctx, outcome } = spotToSpot("s.18");
    const replaced = command(outcome);
    expect(optionNames(replaced)).toEqual(CHEAPEST_15);
    expect(replaced.replacement?.capacityTypes).toEqual(["spot"]);
    // Savings at the cheapest offering of the cheapest option: $2.70 - s.17's $0.001 in zone-a = $2.699.
    expect(estimatedSavings(ctx, replaced)).toBeCloseTo(2.699, 10);
  });

  it("spot to spot consolidation should consider the max of default and minimum number of instanceTypeOptions from minValues in requirement for truncation if minimum number of instanceTypeOptions from minValues in requirement is greater than 15", () => {
    // The pool asks for 16 instance types: of the 17 below s.18's $2.70, the launch keeps the cheapest 16 (s.15 the 16th).
    const sixteen = testPool(pool("default", { requirements: [spotOnly, { key: LABEL.instanceType, operator: "Exists", values: [], minValues: 16 }] }));
    expect(optionNames(command(spotToSpot("s.18", sixteen).outcome))).toEqual([...CHEAPEST_15, "s.15"]);
  });

  it("merges spot nodes into one spot node without the 15-option minimum (multi-node)", () => {
    // Two spot m.large ($0.40 together), 2 x 500m: all four types are below $0.40 (3 of them would be refused alone).
    const nodes = ["x", "y"].map((n) => clusterNode(n, "m.large", spotPool, { capacityType: "spot", pods: [on(small(`app-${n}`))] }));
    const ctx = contextOf([spotPool], nodes, true);
    const merged = command(compute(ctx, nodes, "x", "y"));
    expect(optionNames(merged)).toEqual(["g.small", "m.small", "g.large", "m.large"]);
    expect(merged.replacement?.capacityTypes).toEqual(["spot"]);
    // $0.40 - g.small $0.08.
    expect(estimatedSavings(ctx, merged)).toBeCloseTo(0.32, 10);
  });
});

describe("withoutSameInstanceType (multinodeconsolidation.go filterOutSameInstanceType)", () => {
  it("keeps a delete, and a replacement of none of the candidates' types, as they are", () => {
    const nodes = [clusterNode("big", "m.large", anyOnDemand, { pods: [on(small("a"))] })];
    const ctx = contextOf([anyOnDemand], nodes);
    const replaced = command(compute(ctx, nodes, "big"));
    expect(withoutSameInstanceType(ctx, replaced)).toBe(replaced);
    const deleting: Command = { candidates: replaced.candidates, results: replaced.results };
    expect(withoutSameInstanceType(ctx, deleting)).toBe(deleting);
  });

  it("won't merge 2 nodes into 1 of the same type", () => {
    // 2 x 1500m = 3000m: of m.small (2000m) and m.large, only m.large holds it, $0.20 < $0.40; but it is their type.
    const amd = testPool(pool("default", { requirements: [inValues(LABEL.arch, "amd64"), onDemand] }));
    const nodes = ["x", "y"].map((n) => clusterNode(n, "m.large", amd, { pods: [on(sized(`app-${n}`, 1500))] }));
    const ctx = contextOf([amd], nodes);
    const merged = command(compute(ctx, nodes, "x", "y"));
    expect(optionNames(merged)).toEqual(["m.large"]);
    expect(withoutSameInstanceType(ctx, merged)).toBeUndefined();
  });

  it("keeps only the options cheaper than the cheapest candidate whose type is among them", () => {
    // g.large ($0.16) and m.large ($0.20), 1000m each: 2000m fits every type, all below $0.36. The cheapest
    // candidate type offered is g.large at $0.16: below it, g.small $0.08 and m.small $0.10.
    const nodes = [
      clusterNode("g", "g.large", anyOnDemand, { pods: [on(sized("app-g", 1000))] }),
      clusterNode("m", "m.large", anyOnDemand, { pods: [on(sized("app-m", 1000))] }),
    ];
    const ctx = contextOf([anyOnDemand], nodes);
    const merged = command(compute(ctx, nodes, "g", "m"));
    expect(optionNames(merged)).toEqual(["g.small", "m.small", "g.large", "m.large"]);
    const filtered = withoutSameInstanceType(ctx, merged);
    expect(optionNames(filtered)).toEqual(["g.small", "m.small"]);
    // $0.36 - g.small $0.08.
    expect(estimatedSavings(ctx, filtered as Command)).toBeCloseTo(0.28, 10);
  });

  it("should handle failing filterOutSameInstanceType correctly (without a panic) when minValues isn't satisfied", () => {
    // As above, with 3 instance types asked: 4 before the filter, 2 after it.
    const three = testPool(pool("default", { requirements: [onDemand, { key: LABEL.instanceType, operator: "Exists", minValues: 3 }] }));
    const nodes = [
      clusterNode("g", "g.large", three, { pods: [on(sized("app-g", 1000))] }),
      clusterNode("m", "m.large", three, { pods: [on(sized("app-m", 1000))] }),
    ];
    const ctx = contextOf([three], nodes);
    const merged = command(compute(ctx, nodes, "g", "m"));
    expect(optionNames(merged)).toEqual(["g.small", "m.small", "g.large", "m.large"]);
    expect(withoutSameInstanceType(ctx, merged)).toBeUndefined();
  });
});
