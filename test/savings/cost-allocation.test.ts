import type { ClusterNode } from "../../src/planner/consolidation/cluster-node";
import type { DaemonSetShape, PodGroup } from "../../src/planner/workload/workload-model";
import { type Allocation, allocateCost } from "../../src/savings/cost-allocation";
import type { FargatePodCost } from "../../src/savings/fargate-cost";
import { clusterNode, on } from "../planner/consolidation/fixtures";
import { daemonSet, podGroup, podShape } from "../planner/simulation/fixtures";

// Unit tests of allocateCost (src/savings/cost-allocation.ts): how each EC2 node's price is shared among the pods on
// it by what they request (CPU and memory parts first split in OpenCost's ratio), the rest of it idle, and how each
// Fargate pod's price is its own. Nodes are the test catalogue's (../planner/simulation/fixtures.ts):
//   m.small  2000m / 4096 MiB allocatable, $0.10/hour;   m.large  4000m / 8192 MiB, $0.20/hour.
// A pod that requests the same fraction of a node's CPU and of its memory pays that fraction of the node's price,
// whatever the CPU/memory split: so most expectations here are plain fractions of $0.10.

/** One pod (or `count` alike) of a Deployment named `name` in `namespace`, requesting `cpu` millicores and `memoryMiB`. */
const deployment = (namespace: string, name: string, cpu: number, memoryMiB: number): PodGroup => ({
  ...podGroup(name, 1, podShape(cpu, memoryMiB)),
  id: `${namespace}/${name}`,
  namespace,
});

/** An m.small ($0.10) running these pods. */
const small = (name: string, ...pods: { group: PodGroup; count: number }[]): ClusterNode => clusterNode(name, "m.small", undefined, { pods });

/** The allocation with every dollar figure rounded to 6 decimals, as the report prints them (floating point aside). */
const rounded = (a: Allocation) => ({
  byNamespace: a.byNamespace.map((n) => ({ ...n, hourlyUsd: Number(n.hourlyUsd.toFixed(6)) })),
  byWorkload: a.byWorkload.map((w) => ({ ...w, hourlyUsd: Number(w.hourlyUsd.toFixed(6)) })),
  idleHourlyUsd: Number(a.idleHourlyUsd.toFixed(6)),
});

