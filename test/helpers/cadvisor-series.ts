import type { PrometheusSeries } from "./prometheus-server";

// Series as Prometheus stores them from a cluster: the kubelet's cAdvisor endpoint scraped every minute by
// kube-prometheus's kubelet ServiceMonitor (job kubelet, metrics_path /metrics/cadvisor, the container's cgroup id,
// image and containerd id; cpu="total"), a pod-level cgroup series beside each pod's containers (no container, image
// or name label), and kube-state-metrics' container series. Usage is given per 5-minute step k (0 to `steps`) of a
// window; samples fall on every minute, so that rate(x[5m]) at a step holds six samples, one at each end, and is
// exactly the step's rate (nothing extrapolated).
// @see https://github.com/google/cadvisor/blob/master/docs/storage/prometheus.md
// @see https://github.com/prometheus-operator/kube-prometheus (manifests/kubernetesControlPlane-serviceMonitorKubelet.yaml)

const MINUTE = 60_000;

export interface ContainerOf {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly node: string;
}

/** A window of 5-minute steps: step k at start + 5k minutes. */
export interface Steps {
  readonly start: number;
  readonly steps: number;
}

const stepTime = (w: Steps, k: number) => w.start + k * 5 * MINUTE;

/** A stable made-up id of the text (a containerd id, a pod uid). */
function idOf(text: string): string {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return `${h.toString(16).padStart(8, "0")}`.repeat(8);
}

function podCgroup(c: ContainerOf): string {
  const uid = idOf(`${c.namespace}/${c.pod}`);
  return `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${uid.slice(0, 8)}_${uid.slice(8, 12)}_${uid.slice(12, 16)}.slice`;
}

const scrape = (c: ContainerOf) => ({
  endpoint: "https-metrics",
  instance: `${c.node}:10250`,
  job: "kubelet",
  metrics_path: "/metrics/cadvisor",
  namespace: c.namespace,
  node: c.node,
  pod: c.pod,
  service: "kube-prometheus-stack-kubelet",
});

/** The container's labels as stored: its cgroup id, image and containerd id with the scrape's. */
export function containerLabels(c: ContainerOf): Record<string, string> {
  const id = idOf(`${c.namespace}/${c.pod}/${c.container}`);
  return {
    ...scrape(c),
    container: c.container,
    id: `${podCgroup(c)}/cri-containerd-${id}.scope`,
    image: `public.ecr.aws/example/${c.container}:1.0`,
    name: id,
  };
}

export interface CpuOptions {
  readonly from?: number;
  readonly to?: number;
  /** The step whose first minute the container restarts: its counter starts again from what it used since. */
  readonly resetAt?: number;
  /** No scrape strictly between steps `after` and `before` (a scrape gap). */
  readonly gap?: { readonly after: number; readonly before: number };
}

/** Every minute from step from-1 to step `to` of the counter whose 5-minute rate at step k is rate(k) cores. */
function* counterSamples(w: Steps, rate: (k: number) => number, options: CpuOptions): Generator<readonly [number, number]> {
  const from = options.from ?? 0;
  let counter = 1000;
  yield [stepTime(w, from - 1), counter];
  for (let k = from; k <= (options.to ?? w.steps); k++) {
    for (let m = 1; m <= 5; m++) {
      counter = k === options.resetAt && m === 1 ? rate(k) * 60 : counter + rate(k) * 60;
      const t = stepTime(w, k - 1) + m * MINUTE;
      const gap = options.gap;
      if (gap === undefined || t <= stepTime(w, gap.after) || t >= stepTime(w, gap.before)) yield [t, counter];
    }
  }
}

export function cpuSeries(w: Steps, c: ContainerOf, rate: (k: number) => number, options: CpuOptions = {}): PrometheusSeries {
  return { metric: "container_cpu_usage_seconds_total", labels: { ...containerLabels(c), cpu: "total" }, samples: counterSamples(w, rate, options) };
}

/** The pod's own cgroup beside its containers (no container label): what a query must leave out. */
export function podCpuSeries(w: Steps, c: ContainerOf, rate: (k: number) => number): PrometheusSeries {
  return { metric: "container_cpu_usage_seconds_total", labels: { ...scrape(c), cpu: "total", id: podCgroup(c) }, samples: counterSamples(w, rate, {}) };
}

/** The working set every minute of steps from..to: `base`, and `peak` for the minute that ends step `peakAt`. */
export function memorySeries(
  w: Steps,
  c: ContainerOf,
  base: number,
  peak: number,
  peakAt: number,
  options: { from?: number; to?: number } = {},
): PrometheusSeries {
  const samples: [number, number][] = [];
  const from = options.from ?? 0;
  for (let k = from; k <= (options.to ?? w.steps); k++) {
    for (let m = k === from ? 5 : 1; m <= 5; m++) samples.push([stepTime(w, k - 1) + m * MINUTE, k === peakAt && m === 5 ? peak : base]);
  }
  return { metric: "container_memory_working_set_bytes", labels: containerLabels(c), samples };
}

/** kube-state-metrics' labels for a container's series. */
export function kubeStateLabels(c: ContainerOf): Record<string, string> {
  return {
    container: c.container,
    endpoint: "http",
    instance: "10.0.1.17:8080",
    job: "kube-state-metrics",
    namespace: c.namespace,
    pod: c.pod,
    service: "kube-prometheus-stack-kube-state-metrics",
    uid: idOf(`${c.namespace}/${c.pod}`).slice(0, 32),
  };
}

/** kube-state-metrics' restart counter, every minute: `restarts(k)` restarts so far at step k. */
export function restartsSeries(w: Steps, c: ContainerOf, restarts: (k: number) => number): PrometheusSeries {
  const samples: [number, number][] = [];
  for (let k = 0; k <= w.steps; k++) for (let m = k === 0 ? 5 : 1; m <= 5; m++) samples.push([stepTime(w, k - 1) + m * MINUTE, restarts(k)]);
  return { metric: "kube_pod_container_status_restarts_total", labels: kubeStateLabels(c), samples };
}

/** The last termination's reason, 1 every minute from step `from` on (kube-state-metrics keeps it until the next). */
export function lastTerminatedSeries(w: Steps, c: ContainerOf, reason: string, from: number): PrometheusSeries {
  const samples: [number, number][] = [];
  for (let k = from; k <= w.steps; k++) for (let m = k === from ? 5 : 1; m <= 5; m++) samples.push([stepTime(w, k - 1) + m * MINUTE, 1]);
  return { metric: "kube_pod_container_status_last_terminated_reason", labels: { ...kubeStateLabels(c), reason }, samples };
}
