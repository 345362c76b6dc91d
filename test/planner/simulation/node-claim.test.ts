import type { PoolModel } from "../../../src/planner/model";
import { NO_ROOM, NO_TYPE_HOLDS, NodeClaim } from "../../../src/planner/simulation/node-claim";
import type { PodData } from "../../../src/planner/simulation/pod-data";
import type { DaemonSetShape, PodGroup } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { daemonSet, inValues, podGroup, podShape, pool, simulation, typeNames } from "./fixtures";

// A NodeClaim narrowing as pods join it, worked out by hand from the test catalogue (fixtures.ts): every type
// has allocatable CPU of its vCPUs x 1000 and the pods of its row; candidates in name order g.large, g.small,
// m.large, m.small. Upstream tests named below are in kubernetes-sigs/karpenter v1.14.1
// pkg/controllers/provisioning/scheduling/ (suite_test.go, instance_selection_test.go).

/** A fresh NodeClaim of the first pool, with every type of the pool, and the pod data of each group. */
function nodeClaimOf(groups: readonly PodGroup[], poolModel: PoolModel = pool("default"), daemonSets: readonly DaemonSetShape[] = []) {
  const sim = simulation({ pools: [poolModel], groups, daemonSets });
  const nc = new NodeClaim(sim.templates[0], sim.topology, sim.fits, 1, sim.pools[0].options);
  const pod = (name: string): PodData => {
    const data = sim.pods.get(name);
    if (data === undefined) throw new Error(`no group ${name}`);
    return data;
  };
  const add = (name: string) => nc.add(pod(name), pod(name).forms[0]);
  return { nc, add };
}

describe("NodeClaim: narrowing the instance types as pods join", () => {
  it("follows instance_selection_test.go 'should schedule on one of the cheapest instances (pod arch = amd64)': only types of the pod's arch stay", () => {
    const { nc, add } = nodeClaimOf([podGroup("amd", 1, podShape(100, 100, { nodeSelector: [inValues(LABEL.arch, "amd64")] }))]);
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["g.large", "g.small", "m.large", "m.small"]);
    expect(add("amd")).toEqual({ ok: true, value: undefined });
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["m.large", "m.small"]);
  });

  it("follows suite_test.go 'should launch pods with different archs on different instances': an arm64 pod cannot join an amd64 NodeClaim", () => {
    const { nc, add } = nodeClaimOf([
      podGroup("amd", 1, podShape(100, 100, { nodeSelector: [inValues(LABEL.arch, "amd64")] })),
      podGroup("arm", 1, podShape(100, 100, { nodeSelector: [inValues(LABEL.arch, "arm64")] })),
    ]);
    add("amd");
    expect(add("arm")).toEqual({ ok: false, reason: NO_TYPE_HOLDS });
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["m.large", "m.small"]);
    expect(nc.pods.map((p) => [p.group.name, p.count])).toEqual([["amd", 1]]);
  });

  it("follows suite_test.go 'should not schedule if requesting more resources than any instance type has': keeps the types that hold every pod", () => {
    // 1500m fits all four; 3000m only the 4000m types; 4500m none: refused for room, nothing changed.
    const { nc, add } = nodeClaimOf([podGroup("web", 3, podShape(1500, 100))]);
    add("web");
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["g.large", "g.small", "m.large", "m.small"]);
    add("web");
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["g.large", "m.large"]);
    expect(add("web")).toEqual({ ok: false, reason: NO_ROOM });
    expect(nc.requested).toEqual({ cpu: 3000, memory: 200 * 2 ** 20, pods: 2, extended: {} });
    expect(nc.pods.map((p) => [p.group.name, p.count])).toEqual([["web", 2]]);
  });

  it("follows provisioning/suite_test.go 'should account for daemonsets': each type holds the pods plus its own DaemonSets", () => {
    // DaemonSet 2000m / 2048 MiB: with a 1000m pod, 3000m, more than a small type's 2000m.
    const { nc, add } = nodeClaimOf([podGroup("app", 1, podShape(1000, 1024))], pool("default"), [daemonSet("agent", podShape(2000, 2048))]);
    add("app");
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["g.large", "m.large"]);
  });

  it("follows provisioning/suite_test.go 'should account for daemonsets', for pods: each type's pod limit holds its DaemonSet pods (m.small: 10, 2 of them)", () => {
    // Two tiny DaemonSets on an amd64 pool of m.large (20 pods) and m.small (10). After 8 pods m.small is full
    // (8 + 2 = 10); the 9th pod leaves m.large alone (9 + 2 = 11 > 10), and 18 pods fill m.large too.
    const amd = pool("amd", { requirements: [inValues(LABEL.arch, "amd64")] });
    const agents = [daemonSet("a", podShape(10, 0)), daemonSet("b", podShape(10, 0))];
    const { nc, add } = nodeClaimOf([podGroup("tiny", 20, podShape(10, 0))], amd, agents);
    for (let i = 0; i < 8; i++) expect(add("tiny").ok).toBe(true);
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["m.large", "m.small"]);
    expect(add("tiny").ok).toBe(true);
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["m.large"]);
    for (let i = 9; i < 18; i++) expect(add("tiny").ok).toBe(true);
    expect(add("tiny")).toEqual({ ok: false, reason: NO_ROOM });
    expect(nc.podCount).toBe(18);
  });

  it("follows instance_selection_test.go 'should schedule respecting the minValues from instance-type requirements'", () => {
    // minValues 2 on the instance type: two 1100m pods fit m.large only (2200m > m.small's 2000m), one type:
    // the second pod may not join, and the NodeClaim keeps both types.
    const diverse = pool("diverse", { requirements: [{ key: LABEL.instanceType, operator: "In", values: ["m.small", "m.large"], minValues: 2 }] });
    const { nc, add } = nodeClaimOf([podGroup("web", 2, podShape(1100, 100))], diverse);
    expect(add("web").ok).toBe(true);
    expect(add("web")).toEqual({
      ok: false,
      reason: "the types left have 1 distinct node.kubernetes.io/instance-type values; the pool's minValues asks for 2",
    });
    expect(typeNames(nc.instanceTypeOptions)).toEqual(["m.large", "m.small"]);
  });
});

