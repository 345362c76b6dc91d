import fc from "fast-check";
import { isCandidate, newCandidate } from "../../../src/planner/consolidation/candidates";
import { cannotConsolidate } from "../../../src/planner/consolidation/capacity-screen";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import { disruptionContext } from "../../../src/planner/consolidation/disruption-context";
import type { DaemonSetShape, PodGroup } from "../../../src/planner/workload/workload-model";
import { daemonSet, inValues, podGroup, podShape, pool, simulationOf } from "../simulation/fixtures";
import { clusterNode, on, settle, summary, type TestPool, testPool } from "./fixtures";

// The capacity screen skips consolidation simulations that totals rule out (the replay runs the disruption
// controller thousands of times a simulated day). It may only skip simulations that would have found nothing:
// settling a cluster with and without it must take the same commands, whatever the cluster.

const TYPES = ["m.small", "m.large", "g.small", "g.large"] as const;
/** Allocatable of the test catalogue's types: (vCPU x 1000, MiB). */
const ROOM: Record<(typeof TYPES)[number], { cpu: number; memoryMiB: number; pods: number }> = {
  "m.small": { cpu: 2000, memoryMiB: 4096, pods: 10 },
  "m.large": { cpu: 4000, memoryMiB: 8192, pods: 20 },
  "g.small": { cpu: 2000, memoryMiB: 4096, pods: 10 },
  "g.large": { cpu: 4000, memoryMiB: 8192, pods: 20 },
};

/** A DaemonSet on every node: the room it takes is no node's to give. */
const AGENT = daemonSet("agent", podShape(200, 256));

const settled = (pools: readonly TestPool[], nodes: readonly ClusterNode[], screen: boolean) => summary(settle(pools, nodes, { daemonSets: [AGENT], screen }));

/** Pods of these groups on a node of this type beside the DaemonSet, as many of each as still fit. */
function fill(type: (typeof TYPES)[number], wanted: readonly { group: PodGroup; count: number }[], daemon: DaemonSetShape) {
  let { cpu, memoryMiB, pods } = ROOM[type];
  cpu -= daemon.pod.cpuMillis;
  memoryMiB -= daemon.pod.memoryBytes / 2 ** 20;
  pods -= 1;
  const placed: { group: PodGroup; count: number }[] = [];
  for (const { group, count } of wanted) {
    const each = { cpu: group.pod.cpuMillis, memoryMiB: group.pod.memoryBytes / 2 ** 20 };
    const n = Math.min(count, Math.floor(cpu / each.cpu), Math.floor(memoryMiB / each.memoryMiB), pods);
    if (n <= 0) continue;
    placed.push(on(group, n));
    cpu -= n * each.cpu;
    memoryMiB -= n * each.memoryMiB;
    pods -= n;
  }
  return placed;
}

describe("capacity screen", () => {
  it("takes the same commands as the simulation alone, on clusters full, half full and empty, spot and on-demand", () => {
    const groups = [podGroup("small", 0, podShape(250, 512)), podGroup("medium", 0, podShape(700, 1500)), podGroup("large", 0, podShape(1500, 3000))];
    const node = fc.record({
      type: fc.constantFrom(...TYPES),
      spot: fc.boolean(),
      pods: fc.array(fc.record({ group: fc.constantFrom(...groups), count: fc.integer({ min: 0, max: 12 }) }), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 7 }), fc.boolean(), (specs, spotPool) => {
        const capacityTypes = spotPool ? ["spot", "on-demand"] : ["on-demand"];
        const shared = testPool(pool("default", { requirements: [inValues("karpenter.sh/capacity-type", ...capacityTypes)] }));
        const nodes = specs.map((s, i) =>
          clusterNode(`node-${i}`, s.type, shared, {
            capacityType: spotPool && s.spot ? "spot" : "on-demand",
            pods: fill(s.type, s.pods, AGENT),
            daemonSetPods: [AGENT],
          }),
        );
        expect(settled([shared], nodes, true)).toEqual(settled([shared], nodes, false));
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });

  it("rules out a node whose pods fit nowhere else when no cheaper type exists, and lets through one whose pods fit", () => {
    // amd64 only: m.small ($0.10) is the cheapest type. Two m.small, each with a 1.5-CPU pod: 500m left on each, so
    // neither pod fits on the other node and no cheaper type could take it. A third m.small, empty, takes either.
    const shared = testPool(pool("default", { requirements: [inValues("kubernetes.io/arch", "amd64")] }));
    const big = podGroup("big", 0, podShape(1500, 1024));
    const full = [0, 1].map((i) => clusterNode(`node-${i}`, "m.small", shared, { capacityType: "on-demand", pods: [on(big)] }));
    const simulation = simulationOf([{ ...shared.model, disruption: shared.disruption }]);
    const screened = (nodes: readonly ClusterNode[]) => {
      const ctx = { ...disruptionContext(simulation, { nodes, spotToSpot: false }), screen: true };
      const candidate = newCandidate(nodes[0], []);
      if (!isCandidate(candidate)) throw new Error("node-0 is a candidate");
      return cannotConsolidate(ctx, nodes, [candidate]);
    };
    expect(screened(full)).toBe(true);
    expect(screened([...full, clusterNode("node-2", "m.small", shared, { capacityType: "on-demand" })])).toBe(false);
    expect(settled([shared], full, true)).toEqual({ nodes: ["node-0 m.small on-demand", "node-1 m.small on-demand"], actions: [] });
  });

  it("lets a spot node be replaced when its pods ask for on-demand: the new node is then no spot to spot", () => {
    // One m.large on spot ($0.20 offline) with one pod that selects on-demand: the replacement is narrowed to
    // on-demand, and a g.small ($0.08) holds the pod. Spot to spot is off, but this is not spot to spot.
    const shared = testPool(pool("default", { requirements: [inValues("karpenter.sh/capacity-type", "spot", "on-demand")] }));
    const onDemand = podGroup("od", 0, podShape(500, 1024, { nodeSelector: [inValues("karpenter.sh/capacity-type", "on-demand")] }));
    const nodes = [clusterNode("node-0", "m.large", shared, { capacityType: "spot", pods: [on(onDemand)] })];
    const expected = { nodes: ["replacement-1 g.small on-demand"], actions: ["single-node replace node-0 -> g.small on-demand"] };
    expect(settled([shared], nodes, false)).toEqual(expected);
    expect(settled([shared], nodes, true)).toEqual(expected);
  });
});
