import {
  bySavingsRatio,
  type Candidate,
  consolidationBlocker,
  isCandidate,
  NOT_MANAGED,
  newCandidate,
  reschedulablePods,
} from "../../../src/planner/consolidation/candidates";
import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import type { DaemonSetShape, PodDisruption, PodDisruptionBudget, PodGroup, RunningPod } from "../../../src/planner/workload/workload-model";
import { daemonSet, podGroup, podShape, pool } from "../simulation/fixtures";
import { clusterNode, on, testPool } from "./fixtures";

// Which nodes the disruption controller may consider (newCandidate), which pods it moves (reschedulablePods), why
// consolidation leaves a candidate alone (consolidationBlocker) and the order it tries them in (bySavingsRatio).
// Each test follows one of kubernetes-sigs/karpenter v1.14.1: pkg/controllers/disruption/suite_test.go
// ("Candidate Filtering"), consolidation_test.go ("Events"), emptiness_test.go, balanced_scoring_test.go
// (Candidate.SavingsRatio, sumCandidatePrices, ShouldDisrupt, sortCandidates), pkg/utils/pdb/suite_test.go
// (CanEvictPods) and pkg/controllers/node/termination/suite_test.go. Nodes are m.small ($0.10) of the pool
// "default" unless a test says otherwise; a pod's eviction cost is 1, a node's base cost 1.

const pl = testPool(pool("default"));
const web = podGroup("web", 2, podShape(500, 512));
const ORDINARY: PodDisruption = { doNotDisrupt: false, deletionCost: 0, priority: 0 };
const withDisruption = (group: PodGroup, extra: Partial<PodDisruption>): PodGroup => ({ ...group, disruption: { ...ORDINARY, ...extra } });
const nodeWith = (groups: readonly PodGroup[] = [], extra: Partial<ClusterNode> = {}): ClusterNode => ({
  ...clusterNode("n1", "m.small", pl, { pods: groups.map((g) => on(g, g.replicas)) }),
  ...extra,
});
const blocked = (message: string) => ({ event: "DisruptionBlocked", message });

/** A PodDisruptionBudget of namespace default selecting app=web, unless `extra` says otherwise. */
const budget = (name: string, disruptionsAllowed: number, extra: Partial<PodDisruptionBudget> = {}): PodDisruptionBudget => ({
  namespace: "default",
  name,
  selector: { matchLabels: { app: "web" }, matchExpressions: [] },
  disruptionsAllowed,
  ...extra,
});

/** A DaemonSet pod (or, with mirror: true, a static pod's mirror) running on the node, in kube-system, labelled app=logs. */
const runningPod = (running: Partial<RunningPod>): DaemonSetShape => ({
  ...daemonSet("logs", podShape(100, 128)),
  running: { name: "logs-x7k2p", namespace: "kube-system", labels: { app: "logs" }, disruption: ORDINARY, mirror: false, ...running },
});
const logsBudget = budget("logs-pdb", 0, { namespace: "kube-system", selector: { matchLabels: { app: "logs" }, matchExpressions: [] } });
const withDaemonSetPods = (daemonSetPods: readonly DaemonSetShape[]) => {
  const node = nodeWith([web]);
  return { ...node, state: { ...node.state, daemonSetPods } };
};

const withoutLabel = (node: ClusterNode, key: string): ClusterNode => ({
  ...node,
  state: { ...node.state, labels: Object.fromEntries(Object.entries(node.state.labels).filter(([k]) => k !== key)) },
});

