import { EXCEEDS_NODE_RESOURCES, ExistingNode } from "../../../src/planner/simulation/existing-node";
import type { StateNode } from "../../../src/planner/simulation/state-node";
import type { DaemonSetShape, PodGroup } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { daemonSet, inValues, podGroup, podShape, pool, runningNode, simulation } from "./fixtures";

// A node that exists, as the scheduler tries it, worked out from the test catalogue: m.small 2000m / 4096 MiB /
// 10 pods, m.large 4000m / 8192 MiB / 20 pods (amd64). Upstream tests named below are in kubernetes-sigs/karpenter
// v1.14.1 pkg/controllers/provisioning/scheduling/suite_test.go, Describe "Existing Nodes" and "In-Flight Nodes".

/** An ExistingNode of `state`, and a way to offer it a pod of a group as written. */
function existingOf(state: StateNode, groups: readonly PodGroup[], daemonSets: readonly DaemonSetShape[] = []) {
  const sim = simulation({ pools: [pool("default")], groups, existing: [state], daemonSets });
  const node = new ExistingNode(state, sim.topology, daemonSets);
  const add = (name: string) => {
    const pod = sim.pods.get(name);
    if (pod === undefined) throw new Error(`no group ${name}`);
    return node.add(pod, pod.forms[0]);
  };
  return { node, add };
}

const tiny = podGroup("tiny", 30, podShape(10, 0));

describe("ExistingNode: a pod joins a node that exists", () => {
  it("follows 'should schedule a pod to an existing node unowned by Karpenter'", () => {
    const { node, add } = existingOf(runningNode("ip-10-0-0-1", "m.large"), [tiny]);
    expect(add("tiny")).toEqual({ ok: true, value: undefined });
    expect(node.added.map((p) => [p.group.name, p.count])).toEqual([["tiny", 1]]);
  });

  it("follows 'should schedule multiple pods to an existing node unowned by Karpenter': up to its pod capacity (20)", () => {
    const { node, add } = existingOf(runningNode("ip-10-0-0-1", "m.large"), [tiny]);
    for (let i = 0; i < 20; i++) expect(add("tiny").ok).toBe(true);
    expect(add("tiny")).toEqual({ ok: false, reason: EXCEEDS_NODE_RESOURCES });
    expect(node.added.map((p) => [p.group.name, p.count])).toEqual([["tiny", 20]]);
  });

  it("follows 'should launch a second node if a pod won't fit on the existingNodes node': the pods bound to it count", () => {
    // 1001m bound; 1000m more would be 2001m on an m.small's 2000m.
    const bound = podGroup("bound", 1, podShape(1001, 0));
    const next = podGroup("next", 1, podShape(1000, 0));
    const { add } = existingOf(runningNode("ip-10-0-0-1", "m.small", { pods: [{ group: bound, count: 1 }] }), [next]);
    expect(add("next")).toEqual({ ok: false, reason: EXCEEDS_NODE_RESOURCES });
  });

  it("follows 'should launch a second node if a pod isn't compatible with the existingNodes node (node selector)'", () => {
    const arm = podGroup("arm", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.arch, "arm64")] }));
    const { add } = existingOf(runningNode("ip-10-0-0-1", "m.large"), [arm]);
    expect(add("arm")).toEqual({ ok: false, reason: "requires kubernetes.io/arch In [arm64], which the node's labels do not satisfy" });
  });

  it("follows 'should not assume pod will schedule to a tainted node', and 'should assume pod will schedule to a tainted node with no taints'", () => {
    const tainted = runningNode("ip-10-0-0-1", "m.large", { taints: [{ key: "foo.com/taint", value: "tainted", effect: "NoSchedule" }] });
    expect(existingOf(tainted, [tiny]).add("tiny")).toEqual({ ok: false, reason: "does not tolerate the taint foo.com/taint=tainted:NoSchedule" });
    expect(existingOf(runningNode("ip-10-0-0-2", "m.large"), [tiny]).add("tiny").ok).toBe(true);
  });

  it("follows 'should consider a pod incompatible with an existing node but compatible with NodePool': its zone is its label", () => {
    const zoneA = podGroup("zone-a", 1, podShape(10, 0, { affinityTerms: [[inValues(LABEL.zone, "zone-a")]] }));
    expect(existingOf(runningNode("ip-10-0-0-1", "m.large", { zone: "zone-b" }), [zoneA]).add("zone-a").ok).toBe(false);
    expect(existingOf(runningNode("ip-10-0-0-1", "m.large", { zone: "zone-a" }), [zoneA]).add("zone-a").ok).toBe(true);
  });

  it("binds the pods it took when the loop is over", () => {
    const bound = podGroup("bound", 2, podShape(10, 0));
    const { node, add } = existingOf(runningNode("ip-10-0-0-1", "m.large", { pods: [{ group: bound, count: 2 }] }), [tiny]);
    add("tiny");
    add("tiny");
    expect(node.toStateNode().pods.map((p) => [p.group.name, p.count])).toEqual([
      ["bound", 2],
      ["tiny", 2],
    ]);
    expect(node.requested.cpu).toBe(40);
  });
});

