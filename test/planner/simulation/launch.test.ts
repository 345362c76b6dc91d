import { chooseLaunch, launchedNode, plannedNode } from "../../../src/planner/simulation/launch";
import { NodeClaim } from "../../../src/planner/simulation/node-claim";
import type { DaemonSetShape, PodGroup } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { daemonSet, inValues, MIB, podGroup, podShape, pool, REGION, simulation } from "./fixtures";

// What a NodeClaim launches as, offline (no spot prices: spot at the on-demand rate, an upper bound), and the node
// it then is. Cheapest first: g.small $0.08, m.small $0.10, g.large $0.16, m.large $0.20. Follows
// aws/karpenter-provider-aws v1.14.1 pkg/providers/instance/instance.go (getCapacityType: spot whenever the
// NodeClaim allows it; the cheapest offering) and kubernetes-sigs/karpenter's provisioning/suite_test.go
// Context "Labels" 'should label nodes'.

/** A NodeClaim of the default pool holding one pod of each group. */
function claimWith(groups: readonly PodGroup[], daemonSets: readonly DaemonSetShape[] = []) {
  const sim = simulation({ pools: [pool("default", { labels: { team: "a" } })], groups, daemonSets });
  const nc = new NodeClaim(sim.templates[0], sim.topology, sim.fits, 7, sim.pools[0].options);
  for (const g of groups) {
    const pod = sim.pods.get(g.name);
    if (pod === undefined || !nc.add(pod, pod.forms[0]).ok) throw new Error(`${g.name} did not join`);
  }
  return nc;
}

describe("chooseLaunch", () => {
  it("launches spot when allowed, priced at the on-demand rate offline, the cheapest type; EC2 picks the zone", () => {
    const choice = chooseLaunch(claimWith([podGroup("web", 1, podShape(10, 0))]), true);
    expect({ ...choice, option: choice.option.type.name }).toEqual({
      option: "g.small",
      capacityType: "spot",
      zone: undefined,
      hourlyUsd: 0.08,
      upperBound: true,
    });
  });

  it("launches on-demand, at its price, for a pod that requires it", () => {
    const od = podGroup("od", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.capacityType, "on-demand")] }));
    const choice = chooseLaunch(claimWith([od]), true);
    expect([choice.option.type.name, choice.capacityType, choice.upperBound]).toEqual(["g.small", "on-demand", false]);
  });

  it("takes the cheapest type the NodeClaim still may be, and its one zone when it has one", () => {
    const amdInB = podGroup("amd", 1, podShape(1500, 0, { nodeSelector: [inValues(LABEL.arch, "amd64"), inValues(LABEL.zone, "zone-b")] }));
    const choice = chooseLaunch(claimWith([amdInB]), true);
    expect([choice.option.type.name, choice.zone]).toEqual(["m.small", "zone-b"]);
    expect(chooseLaunch(claimWith([amdInB]), false).zone).toBeUndefined();
  });
});

describe("launchedNode and plannedNode", () => {
  it("labels the node as Karpenter does, takes the first zone allowed where EC2 picks, and runs its type's DaemonSets", () => {
    const agent = daemonSet("agent", podShape(100, 0));
    const nc = claimWith([podGroup("web", 1, podShape(10, 0))], [agent]);
    const node = launchedNode(nc, chooseLaunch(nc, true), REGION);
    expect(node.name).toBe("hostname-placeholder-0007");
    expect(node.labels).toMatchObject({
      [LABEL.instanceType]: "g.small",
      [LABEL.arch]: "arm64",
      [LABEL.nodePool]: "default",
      [LABEL.nodeClass]: "default",
      [LABEL.region]: REGION,
      [LABEL.zone]: "zone-a",
      [LABEL.capacityType]: "spot",
      [LABEL.hostname]: "hostname-placeholder-0007",
      team: "a",
    });
    expect(node.daemonSetPods).toEqual([agent]);
    expect([node.allocatable.cpu, node.capacity.cpu, node.initialized]).toEqual([2000, 2000, false]);
  });

  it("plans the node with every pod on it: their count and requests, by group", () => {
    const nc = claimWith([podGroup("a", 1, podShape(300, 100)), podGroup("b", 1, podShape(200, 50))]);
    const choice = chooseLaunch(nc, true);
    const planned = plannedNode("default", choice, launchedNode(nc, choice, REGION), nc.requested);
    expect(planned).toMatchObject({ pool: "default", capacityType: "spot", pods: 2, cpuRequested: 500, memoryRequested: 150 * MIB, cpuAllocatable: 2000 });
    expect(planned.groups).toEqual([
      { id: "default/a", count: 1 },
      { id: "default/b", count: 1 },
    ]);
  });
});