describe("newCandidate: the node's own state (suite_test.go Candidate Filtering)", () => {
  it("is a candidate with its pods, price and disruption cost, 1 per node + 1 per pod (Candidate.SavingsRatio): 2 web pods cost 3, not empty", () => {
    const node = nodeWith([web]);
    expect(newCandidate(node, [])).toEqual({ node, pool: pl.disruption, pods: [on(web, 2)], price: 0.1, disruptionCost: 3, empty: false });
  });

  it("is an empty candidate with no pods, cost 1 (SavingsRatio: per-node base only), priced $0 when its price is unknown (sumCandidatePrices: should return 0 for nil instanceType)", () => {
    const node = nodeWith([], { hourlyUsd: undefined });
    expect(newCandidate(node, [])).toEqual({ node, pool: pl.disruption, pods: [], price: 0, disruptionCost: 1, empty: true });
  });

  it("moves no DaemonSet pod and counts none in its cost (no upstream test: pod.IsReschedulable excludes them)", () => {
    const result = newCandidate(withDaemonSetPods([runningPod({})]), []);
    expect(result).toMatchObject({ pods: [on(web, 2)], disruptionCost: 3, empty: false });
  });

  it("should not consider candidates that has just a Node representation: not managed, and no event", () => {
    const result = newCandidate(clusterNode("ng-1", "m.small", undefined), []);
    expect(result).toBe(NOT_MANAGED);
    expect(result).toEqual({
      event: undefined,
      message: "not managed by Karpenter: no NodePool owns it (a managed node group's node, or one joined by hand)",
    });
  });

  it("should not consider candidates that aren't yet initialized", () => {
    const node = clusterNode("n1", "m.small", pl, { initialized: false });
    expect(newCandidate(node, [])).toEqual(blocked("Node isn't initialized"));
  });

  it("should not consider candidates that are deleting (or MarkedForDeletion)", () => {
    expect(newCandidate(nodeWith([web], { deleting: true }), [])).toEqual(blocked("Node is deleting or marked for deletion"));
  });

  it("should not consider candidates that have do-not-disrupt on nodes", () => {
    expect(newCandidate(nodeWith([web], { doNotDisrupt: true }), [])).toEqual(
      blocked('Disruption is blocked through the "karpenter.sh/do-not-disrupt" annotation'),
    );
  });

  it("should not consider candidates that are not owned by a NodePool (no karpenter.sh/nodepool label)", () => {
    const node = withoutLabel(nodeWith([web]), "karpenter.sh/nodepool");
    expect(newCandidate(node, [])).toEqual(blocked("Node doesn't have required label (label=karpenter.sh/nodepool)"));
  });

  it("should not consider candidates that are have a non-existent NodePool", () => {
    expect(newCandidate(nodeWith([web], { pool: undefined }), [])).toEqual(blocked("NodePool not found (NodePool=default)"));
  });
});

