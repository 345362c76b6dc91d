import { barePod, minutesAfterBase, pdb, statefulSetPods } from "../fixtures/eks-cluster/cluster-objects";
import { addOns, blockersOf, poolNode, poolObjects, savingsOf, settled, smallPool, webPods } from "./cluster-states";

// Karpenter v1.14.1's disruption rules on the smallest states that show each, as a running cluster returns them
// (NodeClaims, DaemonSet pods, statuses). The base: two m6i.large of a pool that may only launch m6i.large, each with
// one 500m web pod. Multi-node consolidation cannot replace both by one m6i.large (the same type as a candidate is a
// delete in disguise, filterOutSameInstanceType), so single-node consolidation deletes the first node by name, a,
// whose web pod fits beside the other on b (1,750m free after the add-ons).

const A = "ip-10-0-1-10.ec2.internal";
const B = "ip-10-0-2-20.ec2.internal";
const C = "ip-10-0-3-30.ec2.internal";

type PoolNode = Parameters<typeof poolObjects>[1][number];

const base = (a: PoolNode = poolNode(A, "us-east-1a"), b: PoolNode = poolNode(B, "us-east-1b"), pool = smallPool()) => [
  ...poolObjects(pool, [a, b]),
  ...addOns([A, B]),
];

/** A budget that allows no disruption of the web pods now, as the disruption controller writes its status. */
const webBudget = (unhealthyPodEvictionPolicy?: "AlwaysAllow" | "IfHealthyBudget") =>
  pdb({
    namespace: "shop",
    name: "web",
    selector: { app: "web" },
    minAvailable: 2,
    unhealthyPodEvictionPolicy,
    status: { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 2 },
  });

const DELETE_A = { nodes: [B], actions: [`single-node delete ${A}`] };
const NOTHING = { nodes: [A, B], actions: [] };