describe("ExistingNode: DaemonSets (suite_test.go Describe 'In-Flight Nodes', Context 'Daemonsets')", () => {
  const agent = daemonSet("agent", podShape(1000, 0));
  const fill = (cpu: number) => podGroup(`fill-${cpu}`, 1, podShape(cpu, 0));

  it("follows 'should track daemonset usage separately so we know how many DS resources are remaining to be scheduled': a running one counts once", () => {
    // m.large 4000m with the agent's 1000m running: 3000m left, not 2000m.
    const node = runningNode("ip-10-0-0-1", "m.large", { daemonSetPods: [agent] });
    expect(existingOf(node, [fill(3000)], [agent]).add("fill-3000").ok).toBe(true);
    expect(existingOf(node, [fill(3001)], [agent]).add("fill-3001").ok).toBe(false);
  });

  it("keeps room for a DaemonSet pod that belongs on the node and does not run there yet", () => {
    const node = runningNode("ip-10-0-0-1", "m.large");
    expect(existingOf(node, [fill(3000)], [agent]).add("fill-3000").ok).toBe(true);
    expect(existingOf(node, [fill(3001)], [agent]).add("fill-3001").ok).toBe(false);
  });

  it("follows 'should not subtract daemonset overhead that is not strictly compatible with an existing node'", () => {
    const zoneA = daemonSet("zone-a", podShape(1000, 0, { nodeSelector: [inValues(LABEL.zone, "zone-a")] }));
    const node = runningNode("ip-10-0-0-1", "m.large", { zone: "zone-b" });
    expect(existingOf(node, [fill(4000)], [zoneA]).add("fill-4000").ok).toBe(true);
  });

  it("follows 'should handle unexpected daemonset pods binding to the node': what runs counts, and the room kept never goes below zero", () => {
    // ds1 (1000m) runs though its selector does not match the node's labels; ds2 (1m) belongs and does not run.
    // Kept: 1000m running + max(0, 1m - 1000m) = 1000m, and one pod for both (max(0, 1 - 1)): 3000m left.
    const ds1 = daemonSet("ds1", podShape(1000, 0, { nodeSelector: [inValues("my-node-label", "value")] }));
    const ds2 = daemonSet("ds2", podShape(1, 0));
    const node = runningNode("ip-10-0-0-1", "m.large", { daemonSetPods: [ds1] });
    expect(existingOf(node, [fill(3000)], [ds1, ds2]).add("fill-3000").ok).toBe(true);
    expect(existingOf(node, [fill(3001)], [ds1, ds2]).add("fill-3001").ok).toBe(false);
  });
});
