import { getOrAdd } from "../../shared/get-or-add";
import type { PrometheusApi } from "./prometheus-api";
import { CPU_STEP_SECONDS, type RightsizingMethod } from "./rightsizing-method";
import { podOwner, type WorkloadContainers } from "./workload-containers";

// What each workload's containers used, read from cAdvisor's series in Prometheus, two queries a namespace:
//   CPU     sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{namespace="ns", container!="", container!="POD"}[5m]))
//           as a range query over the window at 5-minute steps: every sample, so that the percentile is of all the
//           workload's pods together (each pod's own percentile would not combine);
//   memory  max by (namespace, pod, container) (max_over_time(container_memory_working_set_bytes{...}[window]))
//           as an instant query at the window's end: the peak, computed by Prometheus.
// rate() takes a counter reset (a container restarted) as a restart from zero, so a restart costs no sample.
// Series without a container label are the pod's own cgroup (cAdvisor's pod-level series) and "POD" is the pause
// container: both are left out. A pod no workload of the state can own (named by no controller of it) is skipped.
// @see https://github.com/google/cadvisor/blob/master/docs/storage/prometheus.md (container_cpu_usage_seconds_total, container_memory_working_set_bytes)

export interface ContainerUsage {
  /** Every 5-minute CPU rate sample of the workload's pods for this container, in cores. */
  readonly cpuSamples: number[];
  /** The largest working set of any of its pods in the window, in bytes; undefined without a memory series. */
  memoryMaxBytes: number | undefined;
  /** The earliest sample's time, in seconds since the epoch. */
  firstSampleSeconds: number;
}

/** By workload ("namespace/Kind/name"), then by container name. */
export type WorkloadUsage = Map<string, Map<string, ContainerUsage>>;

const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The selector of a namespace's containers (the pause container and pod-level cgroups left out). */
const selector = (namespace: string) => `{namespace=${quote(namespace)}, container!="", container!="POD"}`;

export function cpuQuery(namespace: string): string {
  return `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total${selector(namespace)}[5m]))`;
}

export function memoryQuery(namespace: string, windowSeconds: number): string {
  return `max by (namespace, pod, container) (max_over_time(container_memory_working_set_bytes${selector(namespace)}[${windowSeconds}s]))`;
}

/** The usage of every workload's containers over the method's window ending at `at`. */
export async function readUsage(api: PrometheusApi, workloads: readonly WorkloadContainers[], method: RightsizingMethod, at: Date): Promise<WorkloadUsage> {
  const owner = podOwner(workloads);
  const usage: WorkloadUsage = new Map();
  const entry = (namespace: string, labels: Readonly<Record<string, string>>): ContainerUsage | undefined => {
    const workload = owner(namespace, labels.pod ?? "");
    const container = labels.container;
    if (workload === undefined || container === undefined) return undefined;
    const containers = getOrAdd(usage, workload.workload, () => new Map<string, ContainerUsage>());
    return getOrAdd(containers, container, () => ({ cpuSamples: [], memoryMaxBytes: undefined, firstSampleSeconds: Number.POSITIVE_INFINITY }));
  };
  // Steps on multiples of 5 minutes, as a subquery's would be: the same samples whatever the second `at` falls on.
  const end = new Date(Math.floor(at.getTime() / (CPU_STEP_SECONDS * 1000)) * CPU_STEP_SECONDS * 1000);
  const start = new Date(end.getTime() - method.windowSeconds * 1000);
  const namespaces = [...new Set(workloads.map((w) => w.namespace))].sort();
  for (const namespace of namespaces) {
    for (const series of await api.queryRange(cpuQuery(namespace), start, end, CPU_STEP_SECONDS)) {
      const found = entry(namespace, series.labels);
      if (found === undefined) continue;
      for (const [t, value] of series.samples) {
        if (!Number.isFinite(value)) continue;
        found.cpuSamples.push(value);
        if (t < found.firstSampleSeconds) found.firstSampleSeconds = t;
      }
    }
    for (const series of await api.query(memoryQuery(namespace, method.windowSeconds), end)) {
      const found = entry(namespace, series.labels);
      const value = series.samples[0]?.[1];
      if (found === undefined || value === undefined || !Number.isFinite(value)) continue;
      found.memoryMaxBytes = Math.max(found.memoryMaxBytes ?? 0, value);
    }
  }
  return usage;
}
