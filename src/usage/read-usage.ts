import { getOrAdd } from "../shared/get-or-add";
import { regExpLiteral } from "../shared/regexp-literal";
import type { PrometheusApi } from "./prometheus-api";
import { CPU_STEP_SECONDS, type RightsizingMethod } from "./rightsizing-method";
import { podNamesRegExp, podOwner, type WorkloadContainers } from "./workload-containers";

// What each workload's containers used, read from cAdvisor's series in Prometheus, two queries for each batch of a
// namespace's workloads (their pods matched by name, those a rollout replaced included; a batch holds up to about
// 400 container series, so that an answer stays some megabytes whatever the namespace's size):
//   CPU     sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{namespace="ns", pod=~"...", container!="", container!="POD"}[5m]))
//           as a range query over the window at 5-minute steps: every sample, so that the percentile is of all the
//           workload's pods together (each pod's own percentile would not combine);
//   memory  max by (namespace, pod, container) (max_over_time(container_memory_working_set_bytes{...}[window]))
//           as an instant query at the window's end: the peak, computed by Prometheus.
// rate() takes a counter reset (a container restarted) as a restart from zero, so a restart costs no sample.
// Where kube-state-metrics is scraped, two more say how often each container restarted in the window and whether it
// was last killed for memory (an OOM kill caps the working set it could show at its limit).
// Series without a container label are the pod's own cgroup (cAdvisor's pod-level series) and "POD" is the pause
// container: both are left out. A pod no workload of the state can own (named by no controller of it) is skipped.
// @see https://github.com/google/cadvisor/blob/master/docs/storage/prometheus.md (container_cpu_usage_seconds_total, container_memory_working_set_bytes)

export interface ContainerUsage {
  /** Every 5-minute CPU rate sample of the workload's pods for this container, in cores: one array a series. */
  readonly cpuSamples: Float64Array[];
  /** The largest working set of any of its pods in the window, in bytes; undefined without a memory series. */
  memoryMaxBytes: number | undefined;
  /** The earliest sample's time, in seconds since the epoch. */
  firstSampleSeconds: number;
  /** Restarts in the window, and whether one was an OOM kill, where kube-state-metrics is scraped. */
  restarts?: number;
  oomKilled?: boolean;
}

/** By workload ("namespace/Kind/name"), then by container name. */
export type WorkloadUsage = Map<string, Map<string, ContainerUsage>>;

const quote = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/**
 * How many container series one range query asks for at most, counted from the pods running now (a rollout's
 * earlier pods add some): 400 series of 14 days at 5-minute steps is about 16 MB of JSON.
 */
export const SERIES_PER_QUERY = 400;

/**
 * The pod=~ expressions of the namespace's queries, each for at most about SERIES_PER_QUERY series: workloads
 * together while they fit; a workload bigger than that (a DaemonSet on hundreds of nodes) by its current pods' names,
 * in slices (its earlier pods, which only its pattern would find, are then not read).
 */
function batches(workloads: readonly WorkloadContainers[]): string[] {
  const out: string[] = [];
  let batch: string[] = [];
  let series = 0;
  const flush = () => {
    if (batch.length > 0) out.push(batch.join("|"));
    batch = [];
    series = 0;
  };
  for (const w of workloads) {
    const perPod = Math.max(1, w.containers.length);
    const mine = Math.max(1, w.pods.length) * perPod;
    if (mine > SERIES_PER_QUERY) {
      const slice = Math.max(1, Math.floor(SERIES_PER_QUERY / perPod));
      for (let i = 0; i < w.pods.length; i += slice)
        out.push(
          w.pods
            .slice(i, i + slice)
            .map((p) => regExpLiteral(p.name))
            .join("|"),
        );
      continue;
    }
    if (series + mine > SERIES_PER_QUERY) flush();
    batch.push(podNamesRegExp(w));
    series += mine;
  }
  flush();
  return out;
}

