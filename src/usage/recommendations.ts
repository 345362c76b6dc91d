import type { WorkloadUsage } from "./read-usage";
import { type ContainerStatus, quantile, type Recommendation, type RightsizingMethod, recommend, statusOf } from "./rightsizing-method";
import type { WorkloadContainers } from "./workload-containers";

// Each workload container's requests against what it used, and what the method recommends. A container with no
// usage in the window keeps its requests (no-data), and a warning names it; so does a window shorter than asked.

export interface ContainerRightsizing {
  readonly name: string;
  /** CPU in cores, memory in bytes. */
  readonly requests: { readonly cpu: number; readonly memoryBytes: number };
  /** Undefined without data. */
  readonly usage?: { readonly cpuP95: number; readonly memoryMaxBytes: number };
  readonly recommended: Recommendation;
  readonly status: ContainerStatus;
  /** Restarts in the window, where kube-state-metrics is scraped. */
  readonly restarts?: number;
  /** Its last termination in the window was an OOM kill: its memory peak is at most its limit, not what it needed. */
  readonly oomKilled?: true;
}

export interface WorkloadRecommendations {
  /** The workload, and its containers' recommendations in the order its pod spec lists them. */
  readonly workloads: readonly { readonly workload: WorkloadContainers; readonly containers: readonly ContainerRightsizing[] }[];
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

export function recommendations(workloads: readonly WorkloadContainers[], usage: WorkloadUsage, method: RightsizingMethod, at: Date): WorkloadRecommendations {
  const windowStart = at.getTime() / 1000 - method.windowSeconds;
  const warnings: string[] = [];
  const out = workloads.map((workload) => {
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
      return {
        name: c.name,
        requests,
        usage: usageOf,
        recommended,
        status: statusOf(requests, usageOf, recommended, u.oomKilled === true),
        ...(u.restarts === undefined ? {} : { restarts: u.restarts }),
        ...(u.oomKilled === true ? { oomKilled: true as const } : {}),
      };
    });
    const missing = containers.filter((c) => c.status === "no-data").map((c) => c.name);
    if (missing.length > 0) warnings.push(`${workload.workload}: no usage in Prometheus for ${missing.join(", ")}: kept at their requests`);
    const first = Math.min(...[...(used?.values() ?? [])].map((u) => u.firstSampleSeconds));
    // An hour's grace: the first 5-minute sample of a full window is at its start.
    if (Number.isFinite(first) && first > windowStart + 3600) {
      warnings.push(
        `${workload.workload}: usage covers ${windowText(Math.round((at.getTime() / 1000 - first) / 3600) * 3600)} of the ${windowText(method.windowSeconds)} asked`,
      );
    }
    return { workload, containers };
  });
  return { workloads: out, warnings };
}

/** Each workload's recommended requests by container name ("namespace/Kind/name", then name), for the containers with data. */
export function recommendedByWorkload(
  workloads: readonly { readonly workload: string; readonly containers: readonly ContainerRightsizing[] }[],
): ReadonlyMap<string, ReadonlyMap<string, Recommendation>> {
  const byWorkload = new Map<string, ReadonlyMap<string, Recommendation>>();
  for (const { workload, containers } of workloads) {
    const changed = containers.filter((c) => c.status !== "no-data").map((c) => [c.name, c.recommended] as const);
    if (changed.length > 0) byWorkload.set(workload, new Map(changed));
  }
  return byWorkload;
}

/** The recommendations as JSON: the method, the source, and each workload's containers. */
export interface RecommendationsJson {
  /** The usage window, such as "14d". */
  readonly window: string;
  readonly method: { readonly cpuPercentile: number; readonly memoryBuffer: number; readonly cpuMin: number; readonly memoryMinBytes: number };
  /** The Prometheus read, without credentials. */
  readonly source: string;
  readonly workloads: readonly { readonly workload: string; readonly containers: readonly ContainerRightsizing[] }[];
  /** Windows shorter than asked, containers without data. */
  readonly warnings: readonly string[];
}

export function recommendationsJson(found: WorkloadRecommendations, method: RightsizingMethod, source: string): RecommendationsJson {
  return {
    window: windowText(method.windowSeconds),
    method: { cpuPercentile: method.cpuPercentile, memoryBuffer: method.memoryBuffer, cpuMin: method.cpuMin, memoryMinBytes: method.memoryMinBytes },
    source,
    workloads: found.workloads.map(({ workload, containers }) => ({ workload: workload.workload, containers })),
    warnings: found.warnings,
  };
}
