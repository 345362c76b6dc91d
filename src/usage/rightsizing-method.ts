// How a container's requests are worked out from what it used, after KRR's "simple" strategy and its defaults
// (p95 CPU, the largest working set plus 15%, at least 10m and 100 MB, 14 days, no CPU limit and a memory limit
// equal to the request). CPU: the 95th percentile of the container's CPU rate over 5 minutes, sampled every 5
// minutes, over the samples of every pod of its workload in the window together. Memory: the largest working set of
// any of those pods over the window, plus 15%. Where this differs from KRR itself: KRR takes each pod's p95 of a
// 75-second rate sampled every 75 seconds and keeps the largest, and rounds memory up to the MiB with a 100 MiB
// floor in its current release (100 MB in earlier ones); the VPA recommender weights recent samples more (24-hour
// half-life), keeps decaying histograms rather than samples, takes p90 and adds a 15% margin to CPU too.
// @see robusta-dev/krr robusta_krr/strategies/simple.py (SimpleStrategySettings: cpu_percentile 95,
//      memory_buffer_percentage 15), robusta_krr/core/abstract/strategies.py (history_duration 14 days)
// @see kubernetes/autoscaler vertical-pod-autoscaler/pkg/recommender/logic/estimator.go (for contrast)

export interface RightsizingMethod {
  /** The percentile of the CPU rate samples taken as the CPU request, 0 to 100. */
  readonly cpuPercentile: number;
  /** The factor applied to the largest working set: 1.15 adds 15%. */
  readonly memoryBuffer: number;
  /** The smallest CPU request recommended, in cores. */
  readonly cpuMin: number;
  /** The smallest memory request recommended, in bytes. */
  readonly memoryMinBytes: number;
  /** How far back usage is read, in seconds. */
  readonly windowSeconds: number;
}

/** KRR simple's defaults: p95 CPU, max memory + 15%, at least 10m and 100 MB, over 14 days. */
export const KRR_SIMPLE: RightsizingMethod = {
  cpuPercentile: 95,
  memoryBuffer: 1.15,
  cpuMin: 0.01,
  memoryMinBytes: 100_000_000,
  windowSeconds: 14 * 24 * 3600,
};

/** The step of the CPU rate samples and the rate's own window: 5 minutes. */
export const CPU_STEP_SECONDS = 300;

/**
 * The φ-quantile of the values as PromQL's quantile_over_time computes it: sorted, the rank φ·(n-1) interpolated
 * linearly between its neighbours. Undefined for no values. Sorts `values` in place.
 */
export function quantile(phi: number, values: Float64Array): number | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  // A typed array sorts by value (NaN last), not as text.
  values.sort();
  const rank = phi * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(n - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return values[lower] * (1 - weight) + values[upper] * weight;
}

export interface Recommendation {
  /** Cores, rounded up to the millicore. */
  readonly cpu: number;
  /** Bytes, rounded up. */
  readonly memoryBytes: number;
}

/** The requests the method recommends for a container whose CPU p95 and memory maximum are known. */
export function recommend(method: RightsizingMethod, cpuP95: number, memoryMaxBytes: number): Recommendation {
  return {
    cpu: Math.ceil(Math.max(cpuP95, method.cpuMin) * 1000 - 1e-9) / 1000,
    memoryBytes: Math.ceil(Math.max(memoryMaxBytes * method.memoryBuffer, method.memoryMinBytes) - 1e-6),
  };
}

export type ContainerStatus = "under" | "over" | "fits" | "no-data";

/** A recommendation this far below a request makes the container over-requested. */
export const OVER_REQUEST_MARGIN = 0.1;

/**
 * under: it uses more than it asks (its CPU p95 above its CPU request, or its largest working set above its memory
 * request: throttling or an OOM kill waiting to happen), or it was OOM-killed in the window; over: a recommendation more than 10% below its request;
 * fits: neither.
 */
export function statusOf(
  requests: { readonly cpu: number; readonly memoryBytes: number },
  usage: { readonly cpuP95: number; readonly memoryMaxBytes: number },
  recommended: Recommendation,
  oomKilled = false,
): ContainerStatus {
  // An OOM-killed container needed more memory than its peak shows: its limit cut it off.
  if (oomKilled || usage.cpuP95 > requests.cpu || usage.memoryMaxBytes > requests.memoryBytes) return "under";
  const below = (request: number, recommendation: number) => request > 0 && recommendation < request * (1 - OVER_REQUEST_MARGIN);
  return below(requests.cpu, recommended.cpu) || below(requests.memoryBytes, recommended.memoryBytes) ? "over" : "fits";
}