/** The selector of some workloads' containers in a namespace (the pause container and pod-level cgroups left out). */
const selector = (namespace: string, pods: string) => `{namespace=${quote(namespace)}, pod=~${quote(pods)}, container!="", container!="POD"}`;

export function cpuQuery(namespace: string, pods: string): string {
  return `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total${selector(namespace, pods)}[5m]))`;
}

/** kube-state-metrics' restarts in the window, by container (absent where kube-state-metrics is not scraped). */
export function restartsQuery(namespace: string, pods: string, windowSeconds: number): string {
  const scope = `{namespace=${quote(namespace)}, pod=~${quote(pods)}}`;
  return `sum by (namespace, pod, container) (increase(kube_pod_container_status_restarts_total${scope}[${windowSeconds}s]))`;
}

/** Containers whose last termination in the window was an OOM kill (kube-state-metrics). */
export function oomKilledQuery(namespace: string, pods: string, windowSeconds: number): string {
  const scope = `{namespace=${quote(namespace)}, pod=~${quote(pods)}, reason="OOMKilled"}`;
  return `max by (namespace, pod, container) (max_over_time(kube_pod_container_status_last_terminated_reason${scope}[${windowSeconds}s]))`;
}

export function memoryQuery(namespace: string, pods: string, windowSeconds: number): string {
  return `max by (namespace, pod, container) (max_over_time(container_memory_working_set_bytes${selector(namespace, pods)}[${windowSeconds}s]))`;
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
  const byNamespace = new Map<string, WorkloadContainers[]>();
  for (const w of workloads) getOrAdd(byNamespace, w.namespace, () => []).push(w);
  for (const namespace of [...byNamespace.keys()].sort()) {
    // A series two batches' patterns both match (a look-alike name) is read once.
    const read = { cpu: new Set<string>(), memory: new Set<string>(), restarts: new Set<string>(), oom: new Set<string>() };
    const once = (seen: Set<string>, labels: Readonly<Record<string, string>>) => {
      const key = `${labels.pod}\0${labels.container}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    };
    for (const pods of batches(byNamespace.get(namespace) ?? [])) {
      for (const series of await api.queryRange(cpuQuery(namespace, pods), start, end, CPU_STEP_SECONDS)) {
        if (!once(read.cpu, series.labels)) continue;
        const found = entry(namespace, series.labels);
        if (found === undefined) continue;
        const values = series.samples.filter(([, value]) => Number.isFinite(value));
        found.cpuSamples.push(Float64Array.from(values, ([, value]) => value));
        if (values.length > 0) found.firstSampleSeconds = Math.min(found.firstSampleSeconds, values[0][0]);
      }
      for (const series of await api.query(memoryQuery(namespace, pods, method.windowSeconds), end)) {
        if (!once(read.memory, series.labels)) continue;
        const found = entry(namespace, series.labels);
        const value = series.samples[0]?.[1];
        if (found === undefined || value === undefined || !Number.isFinite(value)) continue;
        found.memoryMaxBytes = Math.max(found.memoryMaxBytes ?? 0, value);
      }
      for (const series of await api.query(restartsQuery(namespace, pods, method.windowSeconds), end)) {
        if (!once(read.restarts, series.labels)) continue;
        const found = entry(namespace, series.labels);
        const value = series.samples[0]?.[1];
        if (found !== undefined && value !== undefined && Number.isFinite(value)) found.restarts = (found.restarts ?? 0) + Math.round(value);
      }
      for (const series of await api.query(oomKilledQuery(namespace, pods, method.windowSeconds), end)) {
        if (!once(read.oom, series.labels)) continue;
        const found = entry(namespace, series.labels);
        if (found !== undefined && series.samples[0]?.[1] === 1) found.oomKilled = true;
      }
    }
  }
  // The last termination's reason stays until the next one: an OOM kill counts only with a restart in the window.
  for (const containers of usage.values()) for (const u of containers.values()) if (u.oomKilled === true && !((u.restarts ?? 0) > 0)) u.oomKilled = false;
  return usage;
}
