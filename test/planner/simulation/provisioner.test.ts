import type { PoolModel } from "../../../src/planner/model";
import { provision } from "../../../src/planner/simulation/provisioner";
import type { StateNode } from "../../../src/planner/simulation/state-node";
import type { PodAffinityTerm, PodGroup, SpreadConstraint } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podGroup, podShape, pool, runningNode, simulationOf } from "./fixtures";

// Provisioning loops over the test catalogue, offline (spot allowed: launched as spot at the on-demand price;
// the cheapest type that holds the pods: g.small $0.08, m.small $0.10, g.large $0.16, m.large $0.20). Upstream
// tests named below are in kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/suite_test.go and
// scheduling/topology_test.go.

function provisionOn(
  pools: readonly PoolModel[],
  groups: readonly PodGroup[],
  existingNodes: readonly StateNode[] = [],
  scaleUp?: ReadonlyMap<PodGroup, number>,
) {
  return provision(simulationOf(pools), { groups, existingNodes, scaleUp });
}

const hostAnti = (app: string): PodAffinityTerm => ({
  topologyKey: LABEL.hostname,
  selector: { matchLabels: { app }, matchExpressions: [] },
  namespaces: { kind: "own" },
  matchLabelKeys: [],
});

const zoneSpread: SpreadConstraint = {
  topologyKey: LABEL.zone,
  maxSkew: 1,
  whenUnsatisfiable: "DoNotSchedule",
  selector: { matchLabels: { app: "web" }, matchExpressions: [] },
  matchLabelKeys: [],
  nodeTaintsPolicy: "Ignore",
};

const summary = (nodes: ReturnType<typeof provisionOn>["nodes"]) => nodes.map((n) => `${n.type.name} ${n.capacityType} ${n.zone ?? "any"} ${n.pods}`);

describe("provisioning loops", () => {
  it("follows 'should not schedule to a nodepool after a scheduling round if limits would be exceeded': pods held back by a reservation wait for the next loop", () => {
    // Limit cpu 6: NC1 may be small or large and reserves 4000m; NC2 may only be small: 2000m, nothing left;
    // the third pod waits. Both launch as g.small (the cheapest). Loop 2 counts them at 2000m each: 2000m
    // left, and the third pod gets a g.small too.
    const web = podGroup("web", 3, podShape(1500, 0, { podAntiAffinity: [hostAnti("web")] }));
    const result = provisionOn([pool("default", { limits: { cpu: 6000 } })], [web]);
    expect(summary(result.nodes)).toEqual(["g.small spot any 1", "g.small spot any 1", "g.small spot any 1"]);
    expect(result.unschedulable).toEqual([]);
  });

  it("follows suite_test.go 'should not schedule if limits would be exceeded': what no loop can place is unschedulable, and why", () => {
    const big = podGroup("big", 2, podShape(1500, 0, { podAntiAffinity: [hostAnti("big")] }));
    const result = provisionOn([pool("default", { limits: { cpu: 2000 } })], [big]);
    expect(summary(result.nodes)).toEqual(["g.small spot any 1"]);
    expect(result.unschedulable).toEqual([{ id: "default/big", count: 1, reason: "NodePool default: its limits are reached (cpu 2)" }]);
  });

  it("plans a later loop's pods onto the nodes an earlier loop launched, and reports every pod on each", () => {
    // An autoscaler adds 2 pods of 500m after the first plan: they join the g.small launched for the first pod.
    const web = podGroup("web", 1, podShape(500, 0));
    const result = provisionOn([pool("default")], [web], [], new Map([[web, 2]]));
    expect(result.nodes.map((n) => [n.type.name, n.pods, n.cpuRequested, n.groups])).toEqual([["g.small", 3, 1500, [{ id: "default/web", count: 3 }]]]);
  });

  it("plans a later loop's pods onto a node of a pool with minValues, which binds the launch, not the node", () => {
    // minValues 2 on the instance type: the first pod's NodeClaim keeps all four types and launches as g.small;
    // the autoscaler's 2 pods of 500m join that node (1500m of 2000m) instead of opening another.
    const diverse = pool("diverse", { requirements: [{ key: LABEL.instanceType, operator: "Exists", minValues: 2 }] });
    const web = podGroup("web", 1, podShape(500, 0));
    const result = provisionOn([diverse], [web], [], new Map([[web, 2]]));
    expect(summary(result.nodes)).toEqual(["g.small spot any 3"]);
  });

  it("launches each NodeClaim as the node the next loop sees: in one zone, of one capacity type", () => {
    const zoned = podGroup("zoned", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.zone, "zone-b")] }));
    expect(summary(provisionOn([pool("default")], [zoned]).nodes)).toEqual(["g.small spot zone-b 1"]);
  });
});