describe("newCandidate: the node's pods (suite_test.go Candidate Filtering, pkg/utils/pdb)", () => {
  it("should not consider candidates that have do-not-disrupt pods scheduled, naming the pod, or its workload when no pod is named", () => {
    const named = withDisruption(web, { doNotDisrupt: true, examplePod: "web-7d9f-x2k4" });
    expect(newCandidate(nodeWith([named]), [])).toEqual(blocked('Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=default/web-7d9f-x2k4)'));
    const unnamed = withDisruption(web, { doNotDisrupt: true });
    expect(newCandidate(nodeWith([unnamed]), [])).toEqual(blocked('Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=default/web)'));
  });

  it("should consider candidates that have do-not-disrupt terminating pods: a pod going anyway holds nothing", () => {
    const going = withDisruption(web, { doNotDisrupt: true, terminating: true });
    expect(isCandidate(newCandidate(nodeWith([going]), []))).toBe(true);
  });

  it("should not consider candidates that have do-not-disrupt daemonset pods scheduled", () => {
    const node = withDaemonSetPods([runningPod({ disruption: { ...ORDINARY, doNotDisrupt: true } })]);
    expect(newCandidate(node, [])).toEqual(blocked('Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=kube-system/logs-x7k2p)'));
  });

  it("should not consider candidates that have do-not-disrupt mirror pods scheduled", () => {
    const node = withDaemonSetPods([runningPod({ name: "etcd-n1", mirror: true, disruption: { ...ORDINARY, doNotDisrupt: true } })]);
    expect(newCandidate(node, [])).toEqual(blocked('Pod has "karpenter.sh/do-not-disrupt" annotation (Pod=kube-system/etcd-n1)'));
  });

  it("should not consider candidates that have fully blocking PDBs: a budget allowing 0 disruptions holds the node, 1 does not", () => {
    expect(newCandidate(nodeWith([web]), [budget("web-pdb", 0)])).toEqual({
      ...blocked("Pdb prevents pod evictions (PodDisruptionBudget=[default/web-pdb])"),
      pdbs: ["default/web-pdb"],
    });
    expect(isCandidate(newCandidate(nodeWith([web]), [budget("web-pdb", 1)]))).toBe(true);
  });

  it("can evict pods when no PDBs match: a budget of another namespace, or of other labels, holds nothing", () => {
    const elsewhere = budget("web-pdb", 0, { namespace: "other" });
    const otherLabels = budget("api-pdb", 0, { selector: { matchLabels: { app: "api" }, matchExpressions: [] } });
    expect(isCandidate(newCandidate(nodeWith([web]), [elsewhere, otherLabels]))).toBe(true);
  });

  it("should not consider candidates that have multiple PDBs on the same pod, whatever they allow", () => {
    expect(newCandidate(nodeWith([web]), [budget("one", 5), budget("two", 5)])).toEqual({
      ...blocked("Eviction does not support multiple PDBs (PodDisruptionBudget(s)=[default/one default/two])"),
      pdbs: ["default/one", "default/two"],
    });
  });

  it("should not consider candidates that have fully blocking PDBs on daemonset pods; a DaemonSet with no running pod holds nothing", () => {
    expect(newCandidate(withDaemonSetPods([runningPod({})]), [logsBudget])).toEqual({
      ...blocked("Pdb prevents pod evictions (PodDisruptionBudget=[kube-system/logs-pdb])"),
      pdbs: ["kube-system/logs-pdb"],
    });
    expect(isCandidate(newCandidate(withDaemonSetPods([daemonSet("logs", podShape(100, 128))]), [logsBudget]))).toBe(true);
  });

  it("should consider candidates that have fully blocking PDBs on mirror pods (never evicted)", () => {
    expect(isCandidate(newCandidate(withDaemonSetPods([runningPod({ mirror: true })]), [logsBudget]))).toBe(true);
  });

  it("holds nothing with a budget on a pod that tolerates karpenter.sh/disrupted:NoSchedule (it is not evicted), by key or by a bare Exists", () => {
    // Karpenter does not evict a pod that tolerates the disrupted taint (pod.IsEvictable; termination suite_test.go
    // "should not evict pods that tolerate karpenter disruption taint ..."), so no budget of it matters.
    const byKey = { ...web, pod: podShape(500, 512, { tolerations: [{ key: "karpenter.sh/disrupted", operator: "Exists", effect: "NoSchedule" }] }) };
    const everything = { ...web, pod: podShape(500, 512, { tolerations: [{ operator: "Exists" }] }) };
    const otherTaint = { ...web, pod: podShape(500, 512, { tolerations: [{ key: "dedicated", operator: "Exists", effect: "NoSchedule" }] }) };
    expect(isCandidate(newCandidate(nodeWith([byKey]), [budget("web-pdb", 0)]))).toBe(true);
    expect(isCandidate(newCandidate(nodeWith([everything]), [budget("web-pdb", 0)]))).toBe(true);
    expect(newCandidate(nodeWith([otherTaint]), [budget("web-pdb", 0)])).toMatchObject({ pdbs: ["default/web-pdb"] });
  });

  it("can evict unhealthy pods when UnhealthyPodEvictionPolicy is set to always allow, and only those", () => {
    const unready = withDisruption(web, { unready: true });
    const alwaysAllow = budget("web-pdb", 0, { unhealthyPodEvictionPolicy: "AlwaysAllow" });
    const ifHealthy = budget("web-pdb", 0, { unhealthyPodEvictionPolicy: "IfHealthyBudget" });
    expect(isCandidate(newCandidate(nodeWith([unready]), [alwaysAllow]))).toBe(true);
    // can't evict unhealthy pods when UnhealthyPodEvictionPolicy is not AlwaysAllow; a ready pod is held either way.
    expect(newCandidate(nodeWith([unready]), [ifHealthy])).toMatchObject({ pdbs: ["default/web-pdb"] });
    expect(newCandidate(nodeWith([web]), [alwaysAllow])).toMatchObject({ pdbs: ["default/web-pdb"] });
  });

  it("should consider candidates that have fully blocking PDBs on terminating pods", () => {
    const terminating = withDisruption(web, { terminating: true });
    expect(isCandidate(newCandidate(nodeWith([terminating]), [budget("web-pdb", 0)]))).toBe(true);
  });
});

describe("reschedulablePods (emptiness_test.go)", () => {
  const api = podGroup("api", 1, podShape(500, 512));
  const leaving = withDisruption(podGroup("old", 3, podShape(500, 512)), { terminating: true });
  const db = { ...withDisruption(podGroup("db", 1, podShape(500, 512)), { terminating: true }), kind: "StatefulSet" };

  it("drops terminating pods but a StatefulSet's, whose replacement waits for them", () => {
    expect(reschedulablePods(nodeWith([api, leaving, db]))).toEqual([on(api, 1), on(db, 1)]);
  });

  it("will consider a node with terminating Deployment pods as empty (cost 1)", () => {
    expect(newCandidate(nodeWith([leaving]), [])).toMatchObject({ pods: [], disruptionCost: 1, empty: true });
  });

  it("will not consider a node with a terminating StatefulSet pod as empty (cost 1 + 1 = 2)", () => {
    expect(newCandidate(nodeWith([db]), [])).toMatchObject({ pods: [on(db, 1)], disruptionCost: 2, empty: false });
  });
});

/** A candidate literal for consolidationBlocker: two web pods (cost 3), or none (cost 1, empty). */
const candidateOf = (node: ClusterNode, empty = false): Candidate => ({
  node,
  pool: node.pool!,
  pods: empty ? [] : [on(web, 2)],
  price: 0.1,
  disruptionCost: empty ? 1 : 3,
  empty,
});
const unconsolidatable = (message: string) => ({ event: "Unconsolidatable", message });

