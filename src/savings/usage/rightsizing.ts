import type { ClusterNode } from "../../planner/consolidation/cluster-node";
import { roundUsd } from "../../planner/plan/plan-types";
import { nodeShare } from "../cost-allocation";
import type { WorkloadUsage } from "./read-usage";
import { type ContainerStatus, quantile, type Recommendation, type RightsizingMethod, recommend, statusOf } from "./rightsizing-method";
import type { WorkloadContainers } from "./workload-containers";

// Each workload container's requests against what it used, and what the method recommends; per workload, the
// dollars an hour its over-requests hold idle today: its pods' share of their nodes' prices (the report's cost
// allocation) for the part of each request above the recommendation. A container with no usage in the window keeps
// its requests (no-data).

export interface ContainerRightsizing {
  readonly name: string;
  /** CPU in cores, memory in bytes. */
  readonly requests: { readonly cpu: number; readonly memoryBytes: number };
  /** Undefined without data. */
  readonly usage?: { readonly cpuP95: number; readonly memoryMaxBytes: number };
  readonly recommended: Recommendation;
  readonly status: ContainerStatus;
}

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
  /** Windows shorter than asked, containers without data. */
  readonly warnings: readonly string[];
}

/** "14d", "36h", "90m": the window in its largest whole unit. */
export function windowText(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400}d`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  return `${Math.round(seconds / 60)}m`;
}

/** The series' samples as one array. */
function joined(parts: readonly Float64Array[]): Float64Array {
  const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
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
  const windowStart = context.at.getTime() / 1000 - method.windowSeconds;
  const warnings: string[] = [];
  const out: WorkloadRightsizing[] = [];
  for (const workload of workloads) {
    const used = usage.get(workload.workload);
    const containers = workload.containers.map((c): ContainerRightsizing => {
      const requests = { cpu: c.cpu, memoryBytes: c.memoryBytes };
      const u = used?.get(c.name);
      const samples = u === undefined ? new Float64Array(0) : joined(u.cpuSamples);
      if (u === undefined || samples.length === 0 || u.memoryMaxBytes === undefined) {
        return { name: c.name, requests, recommended: { cpu: c.cpu, memoryBytes: c.memoryBytes }, status: "no-data" };
      }
      const cpuP95 = quantile(method.cpuPercentile / 100, samples) ?? 0;
      const recommended = recommend(method, cpuP95, u.memoryMaxBytes);
      const usageOf = { cpuP95: Math.round(cpuP95 * 1e6) / 1e6, memoryMaxBytes: u.memoryMaxBytes };
      return { name: c.name, requests, usage: usageOf, recommended, status: statusOf(requests, usageOf, recommended) };
    });
    const missing = containers.filter((c) => c.status === "no-data").map((c) => c.name);
    if (missing.length > 0) warnings.push(`${workload.workload}: no usage in Prometheus for ${missing.join(", ")}: kept at their requests`);
    const first = Math.min(...[...(used?.values() ?? [])].map((u) => u.firstSampleSeconds));
    // A step's grace: the first 5-minute sample of a full window is at its start.
    if (Number.isFinite(first) && first > windowStart + 3600) {
      warnings.push(
        `${workload.workload}: usage covers ${windowText(Math.round((context.at.getTime() / 1000 - first) / 3600) * 3600)} of the ${windowText(method.windowSeconds)} asked`,
      );
    }
    out.push({ workload: workload.workload, idleHourlyUsd: roundUsd(idleOf(workload, containers, nodes)), containers });
  }
  const rank = (w: WorkloadRightsizing) => Math.min(...w.containers.map((c) => STATUS_ORDER[c.status]), 3);
  out.sort((a, b) => rank(a) - rank(b) || b.idleHourlyUsd - a.idleHourlyUsd || (a.workload < b.workload ? -1 : 1));
  return {
    window: windowText(method.windowSeconds),
    method: { cpuPercentile: method.cpuPercentile, memoryBuffer: method.memoryBuffer, cpuMin: method.cpuMin, memoryMinBytes: method.memoryMinBytes },
    source: context.source,
    workloads: out,
    warnings,
  };
}
