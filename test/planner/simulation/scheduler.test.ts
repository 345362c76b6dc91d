import type { Results } from "../../../src/planner/simulation/scheduler";
import type { PodGroup, SpreadConstraint } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podGroup, podShape, pool, runningNode, type SimulationOptions, simulation, typeNames } from "./fixtures";

// One provisioning loop: which node each pod goes to, worked out from the test catalogue (m.small 2000m,
// m.large 4000m, g.* the same on arm64). Upstream tests named below are in kubernetes-sigs/karpenter v1.14.1
// pkg/controllers/provisioning/scheduling/suite_test.go and topology_test.go.

/** Solves the groups (each with its replicas, in the order given) in one loop. */
function solve(options: SimulationOptions): Results {
  const sim = simulation(options);
  return sim.scheduler.solve(options.groups.map((g) => ({ pod: sim.pods.get(g.name) ?? fail(g.name), count: g.replicas })));
}

const fail = (name: string): never => {
  throw new Error(`no group ${name}`);
};

/** Where the pods went: each existing node's added pods, then each new NodeClaim's pods. */
const placements = (results: Results) => ({
  existing: results.existingNodes.map((n) => [n.name, n.added.map((p) => `${p.group.name} x${p.count}`)]),
  new: results.newNodeClaims.map((nc) => nc.pods.map((p) => `${p.group.name} x${p.count}`)),
  pending: results.pending.map((q) => `${q.pod.group.name} x${q.count}: ${q.reason}`),
});

/** Required pod affinity on kubernetes.io/hostname to the pods labelled app=<app>. */
const hostAffinity = (app: string) => [
  { topologyKey: LABEL.hostname, selector: { matchLabels: { app }, matchExpressions: [] }, namespaces: { kind: "own" as const }, matchLabelKeys: [] },
];

const zoneSpread = (app: string, topologyKey: string = LABEL.zone): SpreadConstraint => ({
  topologyKey,
  maxSkew: 1,
  whenUnsatisfiable: "DoNotSchedule",
  selector: { matchLabels: { app }, matchExpressions: [] },
  matchLabelKeys: [],
  nodeTaintsPolicy: "Ignore",
});

describe("Scheduler.add: existing nodes, then in-flight NodeClaims, then a new NodeClaim (scheduler.go add)", () => {
  it("follows 'should not launch a second node if there is an in-flight node that can support the pod'", () => {
    const web = podGroup("web", 1, podShape(10, 0));
    const results = solve({ pools: [pool("default")], groups: [web], existing: [runningNode("ip-1", "m.small", { pool: "default" })] });
    expect(placements(results)).toEqual({ existing: [["ip-1", ["web x1"]]], new: [], pending: [] });
  });

  it("follows 'should pack in-flight nodes before launching new nodes': the existing node fills first, then one NodeClaim takes the rest", () => {
    // m.small 2000m: two 1000m pods fill it; the third opens a NodeClaim, the fourth joins that NodeClaim.
    const web = podGroup("web", 4, podShape(1000, 0));
    const results = solve({ pools: [pool("default")], groups: [web], existing: [runningNode("ip-1", "m.small")] });
    expect(placements(results)).toEqual({ existing: [["ip-1", ["web x2"]]], new: [["web x2"]], pending: [] });
    expect(results.placed).toBe(4);
  });

  it("follows 'should order initialized nodes for scheduling uninitialized nodes'", () => {
    const web = podGroup("web", 1, podShape(10, 0));
    const results = solve({
      pools: [pool("default")],
      groups: [web],
      existing: [runningNode("starting", "m.large", { initialized: false }), runningNode("ready", "m.large")],
    });
    // Results keep the order given; the pod went to the initialized node.
    expect(placements(results).existing).toEqual([
      ["starting", []],
      ["ready", ["web x1"]],
    ]);
  });

  it("puts a pod on a node of a pool with minValues: minValues narrows what a NodeClaim may launch as, not a node (existingnode.go Add)", () => {
    const diverse = pool("diverse", { requirements: [{ key: LABEL.instanceType, operator: "In", values: ["m.small", "m.large"], minValues: 2 }] });
    const web = podGroup("web", 1, podShape(10, 0));
    const results = solve({ pools: [diverse], groups: [web], existing: [runningNode("ip-1", "m.small", { pool: "diverse" })] });
    expect(placements(results)).toEqual({ existing: [["ip-1", ["web x1"]]], new: [], pending: [] });
  });

  it("opens a NodeClaim from the first pool, in the order given, that can hold the pod", () => {
    const arm = podGroup("arm", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.arch, "arm64")] }));
    const amdOnly = pool("amd", { requirements: [inValues(LABEL.arch, "amd64")] });
    const results = solve({ pools: [amdOnly, pool("any")], groups: [arm] });
    expect(results.newNodeClaims.map((nc) => [nc.template.pool.name, typeNames(nc.instanceTypeOptions)])).toEqual([["any", ["g.large", "g.small"]]]);
  });

  it("says why every pool refused a pod that found no node", () => {
    const big = podGroup("big", 1, podShape(5000, 0));
    const tainted = pool("gpu", { taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }] });
    expect(placements(solve({ pools: [tainted, pool("default")], groups: [big] })).pending).toEqual([
      "big x1: NodePool gpu: does not tolerate the taint nvidia.com/gpu=true:NoSchedule; NodePool default: no instance type it allows holds the pod and the DaemonSets beside it",
    ]);
    expect(placements(solve({ pools: [], groups: [big] })).pending).toEqual(["big x1: the cluster has no NodePool"]);
  });
});

