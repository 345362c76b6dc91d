import { deploymentPods } from "../fixtures/eks-cluster/cluster-objects";
import { addOns, poolNode, poolObjects, savingsOf, settled, smallPool, webPods } from "./cluster-states";

// Pending pods in consolidation, as Karpenter v1.14.1's SimulateScheduling has them (disruption/helpers.go): the pods
// kube-scheduler marked unschedulable are scheduled in every simulation beside the pods consolidation moves. A pod
// that finds no node does not block a command (Results.AllNonPendingPodsScheduled); a NodeClaim it needs is one the
// command needs. On the small pool (m6i.large only, $0.096/hour, 1,750m free for pods): two nodes of one 500m web pod
// each, which consolidation merges when nothing is pending (single-node deletes a, the first by name).

const A = "ip-10-0-1-10.ec2.internal";
const B = "ip-10-0-2-20.ec2.internal";
const nodes = () => [...poolObjects(smallPool(), [poolNode(A, "us-east-1a"), poolNode(B, "us-east-1b")]), ...addOns([A, B])];

/** kube-scheduler's verdict on a pod no node fits (what marks it Unschedulable, so that Karpenter provisions for it). */
const NO_FIT = "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";

/** A pending pod of 1,500m: it fits neither node beside its web pod (1,250m left), so it needs a node of its own. */
const bigJob = () =>
  deploymentPods({
    namespace: "shop",
    name: "reports",
    labels: { app: "reports" },
    nodes: [undefined],
    unschedulableMessage: NO_FIT,
    containers: [{ name: "reports", image: "reports:1", requests: { cpu: "1500m", memory: "1Gi" } }],
  });

describe("pending pods in consolidation", () => {
  it("a pending pod Karpenter could place holds consolidation still, and the report says so with what its node would cost", async () => {
    // Deleting a or b: its web pod fits on the other, but the pending pod needs a new m6i.large, so the delete is a
    // replace by a node no cheaper than the one it removes ($0.096): no command. Both at once need two NodeClaims.
    const { json } = await savingsOf([...nodes(), ...webPods("web", [A, B]), ...bigJob()]);
    expect(settled(json)).toEqual({ nodes: [A, B], actions: [] });
    expect(json?.converged.blockers.map((b) => b.reason)).toEqual(["Can't replace with a cheaper node", "Can't replace with a cheaper node"]);
    expect(json?.pending).toEqual([
      { workload: "shop/Deployment/reports", count: 1, outcome: "launches", nodePool: "default", instanceType: "m6i.large", hourlyUsd: 0.096 },
    ]);
    expect(json?.warnings).toContain(
      "1 pending pod that Karpenter could place (default, m6i.large at $0.0960/hour): while they wait, consolidation moves nothing",
    );
  });

  it("a pending pod no NodePool can take is named as unschedulable and does not hold consolidation back", async () => {
    const nowhere = deploymentPods({
      namespace: "shop",
      name: "gpu-job",
      labels: { app: "gpu-job" },
      nodes: [undefined],
      nodeSelector: { "node.kubernetes.io/instance-type": "p5.48xlarge" },
      unschedulableMessage:
        "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      containers: [{ name: "train", image: "train:1", requests: { cpu: "1", memory: "1Gi" } }],
    });
    const { json } = await savingsOf([...nodes(), ...webPods("web", [A, B]), ...nowhere]);
    expect(settled(json)).toEqual({ nodes: [B], actions: [`single-node delete ${A}`] });
    expect(json?.pending).toEqual([
      {
        workload: "shop/Deployment/gpu-job",
        count: 1,
        outcome: "unschedulable",
        reason: "NodePool default: requires node.kubernetes.io/instance-type In [p5.48xlarge], which none of the pool's instance types has",
      },
    ]);
    expect(json?.warnings.some((w) => w.includes("while they wait"))).toBe(false);
  });

  it("a pod kube-scheduler has not marked unschedulable, or one nominated for a node, is not Karpenter's to provision (IsProvisionable)", async () => {
    const nominated = deploymentPods({
      namespace: "shop",
      name: "checkout",
      labels: { app: "checkout" },
      nodes: [undefined],
      nominatedNodeNames: [B],
      unschedulableMessage: NO_FIT,
      containers: [{ name: "checkout", image: "checkout:1", requests: { cpu: "1500m", memory: "1Gi" } }],
    });
    const { json } = await savingsOf([...nodes(), ...webPods("web", [A, B]), ...nominated]);
    // Not in the simulation: consolidation goes on as if it were not there.
    expect(settled(json)).toEqual({ nodes: [B], actions: [`single-node delete ${A}`] });
    expect(json?.pending).toEqual([
      {
        workload: "shop/Deployment/checkout",
        count: 1,
        outcome: "ignored",
        reason: `kube-scheduler nominated node ${B} for it (preemption): Karpenter waits (IsPreempting)`,
      },
    ]);
  });
});
