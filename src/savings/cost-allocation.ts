import type { ClusterNode } from "../planner/consolidation/cluster-node";
import type { FargatePodCost } from "./fargate-cost";

// Who uses what the cluster costs: each EC2 node's price shared among the pods on it by what they request, the
// rest of it idle; each Fargate pod's price is its own. As OpenCost does, a node's price is first split into a
// CPU part and a memory part in the ratio of OpenCost's default prices per vCPU and per GiB (0.031611 : 0.004237
// per hour, about 7.5 : 1), so a memory-heavy pod on a CPU-heavy node pays for what it takes of each. A pod's
// share is its request over the node's allocatable; DaemonSet pods count for their namespace like any other.
// @see https://www.opencost.io/docs/specification (Cost Allocation: resource cost split, idle)

const CPU_PER_VCPU_HOUR = 0.031611;
const RAM_PER_GIB_HOUR = 0.004237;
const GIB = 2 ** 30;

export interface Allocation {
  readonly byNamespace: readonly { readonly namespace: string; readonly hourlyUsd: number }[];
  readonly byWorkload: readonly { readonly namespace: string; readonly workload: string; readonly hourlyUsd: number }[];
  /** What no pod requests, summed over the priced nodes. */
  readonly idleHourlyUsd: number;
}

/**
 * What a pod requesting these pays an hour of the node's price: its share of the CPU part and of the memory part;
 * undefined for a node whose price is not known.
 */
export function nodeShare(node: ClusterNode): ((cpuMillis: number, bytes: number) => number) | undefined {
  const price = node.hourlyUsd;
  if (price === undefined) return undefined;
  const { cpu, memory } = node.state.allocatable;
  const cpuWeight = (cpu / 1000) * CPU_PER_VCPU_HOUR;
  const memoryWeight = (memory / GIB) * RAM_PER_GIB_HOUR;
  const cpuPart = cpuWeight + memoryWeight === 0 ? price : (price * cpuWeight) / (cpuWeight + memoryWeight);
  const memoryPart = price - cpuPart;
  return (cpuMillis, bytes) => (cpu > 0 ? (cpuPart * Math.min(cpuMillis, cpu)) / cpu : 0) + (memory > 0 ? (memoryPart * Math.min(bytes, memory)) / memory : 0);
}

export function allocateCost(nodes: readonly ClusterNode[], fargate: readonly FargatePodCost[]): Allocation {
  const byWorkload = new Map<string, { namespace: string; workload: string; hourlyUsd: number }>();
  const add = (namespace: string, workload: string, usd: number) => {
    const key = `${namespace}\0${workload}`;
    const entry = byWorkload.get(key) ?? { namespace, workload, hourlyUsd: 0 };
    entry.hourlyUsd += usd;
    byWorkload.set(key, entry);
  };
  let idle = 0;
  for (const node of nodes) {
    const price = node.hourlyUsd;
    const share = nodeShare(node);
    if (price === undefined || share === undefined) continue;
    const shares = [
      ...node.state.pods.map(({ group, count }) => ({
        namespace: group.namespace,
        workload: `${group.kind}/${group.name}`,
        usd: share(group.pod.cpuMillis, group.pod.memoryBytes) * count,
      })),
      ...node.state.daemonSetPods.map((ds) => ({
        namespace: ds.id.split("/")[0],
        // A static pod's mirror sits beside the DaemonSet pods (the kubelet runs it, no controller): its own pod.
        workload: `${ds.running?.mirror === true ? "Pod" : "DaemonSet"}/${ds.id.split("/")[1]}`,
        usd: share(ds.pod.cpuMillis, ds.pod.memoryBytes),
      })),
    ];
    const used = shares.reduce((sum, s) => sum + s.usd, 0);
    // Requests beyond allocatable (a state can show it) share the node's price, and leave no idle.
    const scale = used > price ? price / used : 1;
    for (const s of shares) add(s.namespace, s.workload, s.usd * scale);
    idle += price - used * scale;
  }
  for (const pod of fargate) if (pod.hourlyUsd !== undefined) add(pod.namespace, pod.workload, pod.hourlyUsd);
  const workloads = [...byWorkload.values()].sort((a, b) => b.hourlyUsd - a.hourlyUsd || (a.workload < b.workload ? -1 : 1));
  const namespaces = new Map<string, number>();
  for (const w of workloads) namespaces.set(w.namespace, (namespaces.get(w.namespace) ?? 0) + w.hourlyUsd);
  return {
    byNamespace: [...namespaces.entries()]
      .map(([namespace, hourlyUsd]) => ({ namespace, hourlyUsd }))
      .sort((a, b) => b.hourlyUsd - a.hourlyUsd || (a.namespace < b.namespace ? -1 : 1)),
    byWorkload: workloads,
    idleHourlyUsd: idle,
  };
}