describe("Scheduler.solve: preferences and the queue", () => {
  it("follows 'Preferential Fallback' 'should relax all terms': a pod placed once its preference is given up is counted as relaxed", () => {
    const web = podGroup("web", 2, podShape(10, 0, { preferredAffinity: [{ weight: 1, requirements: [inValues(LABEL.zone, "invalid")] }] }));
    const results = solve({ pools: [pool("default")], groups: [web] });
    expect(results.relaxed.map((r) => [r.pod.group.name, r.gaveUp, r.count])).toEqual([["web", "a preferred node affinity term", 2]]);
    expect(placements(results).new).toEqual([["web x2"]]);
  });

  it("follows topology_test.go 'should respect pod affinity (hostname)': a pod whose affinity finds no match waits in the queue for it", () => {
    // web is queued first and needs a node with a cache pod: back of the queue; cache opens NC1; web joins it.
    const web = podGroup("web", 3, podShape(500, 0, { podAffinity: hostAffinity("cache") }));
    const cache = podGroup("cache", 1, podShape(250, 0));
    expect(placements(solve({ pools: [pool("default")], groups: [web, cache] })).new).toEqual([["cache x1", "web x3"]]);
  });

  it("leaves pending, with the reason, the pods that found no node once the queue went round without progress", () => {
    const lonely = podGroup("lonely", 2, podShape(10, 0, { podAffinity: hostAffinity("nobody") }));
    expect(placements(solve({ pools: [pool("default")], groups: [lonely] })).pending).toEqual([
      "lonely x2: NodePool default: pod affinity on kubernetes.io/hostname against app=nobody: the node has no matching pod",
    ]);
  });
});

describe("Scheduler: topology counts start from the pods on existing nodes", () => {
  const spreadGroup = (replicas: number, topologyKey?: string): PodGroup =>
    podGroup("web", replicas, podShape(10, 0, { topologySpread: [zoneSpread("web", topologyKey)] }));

  it("follows 'should balance pods across zones with in-flight nodes': one running per zone, three more go one to each node, no new node", () => {
    const web = spreadGroup(3);
    const existing = ["zone-a", "zone-b", "zone-c"].map((zone) => runningNode(`in-${zone}`, "m.large", { zone, pods: [{ group: web, count: 1 }] }));
    const results = solve({ pools: [pool("default")], groups: [web], existing });
    expect(placements(results)).toEqual({
      existing: [
        ["in-zone-a", ["web x1"]],
        ["in-zone-b", ["web x1"]],
        ["in-zone-c", ["web x1"]],
      ],
      new: [],
      pending: [],
    });
  });

  it("follows 'should balance pods across hostnames with in-flight nodes': nodes with a matching pod refuse, five new NodeClaims open", () => {
    const web = spreadGroup(5, LABEL.hostname);
    const existing = [1, 2, 3, 4].map((i) => runningNode(`node-${i}`, "m.large", { pods: [{ group: web, count: 1 }] }));
    const results = solve({ pools: [pool("default")], groups: [web], existing });
    expect(placements(results).new).toEqual([["web x1"], ["web x1"], ["web x1"], ["web x1"], ["web x1"]]);
  });
});