describe("NodeClaim: zones and capacity types left to it", () => {
  it("follows suite_test.go 'should not launch a second node if there is an in-flight node that can support the pod (node selectors)'", () => {
    // In zone-b; then a pod allowing zone-a or zone-b joins; a pod allowing zone-a or zone-c cannot.
    const { nc, add } = nodeClaimOf([
      podGroup("b", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.zone, "zone-b")] })),
      podGroup("ab", 1, podShape(10, 0, { affinityTerms: [[inValues(LABEL.zone, "zone-a", "zone-b")]] })),
      podGroup("ac", 1, podShape(10, 0, { affinityTerms: [[inValues(LABEL.zone, "zone-a", "zone-c")]] })),
    ]);
    expect(nc.zones).toEqual(["zone-a", "zone-b", "zone-c"]);
    add("b");
    expect(nc.zones).toEqual(["zone-b"]);
    expect(add("ab").ok).toBe(true);
    expect(add("ac")).toEqual({ ok: false, reason: "the pod requires a zone the node cannot be in (zone-b)" });
  });

  it("follows instance_selection_test.go 'should schedule on one of the cheapest instances (pod ct = spot)'", () => {
    const { nc, add } = nodeClaimOf([
      podGroup("spot", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.capacityType, "spot")] })),
      podGroup("od", 1, podShape(10, 0, { nodeSelector: [inValues(LABEL.capacityType, "on-demand")] })),
    ]);
    expect(nc.capacityTypes).toEqual(["spot", "on-demand"]);
    add("spot");
    expect(nc.capacityTypes).toEqual(["spot"]);
    expect(add("od")).toEqual({ ok: false, reason: "the pod requires a capacity type the node cannot be (spot)" });
  });

  it("follows provisioning/suite_test.go 'should schedule pods that tolerate taints': a pod that does not tolerate the pool's taint is refused", () => {
    const tainted = pool("gpu", { taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }] });
    const { nc, add } = nodeClaimOf(
      [podGroup("plain", 1, podShape(10, 0)), podGroup("tolerant", 1, podShape(10, 0, { tolerations: [{ key: "nvidia.com/gpu", operator: "Exists" }] }))],
      tainted,
    );
    expect(add("plain")).toEqual({ ok: false, reason: "does not tolerate the taint nvidia.com/gpu=true:NoSchedule" });
    expect(add("tolerant").ok).toBe(true);
    expect(nc.pods.map((p) => p.group.name)).toEqual(["tolerant"]);
  });
});

describe("NodeClaim: what it records", () => {
  it("keeps its pods as runs of the same group, in the order they came", () => {
    const { nc, add } = nodeClaimOf([podGroup("a", 2, podShape(10, 0)), podGroup("b", 1, podShape(10, 0))]);
    add("a");
    add("a");
    add("b");
    add("a");
    expect(nc.pods.map((p) => [p.group.name, p.count])).toEqual([
      ["a", 2],
      ["b", 1],
      ["a", 1],
    ]);
    expect(nc.hostname).toBe("hostname-placeholder-0001");
  });
});
