import type { ClusterNode } from "../../planner/consolidation/cluster-node";
import { roundUsd } from "../../planner/plan/plan-types";
import type { WorkloadUsage } from "../../usage/read-usage";
import { type ContainerRightsizing, recommendations, windowText } from "../../usage/recommendations";
import type { ContainerStatus, RightsizingMethod } from "../../usage/rightsizing-method";
import type { WorkloadContainers } from "../../usage/workload-containers";
import { nodeShare } from "../cost-allocation";

// The savings report's right-sizing: each workload container's recommendation (usage/recommendations.ts) and, per
// workload, the dollars an hour its over-requests hold idle today: its pods' share of their nodes' prices (the
// report's cost allocation) for the part of each request above the recommendation.

export interface WorkloadRightsizing {
  /** "namespace/Kind/name". */
  readonly workload: string;
  /** What its over-requests hold idle an hour today, on the nodes its pods run on. */
  readonly idleHourlyUsd: number;
  readonly containers: readonly ContainerRightsizing[];
}

export interface RightsizingJson {
  /** The usage window, such as "14d". */
  readonly window: string;
  readonly method: { readonly cpuPercentile: number; readonly memoryBuffer: number; readonly cpuMin: number; readonly memoryMinBytes: number };
  /** The Prometheus read, without credentials. */
  readonly source: string;
  /** Under-requested workloads first, then by the dollars held idle. */
  readonly workloads: readonly WorkloadRightsizing[];
  /** The dollars over-requests hold idle an hour, by namespace, most first. */
  readonly idleByNamespace: readonly { readonly namespace: string; readonly idleHourlyUsd: number }[];
  /** Windows shorter than asked, containers without data. */
  readonly warnings: readonly string[];
}

const STATUS_ORDER: Readonly<Record<ContainerStatus, number>> = { under: 0, over: 1, fits: 2, "no-data": 3 };

/** The dollars an hour the requests above the recommendations hold idle, over the workload's pods on priced nodes. */
function idleOf(workload: WorkloadContainers, containers: readonly ContainerRightsizing[], nodes: ReadonlyMap<string, ClusterNode>): number {
  let cpuMillis = 0;
  let memory = 0;
  for (const c of containers) {
    if (c.status === "no-data") continue;
    cpuMillis += Math.max(0, c.requests.cpu - c.recommended.cpu) * 1000;
    memory += Math.max(0, c.requests.memoryBytes - c.recommended.memoryBytes);
  }
  if (cpuMillis === 0 && memory === 0) return 0;
  let usd = 0;
  for (const pod of workload.pods) {
    const node = pod.node === undefined ? undefined : nodes.get(pod.node);
    const share = node === undefined ? undefined : nodeShare(node);
    if (share !== undefined) usd += share(cpuMillis, memory);
  }
  return usd;
}

export function rightsizing(
  workloads: readonly WorkloadContainers[],
  usage: WorkloadUsage,
  method: RightsizingMethod,
  context: { readonly source: string; readonly at: Date; readonly nodes: readonly ClusterNode[] },
): RightsizingJson {
  const nodes = new Map(context.nodes.map((n) => [n.state.name, n]));
  const found = recommendations(workloads, usage, method, context.at);
  const idle = found.workloads.map(({ workload, containers }) => ({ workload, containers, usd: idleOf(workload, containers, nodes) }));
  const out = idle.map(({ workload, containers, usd }) => ({ workload: workload.workload, idleHourlyUsd: roundUsd(usd), containers }));
  const byNamespace = new Map<string, number>();
  for (const { workload, usd } of idle) byNamespace.set(workload.namespace, (byNamespace.get(workload.namespace) ?? 0) + usd);
  const rank = (w: WorkloadRightsizing) => Math.min(...w.containers.map((c) => STATUS_ORDER[c.status]), 3);
  out.sort((a, b) => rank(a) - rank(b) || b.idleHourlyUsd - a.idleHourlyUsd || (a.workload < b.workload ? -1 : 1));
  return {
    window: windowText(method.windowSeconds),
    method: { cpuPercentile: method.cpuPercentile, memoryBuffer: method.memoryBuffer, cpuMin: method.cpuMin, memoryMinBytes: method.memoryMinBytes },
    source: context.source,
    workloads: out,
    idleByNamespace: [...byNamespace.entries()]
      .map(([namespace, usd]) => ({ namespace, idleHourlyUsd: roundUsd(usd) }))
      .sort((a, b) => b.idleHourlyUsd - a.idleHourlyUsd || (a.namespace < b.namespace ? -1 : 1)),
    warnings: found.warnings,
  };
}