describe("consolidationBlocker (consolidation_test.go Events, balanced_scoring_test.go ShouldDisrupt)", () => {
  it("should fire an event when a candidate does not have a resolvable instance type", () => {
    const odd = candidateOf({ ...nodeWith([web]), instanceType: "z9.mega" });
    expect(consolidationBlocker(odd, false)).toEqual(unconsolidatable('Instance Type "z9.mega" not found'));
  });

  it("should fire an event when a candidate does not have the capacity type label", () => {
    const node = withoutLabel(nodeWith([web]), "karpenter.sh/capacity-type");
    expect(consolidationBlocker(candidateOf(node), true)).toEqual(unconsolidatable('Node does not have label "karpenter.sh/capacity-type"'));
  });

  it("should fire an event when a candidate does not have the zone label", () => {
    const node = withoutLabel(nodeWith([web]), "topology.kubernetes.io/zone");
    expect(consolidationBlocker(candidateOf(node), true)).toEqual(unconsolidatable('Node does not have label "topology.kubernetes.io/zone"'));
  });

  it("should fire an event for ConsolidationDisabled when the NodePool has consolidateAfter set to 'Never', empty or not", () => {
    const never = testPool(pl.model, { never: true });
    const node = clusterNode("n1", "m.small", never, { pods: [on(web, 2)] });
    expect(consolidationBlocker(candidateOf(node), true)).toEqual(unconsolidatable('NodePool "default" has consolidation disabled'));
    expect(consolidationBlocker(candidateOf(node, true), true)).toEqual(unconsolidatable('NodePool "default" has consolidation disabled'));
  });

  it("should fire an event for ConsolidationDisabled when the NodePool has consolidation set to WhenEmpty (a node with pods)", () => {
    const whenEmpty = testPool(pl.model, { policy: "WhenEmpty" });
    const node = clusterNode("n1", "m.small", whenEmpty, { pods: [on(web, 2)] });
    expect(consolidationBlocker(candidateOf(node), true)).toEqual(
      unconsolidatable('NodePool "default" has consolidation policy WhenEmpty, but node is not empty'),
    );
  });

  it("should not fire an event for ConsolidationDisabled when the NodePool has consolidation set to WhenEmptyOrUnderutilized: an empty node is left to emptiness, in a WhenEmpty pool too", () => {
    const leftToEmptiness = { event: undefined, message: "empty: emptiness deletes it, within its NodePool's budget for Empty" };
    expect(consolidationBlocker(candidateOf(nodeWith(), true), true)).toEqual(leftToEmptiness);
    const whenEmpty = testPool(pl.model, { policy: "WhenEmpty" });
    expect(consolidationBlocker(candidateOf(clusterNode("n1", "m.small", whenEmpty), true), true)).toEqual(leftToEmptiness);
  });

  it("should accept WhenEmptyOrUnderutilized and Balanced candidates with pods", () => {
    expect(consolidationBlocker(candidateOf(nodeWith([web])), true)).toBeUndefined();
    const balanced = testPool(pl.model, { policy: "Balanced" });
    expect(consolidationBlocker(candidateOf(clusterNode("n1", "m.small", balanced, { pods: [on(web, 2)] })), true)).toBeUndefined();
  });
});

describe("bySavingsRatio (balanced_scoring_test.go sortCandidates)", () => {
  const ranked = (candidates: readonly Candidate[]) => [...candidates].sort(bySavingsRatio).map((c) => c.node.state.name);
  const scored = (name: string, price: number, disruptionCost: number): Candidate => ({
    ...candidateOf(clusterNode(name, "m.small", pl)),
    price,
    disruptionCost,
  });

  it("should sort non-Balanced candidates by savings ratio descending", () => {
    // a: 0.20 / 4 = 0.05; b: 0.10 / 1 = 0.10; c: 0.16 / 2 = 0.08.
    expect(ranked([scored("a", 0.2, 4), scored("b", 0.1, 1), scored("c", 0.16, 2)])).toEqual(["b", "c", "a"]);
  });

  it("breaks a tie of ratios by name, whatever the order given", () => {
    // x: 0.20 / 2 = 0.10; w: 0.10 / 1 = 0.10.
    expect(ranked([scored("x", 0.2, 2), scored("w", 0.1, 1)])).toEqual(["w", "x"]);
    expect(ranked([scored("w", 0.1, 1), scored("x", 0.2, 2)])).toEqual(["w", "x"]);
  });
});