describe("the disruption controller's rules on a cluster as the API server returns it (Karpenter v1.14.1)", () => {
  it("consolidates the base state: a's web pod joins b's", async () => {
    const { json } = await savingsOf([...base(), ...webPods("web", [A, B])]);
    expect(settled(json)).toEqual(DELETE_A);
  });

  it("a PDB allowing no disruption holds both nodes; it does not hold pods that tolerate karpenter.sh/disrupted:NoSchedule (pdb.go isEvictable)", async () => {
    const held = await savingsOf([...base(), ...webPods("web", [A, B]), webBudget()]);
    expect(settled(held.json)).toEqual(NOTHING);
    expect(blockersOf(held.json)).toEqual({
      [A]: "Pdb prevents pod evictions (PodDisruptionBudget=[shop/web])",
      [B]: "Pdb prevents pod evictions (PodDisruptionBudget=[shop/web])",
    });
    // Karpenter never evicts a pod that tolerates the taint it puts on a node it disrupts: the budget is not asked.
    const tolerating = webPods("web", [A, B], { tolerations: [{ key: "karpenter.sh/disrupted", operator: "Exists", effect: "NoSchedule" }] });
    expect(settled((await savingsOf([...base(), ...tolerating, webBudget()])).json)).toEqual(DELETE_A);
  });

  it("a PDB with unhealthyPodEvictionPolicy AlwaysAllow does not hold a pod that is not ready; IfHealthyBudget does (pdb.go isEvictable)", async () => {
    const unready = webPods("web", [A, B], { notReady: true });
    expect(settled((await savingsOf([...base(), ...unready, webBudget("AlwaysAllow")])).json)).toEqual(DELETE_A);
    expect(settled((await savingsOf([...base(), ...unready, webBudget("IfHealthyBudget")])).json)).toEqual(NOTHING);
    // AlwaysAllow lets only unready pods go: ready ones are still held.
    expect(settled((await savingsOf([...base(), ...webPods("web", [A, B]), webBudget("AlwaysAllow")])).json)).toEqual(NOTHING);
  });

  it("do-not-disrupt on a registered node's NodeClaim alone does not hold it (StateNode.Annotations reads the node's); on a DaemonSet pod it does", async () => {
    const annotatedClaim = poolNode(A, "us-east-1a");
    const claim = { ...annotatedClaim.nodeClaim, metadata: { ...annotatedClaim.nodeClaim.metadata, annotations: { "karpenter.sh/do-not-disrupt": "true" } } };
    expect(settled((await savingsOf([...base({ ...annotatedClaim, nodeClaim: claim }), ...webPods("web", [A, B])])).json)).toEqual(DELETE_A);
    // ValidatePodsDisruptable checks every pod of the node: a's aws-node pod holds a, and b goes instead.
    const annotated = [
      ...poolObjects(smallPool(), [poolNode(A, "us-east-1a"), poolNode(B, "us-east-1b")]),
      ...addOns([A, B], { node: A, annotations: { "karpenter.sh/do-not-disrupt": "true" } }),
    ];
    const { json } = await savingsOf([...annotated, ...webPods("web", [A, B])]);
    expect(settled(json)).toEqual({ nodes: [A], actions: [`single-node delete ${B}`] });
    expect(blockersOf(json)[A]).toMatch(/^Pod has "karpenter\.sh\/do-not-disrupt" annotation \(Pod=kube-system\/aws-node-[a-z0-9]{5}\)$/);
  });

  it("a node with a NodePool label and no NodeClaim is not Karpenter's (ValidateNodeDisruptable); its pods' node may still take others", async () => {
    const orphan = poolNode(B, "us-east-1b");
    const { json } = await savingsOf([...base(undefined, { node: orphan.node, nodeClaim: undefined }), ...webPods("web", [A, B])]);
    expect(settled(json)).toEqual(DELETE_A);
    expect(json?.converged.blockers).toEqual([
      { node: B, event: null, reason: "not managed by Karpenter: no NodePool owns it (a managed node group's node, or one joined by hand)" },
    ]);
  });

  it("a NodeClaim being deleted, or whose instance is terminating, makes its node deleting (StateNode.Deleted)", async () => {
    // a is going: its web pod is rescheduled, and b cannot take it and go too (a new m6i.large is no cheaper).
    const { json } = await savingsOf([...base(poolNode(A, "us-east-1a", { deleting: true })), ...webPods("web", [A, B])]);
    expect(settled(json)).toEqual(NOTHING);
    expect(blockersOf(json)[A]).toBe("Node is deleting or marked for deletion");
    // The instance is terminating: the same, and a is no longer counted in its pool's budget.
    const terminating = poolNode(A, "us-east-1a");
    const status = terminating.nodeClaim.status ?? {};
    const conditions = [
      ...(status.conditions ?? []),
      { type: "InstanceTerminating", status: "True", reason: "InstanceTerminating", message: "", lastTransitionTime: minutesAfterBase(-1) },
    ];
    const claim = { ...terminating.nodeClaim, status: { ...status, conditions } };
    const instance = await savingsOf([...base({ ...terminating, nodeClaim: claim }), ...webPods("web", [A, B])]);
    expect(blockersOf(instance.json)[A]).toBe("Node is deleting or marked for deletion");
  });

  it("a moved pod may not land on a node still initializing (UninitializedNodeError): no command", async () => {
    // b launched and registered but is not ready: a's pod would only fit there (a new m6i.large is no cheaper).
    const { json } = await savingsOf([...base(undefined, poolNode(B, "us-east-1b", { ready: false })), ...webPods("web", [A])]);
    expect(settled(json)).toEqual(NOTHING);
    expect(blockersOf(json)).toEqual({
      [A]: expect.stringMatching(
        /^Not all pods would schedule, shop\/web-[a-z0-9]+-[a-z0-9]{5} => would schedule against uninitialized node\/ip-10-0-2-20\.ec2\.internal$/,
      ),
      [B]: "Node isn't initialized",
    });
  });

  it("a node that is not Ready uses up its pool's budget (BuildDisruptionBudgetMapping)", async () => {
    // One node at a time may go; a is NotReady (its kubelet stopped posting), so that one is taken.
    const pool = smallPool({ budgets: [{ nodes: "1" }] });
    const { json } = await savingsOf([...base(poolNode(A, "us-east-1a"), poolNode(B, "us-east-1b"), pool), ...webPods("web", [A, B])]);
    expect(settled(json)).toEqual(DELETE_A);
    const notReady = await savingsOf([
      ...base(poolNode(A, "us-east-1a", { ready: false, initialized: true }), poolNode(B, "us-east-1b"), pool),
      ...webPods("web", [A, B]),
    ]);
    expect(settled(notReady.json)).toEqual(NOTHING);
    expect(blockersOf(notReady.json)[B]).toBe("No allowed disruptions for disruption reason Underutilized due to blocking budget");
  });

  it("a pool's size for its budget counts its managed, initialized nodes only", async () => {
    // a and b are empty; c is still initializing. 50% of the two counted nodes is one: emptiness deletes one node a
    // pass (then 50% of one rounds up to one). Were c counted, 50% of three would let both go at once.
    const pool = smallPool({ budgets: [{ nodes: "50%" }] });
    const c = poolNode(C, "us-east-1c", { ready: false });
    const items = [...poolObjects(pool, [poolNode(A, "us-east-1a"), poolNode(B, "us-east-1b"), c]), ...addOns([A, B, C])];
    const { json } = await savingsOf(items);
    expect(settled(json)).toEqual({ nodes: [C], actions: [`emptiness delete ${A}`, `emptiness delete ${B}`] });
  });

  it("pods being deleted are not live (IsActive): a node holding only such pods is empty; a StatefulSet's are rescheduled", async () => {
    const evicted = webPods("web", [A, B], { deletions: { 0: { requestedAt: minutesAfterBase(-1), disruptionReason: "EvictionByEvictionAPI" } } });
    const { json } = await savingsOf([...base(), ...evicted]);
    expect(settled(json)).toEqual({ nodes: [B], actions: [`emptiness delete ${A}`] });
    // A StatefulSet's pod being deleted is rescheduled (IsReschedulable): a is not empty; its pod joins b's, a goes.
    const db = statefulSetPods({
      namespace: "shop",
      name: "db",
      serviceName: "db",
      labels: { app: "db" },
      nodes: [A],
      deletion: { requestedAt: minutesAfterBase(-1), disruptionReason: "EvictionByEvictionAPI" },
      containers: [{ name: "db", image: "postgres:17.2", requests: { cpu: "500m", memory: "512Mi" } }],
    });
    const stateful = await savingsOf([...base(), ...db, ...webPods("web", [B])]);
    expect(settled(stateful.json)).toEqual(DELETE_A);
  });

  it("moves a running pod pinned to its node by name, as Karpenter's scheduler reads only matchExpressions, and warns once for its workload", async () => {
    const pinned = barePod({
      namespace: "shop",
      name: "pinned",
      node: A,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: [A] }] }] },
        },
      },
      containers: [{ name: "main", image: "busybox:1.37", requests: { cpu: "100m", memory: "64Mi" } }],
    });
    // a holds the pinned pod, b a web pod: a goes first (equal savings, by name), and the pinned pod moves to b.
    const { json } = await savingsOf([...base(), ...webPods("web", [B]), pinned]);
    expect(settled(json)).toEqual(DELETE_A);
    expect(json?.warnings).toContain(
      "shop/Pod/pinned: pinned to its node by name (a node selector term with matchFields): Karpenter's scheduler reads only matchExpressions (scheduling.NewPodRequirements), so consolidation may move it, though it could not run elsewhere",
    );
  });

  it("reports a new cluster that runs no pod yet", async () => {
    const { code, json } = await savingsOf(poolObjects(smallPool(), [poolNode(A, "us-east-1a")]));
    expect(code).toBe(0);
    expect(json?.now.nodeCount).toBe(1);
    expect(settled(json)).toEqual({ nodes: [], actions: [`emptiness delete ${A}`] });
  });
});
