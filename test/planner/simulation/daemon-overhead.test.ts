import { daemonRequests, daemonSetRunsOnNode } from "../../../src/planner/simulation/daemon-overhead";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { daemonSet, inValues, MIB, newFitCache, offeringsOf, podShape, pool, runningNode } from "./fixtures";

// What a DaemonSet adds to each instance type a NodePool may launch, worked out from the DaemonSets' requests
// and the test catalogue (candidates in name order: g.large, g.small, m.large, m.small). Upstream tests named
// below are in kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/suite_test.go, Context("Daemonsets").

const overheadOf = (poolModel = pool("default"), daemonSets = [daemonSet("agent", podShape(2000, 2048))]) =>
  offeringsOf([poolModel], newFitCache(), daemonSets)[0].options.map((c) => ({
    type: c.type.name,
    cpu: c.overhead.cpu,
    memory: c.overhead.memory / MIB,
    pods: c.overhead.pods,
    daemonSets: c.daemonSets.map((ds) => ds.id),
  }));

describe("DaemonSet overhead per instance type", () => {
  it("follows 'should account for daemonsets': a DaemonSet for every node counts on every type, one pod each", () => {
    const each = { cpu: 2000, memory: 2048, pods: 1, daemonSets: ["kube-system/agent"] };
    expect(overheadOf()).toEqual(["g.large", "g.small", "m.large", "m.small"].map((type) => ({ type, ...each })));
  });

  it("adds up several DaemonSets, their pods counting against each type's pod limit", () => {
    const two = [daemonSet("a", podShape(100, 64)), daemonSet("b", podShape(50, 0))];
    expect(overheadOf(pool("default"), two)[0]).toEqual({ type: "g.large", cpu: 150, memory: 64, pods: 2, daemonSets: ["kube-system/a", "kube-system/b"] });
  });

  it("follows 'should ignore daemonsets without matching tolerations': a tainted pool's types carry only those that tolerate it", () => {
    const tainted = pool("gpu", { taints: [{ key: "foo", value: "bar", effect: "NoSchedule" }] });
    const tolerant = daemonSet("tolerant", podShape(300, 0, { tolerations: [{ operator: "Exists" }] }));
    const intolerant = daemonSet("intolerant", podShape(2000, 0));
    expect(overheadOf(tainted, [intolerant, tolerant]).map((c) => [c.type, c.cpu, c.daemonSets])).toEqual([
      ["g.large", 300, ["kube-system/tolerant"]],
      ["g.small", 300, ["kube-system/tolerant"]],
      ["m.large", 300, ["kube-system/tolerant"]],
      ["m.small", 300, ["kube-system/tolerant"]],
    ]);
  });

  it("follows 'should consider a daemonset schedulable with a PreferNoSchedule taint'", () => {
    const preferred = pool("soft", { taints: [{ key: "test", effect: "PreferNoSchedule" }] });
    expect(overheadOf(preferred).map((c) => c.cpu)).toEqual([2000, 2000, 2000, 2000]);
  });

  it("follows 'should ignore daemonsets with an invalid selector' and counts an arm64-only DaemonSet on arm64 types only", () => {
    const armOnly = daemonSet("arm", podShape(500, 0, { nodeSelector: [inValues(LABEL.arch, "arm64")] }));
    const nowhere = daemonSet("nowhere", podShape(700, 0, { nodeSelector: [inValues("node", "invalid")] }));
    expect(overheadOf(pool("default"), [armOnly, nowhere]).map((c) => [c.type, c.cpu])).toEqual([
      ["g.large", 500],
      ["g.small", 500],
      ["m.large", 0],
      ["m.small", 0],
    ]);
  });

  it("follows 'should account daemonsets with NotIn operator and unspecified key': NotIn holds where the key is absent", () => {
    const notIn = daemonSet("not-in", podShape(400, 0, { affinityTerms: [[{ key: "foo", operator: "NotIn", values: ["bar"] }]] }));
    expect(overheadOf(pool("default"), [notIn]).map((c) => c.cpu)).toEqual([400, 400, 400, 400]);
  });

  it("follows 'should consider a daemonset schedulable with multiple node affinity terms': terms are ORed", () => {
    const labelled = pool("labelled", { labels: { foo: "bar" } });
    const terms = daemonSet("terms", podShape(600, 0, { affinityTerms: [[inValues("foo", "voo")], [inValues("foo", "bar")]] }));
    expect(overheadOf(labelled, [terms]).map((c) => c.cpu)).toEqual([600, 600, 600, 600]);
  });
});

describe("DaemonSets on a node that exists: follows scheduler.go calculateExistingNodeClaims (taints, then the node's labels)", () => {
  const node = runningNode("ip-10-0-0-1", "m.small", { zone: "zone-b", taints: [{ key: "team", value: "a", effect: "NoSchedule" }] });

  it("runs where it tolerates the node's taints and its node selector holds for the node's labels", () => {
    const everywhere = daemonSet("everywhere", podShape(10, 0, { tolerations: [{ operator: "Exists" }] }));
    const zoneB = daemonSet("zone-b", podShape(10, 0, { tolerations: [{ operator: "Exists" }], nodeSelector: [inValues(LABEL.zone, "zone-b")] }));
    expect(daemonSetRunsOnNode(everywhere, node.labels, node.taints)).toBe(true);
    expect(daemonSetRunsOnNode(zoneB, node.labels, node.taints)).toBe(true);
  });

  it("stays off a node whose taint it does not tolerate, or whose labels its selector does not match", () => {
    const intolerant = daemonSet("intolerant", podShape(10, 0));
    const arm = daemonSet("arm", podShape(10, 0, { tolerations: [{ operator: "Exists" }], nodeSelector: [inValues(LABEL.arch, "arm64")] }));
    expect(daemonSetRunsOnNode(intolerant, node.labels, node.taints)).toBe(false);
    expect(daemonSetRunsOnNode(arm, node.labels, node.taints)).toBe(false);
  });

  it("sums the DaemonSets' requests, one pod each", () => {
    expect(daemonRequests([daemonSet("a", podShape(100, 64)), daemonSet("b", podShape(50, 32))])).toEqual({
      cpu: 150,
      memory: 96 * MIB,
      pods: 2,
      extended: {},
    });
  });
});
