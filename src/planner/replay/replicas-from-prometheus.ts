import { type PrometheusApi, PrometheusError, type PrometheusSeries } from "../../usage/prometheus-api";
import type { CurveRow, ReplicaCurve } from "./replica-curve";

// A replica curve read from Prometheus, as kube-state-metrics exports it: each Deployment's and StatefulSet's
// spec replicas (what its controller was asked to run, the HPA's decisions included), and, for a workload with no
// such series, the desired replicas of the HorizontalPodAutoscaler that targets it. One row where a workload's
// value changes; a query asks for at most 10,000 steps (Prometheus refuses more than 11,000 points a series).
// @see https://github.com/kubernetes/kube-state-metrics/blob/main/docs/metrics/workload/deployment-metrics.md
// @see https://github.com/kubernetes/kube-state-metrics/blob/main/docs/metrics/workload/horizontalpodautoscaler-metrics.md

export interface ReplicaWindow {
  readonly from: Date;
  readonly to: Date;
  readonly stepSeconds: number;
}

/** The series of workloads' replicas, by kind, and the label that names the workload. */
const SPEC_REPLICAS = [
  { promql: "kube_deployment_spec_replicas", kind: "Deployment", label: "deployment" },
  { promql: "kube_statefulset_replicas", kind: "StatefulSet", label: "statefulset" },
] as const;

/** The HPA's desired replicas, labelled with the workload it scales (its info series holds the target). */
const HPA_DESIRED =
  "kube_horizontalpodautoscaler_status_desired_replicas * on (namespace, horizontalpodautoscaler) group_left (scaletargetref_kind, scaletargetref_name) kube_horizontalpodautoscaler_info";

const MAX_STEPS = 10_000;

/** The series of one query over the window, asked for in parts of at most MAX_STEPS steps. */
async function rangeOf(api: PrometheusApi, promql: string, window: ReplicaWindow): Promise<PrometheusSeries[]> {
  const parts: PrometheusSeries[] = [];
  const stepMs = window.stepSeconds * 1000;
  for (let start = window.from.getTime(); start <= window.to.getTime(); start += MAX_STEPS * stepMs) {
    const end = Math.min(window.to.getTime(), start + (MAX_STEPS - 1) * stepMs);
    parts.push(...(await api.queryRange(promql, new Date(start), new Date(end), window.stepSeconds)));
  }
  return parts;
}

/** Each workload's samples, by its curve name, joined across the query's parts. */
function byWorkload(series: readonly PrometheusSeries[], nameOf: (labels: Readonly<Record<string, string>>) => string | undefined) {
  const samples = new Map<string, (readonly [number, number])[]>();
  for (const s of series) {
    const name = nameOf(s.labels);
    if (name === undefined) continue;
    const list = samples.get(name) ?? [];
    list.push(...s.samples);
    samples.set(name, list);
  }
  return samples;
}

/**
 * The curve of every workload Prometheus knows a replica count of between `from` and `to`, starting at `from`
 * (RFC 3339, as a curve file with wall-clock times). Which of them the workload has is the replay's to sort out.
 */
export async function replicasFromPrometheus(api: PrometheusApi, window: ReplicaWindow): Promise<ReplicaCurve> {
  const samples = new Map<string, (readonly [number, number])[]>();
  for (const { promql, kind, label } of SPEC_REPLICAS) {
    const found = byWorkload(await rangeOf(api, promql, window), (l) =>
      l.namespace === undefined || l[label] === undefined ? undefined : `${l.namespace}/${kind}/${l[label]}`,
    );
    for (const [name, list] of found) samples.set(name, list);
  }
  const scaled = byWorkload(await rangeOf(api, HPA_DESIRED, window), (l) =>
    l.namespace === undefined || l.scaletargetref_kind === undefined || l.scaletargetref_name === undefined
      ? undefined
      : `${l.namespace}/${l.scaletargetref_kind}/${l.scaletargetref_name}`,
  );
  for (const [name, list] of scaled) if (!samples.has(name)) samples.set(name, list);
  if (samples.size === 0) {
    throw new PrometheusError(
      `no replica series between ${window.from.toISOString()} and ${window.to.toISOString()} (kube_deployment_spec_replicas, kube_statefulset_replicas, kube_horizontalpodautoscaler_status_desired_replicas): is kube-state-metrics scraped?`,
    );
  }
  const rows: CurveRow[] = [];
  const fromSeconds = window.from.getTime() / 1000;
  for (const [workload, list] of samples) {
    let last: number | undefined;
    for (const [at, value] of [...list].sort((a, b) => a[0] - b[0])) {
      const replicas = Math.max(0, Math.round(value));
      if (replicas === last || !Number.isFinite(replicas)) continue;
      rows.push({ line: 0, t: at - fromSeconds, workload, replicas });
      last = replicas;
    }
  }
  rows.sort((a, b) => a.t - b.t || (a.workload < b.workload ? -1 : a.workload > b.workload ? 1 : 0));
  return { start: window.from, rows };
}
