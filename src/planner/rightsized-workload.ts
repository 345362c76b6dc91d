import { PrometheusApi } from "../usage/prometheus-api";
import { readUsage } from "../usage/read-usage";
import { recommendations, recommendedByWorkload, type WorkloadRecommendations } from "../usage/recommendations";
import { withRecommendedRequests } from "../usage/rewrite-requests";
import type { UsageOptions } from "../usage/usage-flags";
import { containerRequestsOf, type WorkloadContainers } from "../usage/workload-containers";
import type { Workload } from "./workload/workload-model";
import { workloadName } from "./workload/workload-name";
import type { PodSpecOf } from "./workload/workload-objects";

// A plan's workload with the requests its usage recommends (--prometheus): each workload of the files (namespace,
// kind and name) matched to the pods a running cluster ran for it, their usage read from Prometheus, and the files
// read again with the recommended requests in their containers. The plan's rightsized scenario plans that.

export interface RightsizedWorkload {
  readonly workload: Workload;
  readonly found: WorkloadRecommendations;
  /** The Prometheus read, without credentials. */
  readonly source: string;
  readonly method: UsageOptions["method"];
}

/** A pod-spec hook that notes each workload of the files and its containers, and changes nothing. */
export function workloadObserver(): { readonly podSpecOf: PodSpecOf; readonly workloads: () => WorkloadContainers[] } {
  // By workload: an object given twice counts once, its last definition standing, as the planner reads it.
  const workloads = new Map<string, WorkloadContainers>();
  const podSpecOf: PodSpecOf = ({ namespace, kind, name }, spec) => {
    const pods = kind === "Pod" ? [{ name, node: undefined }] : [];
    const workload = workloadName({ namespace, kind, name });
    workloads.set(workload, { workload, namespace, kind, name, containers: containerRequestsOf(spec), pods });
    return spec;
  };
  return { podSpecOf, workloads: () => [...workloads.values()] };
}

/** The workload read again (`read`) with the requests the usage of the observed workloads recommends. */
export async function rightsizedWorkload(
  observed: readonly WorkloadContainers[],
  read: (podSpecOf: PodSpecOf) => Workload,
  usage: UsageOptions,
  at: Date,
): Promise<RightsizedWorkload> {
  const used = await readUsage(new PrometheusApi(usage.target), observed, usage.method, at);
  const found = recommendations(observed, used, usage.method, at);
  const byWorkload = recommendedByWorkload(found.workloads.map(({ workload, containers }) => ({ workload: workload.workload, containers })));
  const workload = read(({ namespace, kind, name }, spec) => withRecommendedRequests(spec, byWorkload.get(workloadName({ namespace, kind, name }))));
  return { workload, found, source: usage.source, method: usage.method };
}
