import type { INode } from "kubernetes-models/v1/Node";
import { deploymentPods, ec2NodeClass, karpenterNode, minutesAfterBase, nodePool } from "../fixtures/eks-cluster/cluster-objects";
import { addOns, blockersOf, savingsOf, settled } from "./cluster-states";

// A replacement node's ephemeral storage is what its EC2NodeClass's root volume gives (types.go ephemeralStorage),
// read from the same node class model the plan reads: the savings report packs ephemeral storage as a plan does.
// The state: one m6i.xlarge launched with a 100Gi root volume, running one pod of 1 CPU, 1Gi and 30Gi of
// ephemeral storage, in a pool that may launch m6i.large ($0.096/hour) or m6i.xlarge ($0.192/hour). Single-node
// consolidation would replace it by an m6i.large, if an m6i.large of the node class can hold 30Gi: with a 100Gi root
// volume it keeps 89Gi for pods (100Gi less 1Gi kube-reserved and the 10% eviction threshold); with Karpenter's
// default 20Gi, 17Gi.

const A = "ip-10-0-1-10.ec2.internal";
const GIB = 2 ** 30;

/** The node as a kubelet on a 100Gi root volume reports it: capacity in Ki, allocatable in bytes. */
function withRootVolume100Gi(node: INode): INode {
  const status = node.status ?? {};
  return {
    ...node,
    status: {
      ...status,
      capacity: { ...status.capacity, "ephemeral-storage": `${(100 * GIB) / 1024}Ki` },
      allocatable: { ...status.allocatable, "ephemeral-storage": String(89 * GIB) },
    },
  };
}

function stateWith(nodeClass: ReturnType<typeof ec2NodeClass>) {
  const pool = nodePool({
    name: "default",
    requirements: [
      { key: "node.kubernetes.io/instance-type", operator: "In", values: ["m6i.large", "m6i.xlarge"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    ],
    disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "100%" }] },
  });
  const a = karpenterNode({ name: A, instanceType: "m6i.xlarge", zone: "us-east-1a", nodePool: "default", createdAt: minutesAfterBase(-2 * 24 * 60) });
  const pods = deploymentPods({
    namespace: "build",
    name: "cache",
    labels: { app: "cache" },
    nodes: [A],
    containers: [{ name: "cache", image: "public.ecr.aws/docker/library/redis:7.4", requests: { cpu: "1", memory: "1Gi", "ephemeral-storage": "30Gi" } }],
  });
  return [pool, nodeClass, withRootVolume100Gi(a.node), a.nodeClaim, ...addOns([A]), ...pods];
}

const ROOT_100GI = [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "100Gi", volumeType: "gp3" as const, encrypted: true } }];

describe("the savings report packs ephemeral storage by the node class's root volume", () => {
  it("a 100Gi root volume: the m6i.xlarge is replaced by an m6i.large that holds the pod's 30Gi", async () => {
    const { json } = await savingsOf(stateWith(ec2NodeClass({ blockDeviceMappings: ROOT_100GI })));
    expect(settled(json).actions).toEqual([`single-node replace ${A}`]);
    expect(json?.converged.nodes.map((n) => n.instanceType)).toEqual(["m6i.large"]);
  });

  it("Karpenter's default 20Gi: no m6i.large of the node class holds 30Gi, so the node stays and the report says why", async () => {
    const { json } = await savingsOf(stateWith(ec2NodeClass()));
    expect(settled(json)).toEqual({ nodes: [A], actions: [] });
    expect(blockersOf(json)[A]).toMatch(
      /^Not all pods would schedule, build\/cache-\w+-\w+ => NodePool default: the pod requests 30 GiB of ephemeral storage; its nodes offer 17 GiB \(what kubelet leaves of node class default's root volume, less the DaemonSets' share\)$/,
    );
  });
});