describe("provisioning from nodes already running", () => {
  it("follows suite_test.go 'should schedule a pod to an existing node unowned by Karpenter': no node is launched, and the node reports the pod", () => {
    const web = podGroup("web", 2, podShape(500, 0));
    const running = runningNode("ip-10-0-0-1", "m.large");
    const result = provisionOn([pool("default")], [web], [running]);
    expect(result.nodes).toEqual([]);
    expect(result.existingNodes.map((n) => [n.name, n.pods.map((p) => [p.group.id, p.count])])).toEqual([["ip-10-0-0-1", [["default/web", 2]]]]);
  });

  it("counts a running node of a pool against the pool's limits (scheduler.go calculateExistingNodeClaims)", () => {
    // A pool limited to 4 CPUs already runs an m.large (4000m) with 3500m used: a 1000m pod fits nowhere.
    const used = podGroup("used", 1, podShape(3500, 0));
    const more = podGroup("more", 1, podShape(1000, 0));
    const running = runningNode("ip-10-0-0-1", "m.large", { pool: "default", pods: [{ group: used, count: 1 }] });
    const result = provisionOn([pool("default", { limits: { cpu: 4000 } })], [more], [running]);
    expect(result.unschedulable).toEqual([{ id: "default/more", count: 1, reason: "NodePool default: its limits are reached (cpu 4)" }]);
  });

  it("follows topology_test.go 'should respect NodePool zonal constraints (existing pod)': a running pod in a zone no pool launches in still counts", () => {
    // One web pod runs in zone-c (a node no pool owns); the pool launches in zone-a and zone-b. Each of them may
    // hold 2 (2 - 1 <= 1): 4 of the 6 pods are placed, 2 stay pending.
    const web = podGroup("web", 6, podShape(1100, 0, { topologySpread: [zoneSpread] }));
    const running = runningNode("ip-10-0-0-9", "m.small", { zone: "zone-c", pods: [{ group: web, count: 1 }] });
    const twoZones = pool("default", { requirements: [inValues(LABEL.zone, "zone-a", "zone-b")] });
    const result = provisionOn([twoZones], [web], [running]);
    const byZone: Record<string, number> = {};
    for (const n of result.nodes) byZone[n.zone ?? "any"] = (byZone[n.zone ?? "any"] ?? 0) + n.pods;
    expect(byZone).toEqual({ "zone-a": 2, "zone-b": 2 });
    expect(result.unschedulable.map((u) => u.count)).toEqual([2]);
  });

  it("an OrderedReady StatefulSet's pods arrive one loop apart: each finds the node its predecessor launched full, and launches another", () => {
    // 3 pods of 1500m. All at once (Parallel), the first NodeClaim takes two (3000m: g.large) and the third a
    // g.small. One at a time, each launches the cheapest type holding it (g.small, 2000m), and the next finds it full.
    const set = (orderedReady: boolean): PodGroup => ({
      ...podGroup("db", 3, podShape(1500, 0)),
      kind: "StatefulSet",
      ...(orderedReady ? { orderedReady } : {}),
    });
    expect(summary(provisionOn([pool("default")], [set(false)]).nodes)).toEqual(["g.large spot any 2", "g.small spot any 1"]);
    expect(summary(provisionOn([pool("default")], [set(true)]).nodes)).toEqual(["g.small spot any 1", "g.small spot any 1", "g.small spot any 1"]);
  });

  it("a pod of an OrderedReady StatefulSet that finds no node keeps the ones after it from being created", () => {
    // The pool's limit (cpu 2000) holds one g.small: the second pod finds no node, and the third is never created.
    const db: PodGroup = { ...podGroup("db", 3, podShape(1500, 0)), kind: "StatefulSet", orderedReady: true };
    const result = provisionOn([pool("default", { limits: { cpu: 2000 } })], [db]);
    expect(summary(result.nodes)).toEqual(["g.small spot any 1"]);
    expect(result.unschedulable).toEqual([{ id: "default/db", count: 2, reason: "NodePool default: its limits are reached (cpu 2)" }]);
  });
});