describe("allocateCost", () => {
  it("shares a node's price by the fraction of it each pod requests, the rest idle; one name in two namespaces is two workloads", () => {
    // m.small $0.10: shop/web requests 1000m + 2048Mi (half) = $0.05; batch/web 500m + 1024Mi (a quarter) = $0.025;
    // idle 0.10 - 0.05 - 0.025 = $0.025.
    const nodes = [small("n1", on(deployment("shop", "web", 1000, 2048)), on(deployment("batch", "web", 500, 1024)))];
    expect(rounded(allocateCost(nodes, []))).toEqual({
      byNamespace: [
        { namespace: "shop", hourlyUsd: 0.05 },
        { namespace: "batch", hourlyUsd: 0.025 },
      ],
      byWorkload: [
        { namespace: "shop", workload: "Deployment/web", hourlyUsd: 0.05 },
        { namespace: "batch", workload: "Deployment/web", hourlyUsd: 0.025 },
      ],
      idleHourlyUsd: 0.025,
    });
  });

  it("charges every pod of a group on the node", () => {
    // 3 pods of 250m + 512Mi, an eighth of an m.small each: 3 x 0.10 / 8 = $0.0375; idle 0.10 - 0.0375 = $0.0625.
    const allocation = rounded(allocateCost([small("n1", on(deployment("shop", "web", 250, 512), 3))], []));
    expect(allocation.byWorkload).toEqual([{ namespace: "shop", workload: "Deployment/web", hourlyUsd: 0.0375 }]);
    expect(allocation.idleHourlyUsd).toBe(0.0625);
  });

  it("splits a node's price into a CPU part and a memory part at $0.031611 per vCPU to $0.004237 per GiB", () => {
    // m.small: CPU weight 2 x 0.031611 = 0.063222, memory weight 4 x 0.004237 = 0.016948, together 0.080170.
    // CPU part 0.10 x 0.063222 / 0.080170 = $0.0788599; memory part 0.10 - 0.0788599 = $0.0211401.
    // batch/compute requests 1000m and no memory: half the CPU part, $0.039430; data/cache 2048Mi and no CPU: half
    // the memory part, $0.010570; idle 0.10 - 0.039430 - 0.010570 = $0.05.
    const nodes = [small("n1", on(deployment("batch", "compute", 1000, 0)), on(deployment("data", "cache", 0, 2048)))];
    expect(rounded(allocateCost(nodes, []))).toEqual({
      byNamespace: [
        { namespace: "batch", hourlyUsd: 0.03943 },
        { namespace: "data", hourlyUsd: 0.01057 },
      ],
      byWorkload: [
        { namespace: "batch", workload: "Deployment/compute", hourlyUsd: 0.03943 },
        { namespace: "data", workload: "Deployment/cache", hourlyUsd: 0.01057 },
      ],
      idleHourlyUsd: 0.05,
    });
  });

  it("leaves the whole price of a node with no pods idle, and sums idle over the nodes", () => {
    // An empty m.small and an empty m.large: 0.10 + 0.20 = $0.30 idle, nobody charged.
    const nodes = [small("n1"), clusterNode("n2", "m.large", undefined)];
    expect(rounded(allocateCost(nodes, []))).toEqual({ byNamespace: [], byWorkload: [], idleHourlyUsd: 0.3 });
  });

  it("leaves out a node without a price: its pods are charged nothing and it adds no idle", () => {
    // The unpriced node's web pod is not listed (not even at $0); only the empty m.small's $0.10 is idle.
    const unpriced: ClusterNode = { ...small("n1", on(deployment("shop", "web", 1000, 2048))), hourlyUsd: undefined };
    expect(rounded(allocateCost([unpriced, small("n2")], []))).toEqual({ byNamespace: [], byWorkload: [], idleHourlyUsd: 0.1 });
  });

  it("charges DaemonSet pods to their DaemonSet's namespace as workload DaemonSet/<name>, summed over nodes", () => {
    // aws-node (kube-system) requests 500m + 1024Mi, a quarter of an m.small: $0.025 on each of two nodes = $0.05.
    // n1 also runs shop/web at 1500m + 3072Mi, three quarters: $0.075, so n1 is full; n2 idles 0.10 - 0.025 = $0.075.
    const awsNode = daemonSet("aws-node", podShape(500, 1024));
    const nodes = [
      clusterNode("n1", "m.small", undefined, { pods: [on(deployment("shop", "web", 1500, 3072))], daemonSetPods: [awsNode] }),
      clusterNode("n2", "m.small", undefined, { daemonSetPods: [awsNode] }),
    ];
    expect(rounded(allocateCost(nodes, []))).toEqual({
      byNamespace: [
        { namespace: "shop", hourlyUsd: 0.075 },
        { namespace: "kube-system", hourlyUsd: 0.05 },
      ],
      byWorkload: [
        { namespace: "shop", workload: "Deployment/web", hourlyUsd: 0.075 },
        { namespace: "kube-system", workload: "DaemonSet/aws-node", hourlyUsd: 0.05 },
      ],
      idleHourlyUsd: 0.075,
    });
  });

  it("charges a static pod's mirror as its own pod, not as a DaemonSet", () => {
    // kube-proxy run by the kubelet from a manifest on n1: 500m + 1024Mi, a quarter of the m.small, $0.025.
    const mirror: DaemonSetShape = {
      ...daemonSet("kube-proxy-n1", podShape(500, 1024)),
      running: { name: "kube-proxy-n1", namespace: "kube-system", labels: {}, disruption: { doNotDisrupt: false, deletionCost: 0, priority: 0 }, mirror: true },
    };
    const nodes = [clusterNode("n1", "m.small", undefined, { daemonSetPods: [mirror] })];
    expect(rounded(allocateCost(nodes, [])).byWorkload).toEqual([{ namespace: "kube-system", workload: "Pod/kube-proxy-n1", hourlyUsd: 0.025 }]);
  });

  it("lists a namespace whose pods request nothing at $0, and leaves the node's price idle", () => {
    // tools/debug requests 0m and 0Mi: a share of 0 of the $0.10 node, which stays idle.
    const debug: PodGroup = { ...deployment("tools", "debug", 0, 0), pod: podShape(0, 0, { hasRequests: false }) };
    expect(rounded(allocateCost([small("n1", on(debug, 2))], []))).toEqual({
      byNamespace: [{ namespace: "tools", hourlyUsd: 0 }],
      byWorkload: [{ namespace: "tools", workload: "Deployment/debug", hourlyUsd: 0 }],
      idleHourlyUsd: 0.1,
    });
  });

  it("shares a node's price in proportion when its pods request more than its allocatable, leaving nothing idle", () => {
    // On an m.small, a requests all of it (2000m + 4096Mi, $0.10) and b half ($0.05): $0.15 asked of a $0.10 node,
    // so each is scaled by 0.10 / 0.15 = 2/3: a $0.066667, b $0.033333, idle $0.
    const nodes = [small("n1", on(deployment("a", "big", 2000, 4096)), on(deployment("b", "half", 1000, 2048)))];
    expect(rounded(allocateCost(nodes, []))).toEqual({
      byNamespace: [
        { namespace: "a", hourlyUsd: 0.066667 },
        { namespace: "b", hourlyUsd: 0.033333 },
      ],
      byWorkload: [
        { namespace: "a", workload: "Deployment/big", hourlyUsd: 0.066667 },
        { namespace: "b", workload: "Deployment/half", hourlyUsd: 0.033333 },
      ],
      idleHourlyUsd: 0,
    });
  });

  it("counts a pod's request at most at the node's allocatable", () => {
    // a requests twice an m.small (4000m + 8192Mi) but counts as all of it, $0.10 (uncapped it would be $0.20);
    // b half, $0.05. $0.15 on a $0.10 node: scaled by 2/3, a $0.066667, b $0.033333 (uncapped: a 0.08, b 0.02).
    const nodes = [small("n1", on(deployment("a", "huge", 4000, 8192)), on(deployment("b", "half", 1000, 2048)))];
    expect(rounded(allocateCost(nodes, [])).byNamespace).toEqual([
      { namespace: "a", hourlyUsd: 0.066667 },
      { namespace: "b", hourlyUsd: 0.033333 },
    ]);
  });

  it("charges each Fargate pod its own price, adding to the same workload on EC2; a pod without a price adds nothing", () => {
    // shop/api: half an m.small ($0.05) plus two Fargate pods at $0.012345 = 0.05 + 0.02469 = $0.07469.
    // big/huge has no Fargate price (too large for any size): not listed. Fargate adds no idle: the node's $0.05 only.
    const fargate = (namespace: string, workload: string, hourlyUsd: number | undefined): FargatePodCost => ({
      namespace,
      workload,
      vcpu: 0.25,
      memoryGb: 0.5,
      hourlyUsd,
      from: "CapacityProvisioned",
    });
    const nodes = [small("n1", on(deployment("shop", "api", 1000, 2048)))];
    const pods = [fargate("shop", "Deployment/api", 0.012345), fargate("shop", "Deployment/api", 0.012345), fargate("big", "Deployment/huge", undefined)];
    expect(rounded(allocateCost(nodes, pods))).toEqual({
      byNamespace: [{ namespace: "shop", hourlyUsd: 0.07469 }],
      byWorkload: [{ namespace: "shop", workload: "Deployment/api", hourlyUsd: 0.07469 }],
      idleHourlyUsd: 0.05,
    });
  });

  it("lists namespaces and workloads by cost, largest first, ties by namespace and by workload name", () => {
    // m.small: b/web half ($0.05), a/job and c/api a quarter each ($0.025, a tie): namespaces b, then a before c;
    // workloads b's web, then Deployment/api (c) before Deployment/job (a): ties go by the workload's own name.
    const nodes = [small("n1", on(deployment("a", "job", 500, 1024)), on(deployment("c", "api", 500, 1024)), on(deployment("b", "web", 1000, 2048)))];
    const allocation = rounded(allocateCost(nodes, []));
    expect(allocation.byNamespace.map((n) => `${n.namespace} ${n.hourlyUsd}`)).toEqual(["b 0.05", "a 0.025", "c 0.025"]);
    expect(allocation.byWorkload.map((w) => `${w.namespace} ${w.workload} ${w.hourlyUsd}`)).toEqual([
      "b Deployment/web 0.05",
      "c Deployment/api 0.025",
      "a Deployment/job 0.025",
    ]);
  });

  it("leaves the whole price idle of a node that reports no CPU or memory allocatable", () => {
    // Nothing to share by: shop/web is charged $0 and the m.small's $0.10 is idle (not NaN).
    const node = small("n1", on(deployment("shop", "web", 1000, 2048)));
    const empty: ClusterNode = { ...node, state: { ...node.state, allocatable: { ...node.state.allocatable, cpu: 0, memory: 0 } } };
    expect(rounded(allocateCost([empty], []))).toEqual({
      byNamespace: [{ namespace: "shop", hourlyUsd: 0 }],
      byWorkload: [{ namespace: "shop", workload: "Deployment/web", hourlyUsd: 0 }],
      idleHourlyUsd: 0.1,
    });
  });
});
