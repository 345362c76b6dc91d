import type { IPod } from "kubernetes-models/v1/Pod";
import type { SavingsJson } from "../../../src/savings/savings-report";
import { deploymentPodName, deploymentPods } from "../../fixtures/eks-cluster/cluster-objects";
import { describeWithPrometheus, type PrometheusSeries, type PrometheusServer, startPrometheus } from "../../helpers/prometheus-server";
import { AT, addOns, poolNode, poolObjects, savingsOf, smallPool } from "../cluster-states";

// `npm run savings -- --state ... --prometheus URL` end to end: a cluster state as a real EKS cluster returns it,
// and a real Prometheus (2.42) loaded with cAdvisor's series for its pods, scraped every 5 minutes. With a 5-minute
// scrape aligned to the 5-minute steps, rate(x[5m]) at a step is exactly (x[step] - x[step before]) / 300: both
// samples sit on the window's ends, so nothing is extrapolated, and a step missing either sample has no rate.
//
// The window is 500 minutes ending at AT (2026-11-26T12:00:00Z): steps k = 0..100 at AT - 500m + 5k minutes; CPU
// counters start one step earlier. By construction:
//   web (Deployment, 2 replicas, 500m / 512Mi each): both pods' rate at step k is k/1000 cores, so the 202 samples
//     hold each of 0.000..0.100 twice; p95 ranks 0.95 x 201 = 190.95, between sorted samples 190 and 191, both
//     0.095: 95m. Memory peaks at 200Mi: 200 x 1,048,576 x 1.15 = 241,172,480 bytes. Over (95m < 450m).
//   api (1 replica, 250m / 256Mi): 0.2 cores throughout, its container restarted at step 60 (the counter starts
//     again from what it used since the step before: rate adds the value before the drop back, so the step keeps
//     its 0.2). p95 0.2: 200m, below 225m (90% of 250m): over. Its first pod was replaced by a rollout at step 50:
//     the old pod's name (another template hash) is read as the same workload's, and its 110Mi peak is the
//     workload's (the new pod's is 100Mi): 110 x 1,048,576 x 1.15 = 132,644,864 bytes.
//   batch (1 replica, 100m / 128Mi): 0.3 cores, more than it asks: under, and listed first.
//   gappy (1 replica, 500m / 512Mi): k/1000 cores, its samples 40 to 49 lost: steps 40 to 50 have no rate, 90
//     remain (0..39 and 51..100); p95 ranks 0.95 x 89 = 84.55, between sorted 84 (0.095) and 85 (0.096):
//     0.095 x 0.45 + 0.096 x 0.55 = 0.09555: 96m once rounded up to the millicore.
//   cache (1 replica): never scraped: no-data, kept at its requests.

const A = "ip-10-0-1-10.ec2.internal";
const B = "ip-10-0-2-20.ec2.internal";
const MINUTE = 60_000;
const MIB = 1024 * 1024;
const END = Date.parse(AT);
const START = END - 500 * MINUTE;
const step = (k: number) => START + k * 5 * MINUTE;

function pods(name: string, nodes: readonly string[], cpu: string, memory: string, hash?: string): IPod[] {
  return deploymentPods({
    namespace: "shop",
    name,
    labels: { app: name },
    nodes,
    hash,
    containers: [{ name, image: "public.ecr.aws/nginx/nginx:1.27.3", requests: { cpu, memory } }],
  });
}

const labels = (pod: string, container: string) => ({ namespace: "shop", pod, container, image: "public.ecr.aws/nginx/nginx:1.27.3" });

/** A CPU counter whose rate at step k is rate(k) (cores), from step `from` to step `to`, without the steps in `lost`. */
function cpu(
  pod: string,
  container: string,
  rate: (k: number) => number,
  options: { from?: number; to?: number; resetAt?: number; lost?: (k: number) => boolean } = {},
): PrometheusSeries {
  const samples: [number, number][] = [];
  let counter = 1000;
  for (let k = (options.from ?? 0) - 1; k <= (options.to ?? 100); k++) {
    if (k >= (options.from ?? 0)) counter = k === options.resetAt ? rate(k) * 300 : counter + rate(k) * 300;
    if (!options.lost?.(k)) samples.push([step(k), counter]);
  }
  return { metric: "container_cpu_usage_seconds_total", labels: labels(pod, container), samples };
}

/** A working-set gauge at `base` bytes, `peak` at step 70 (or at its last step, if it ends before). */
function memory(pod: string, container: string, base: number, peak: number, options: { from?: number; to?: number } = {}): PrometheusSeries {
  const samples: [number, number][] = [];
  const to = options.to ?? 100;
  for (let k = options.from ?? 0; k <= to; k++) samples.push([step(k), k === Math.min(70, to) ? peak : base]);
  return { metric: "container_memory_working_set_bytes", labels: labels(pod, container), samples };
}

describeWithPrometheus("npm run savings -- --prometheus: requests against usage, and the cluster right-sized", () => {
  const web = pods("web", [A, B], "500m", "512Mi");
  const api = pods("api", [A], "250m", "256Mi");
  const batch = pods("batch", [B], "100m", "128Mi");
  const gappy = pods("gappy", [B], "500m", "512Mi");
  const cache = pods("cache", [A], "500m", "512Mi");
  const name = (pod: IPod) => pod.metadata?.name as string;
  const oldApi = deploymentPodName("shop", "api", 0, "5d8f7c9b6");
  const objects = [
    ...poolObjects(smallPool(), [poolNode(A, "us-east-1a"), poolNode(B, "us-east-1b")]),
    ...addOns([A, B]),
    ...web,
    ...api,
    ...batch,
    ...gappy,
    ...cache,
  ];
  let server: PrometheusServer;
  let json: SavingsJson | undefined;

  beforeAll(async () => {
    server = await startPrometheus([
      ...web.flatMap((p) => [cpu(name(p), "web", (k) => k / 1000), memory(name(p), "web", 150 * MIB, 200 * MIB)]),
      cpu(oldApi, "api", () => 0.2, { to: 49 }),
      memory(oldApi, "api", 90 * MIB, 110 * MIB, { to: 49 }),
      cpu(name(api[0]), "api", () => 0.2, { from: 50, resetAt: 60 }),
      memory(name(api[0]), "api", 80 * MIB, 100 * MIB, { from: 50 }),
      cpu(name(batch[0]), "batch", () => 0.3),
      // kube-state-metrics: batch restarted twice in the window (at steps 30 and 60), last for memory.
      {
        metric: "kube_pod_container_status_restarts_total",
        labels: { namespace: "shop", pod: name(batch[0]), container: "batch" },
        samples: Array.from({ length: 101 }, (_, k) => [step(k), k < 30 ? 0 : k < 60 ? 1 : 2] as [number, number]),
      },
      {
        metric: "kube_pod_container_status_last_terminated_reason",
        labels: { namespace: "shop", pod: name(batch[0]), container: "batch", reason: "OOMKilled" },
        samples: Array.from({ length: 41 }, (_, i) => [step(60 + i), 1] as [number, number]),
      },
      memory(name(batch[0]), "batch", 100 * MIB, 100 * MIB),
      cpu(name(gappy[0]), "gappy", (k) => k / 1000, { lost: (k) => k >= 40 && k <= 49 }),
      memory(name(gappy[0]), "gappy", 100 * MIB, 100 * MIB),
    ]);
    const report = await savingsOf(objects, ["--format", "json", "--prometheus", server.url, "--usage-window", "500m"]);
    expect(report.err).toBe("");
    json = report.json;
  }, 120_000);
  afterAll(() => server?.stop());

  const workload = (id: string) => json?.rightsizing?.workloads.find((w) => w.workload === id);

  it("states the method and where usage came from", () => {
    expect(json?.rightsizing).toMatchObject({
      window: "500m",
      method: { cpuPercentile: 95, memoryBuffer: 1.15, cpuMin: 0.01, memoryMinBytes: 100_000_000 },
      source: server.url,
    });
  });

  it("takes p95 over every pod's samples together and the largest working set plus 15%", () => {
    expect(workload("shop/Deployment/web")?.containers).toEqual([
      {
        name: "web",
        requests: { cpu: 0.5, memoryBytes: 512 * MIB },
        usage: { cpuP95: 0.095, memoryMaxBytes: 200 * MIB },
        recommended: { cpu: 0.095, memoryBytes: 241_172_480 },
        status: "over",
      },
    ]);
  });

  // web's idle: per pod, 405m and 295,698,432 bytes (282Mi) above the recommendation, on an m6i.large ($0.096;
  // 1,930m and 6,903Mi allocatable; CPU part 0.096 x 0.06101 / 0.08957 = $0.06539, memory part $0.03061):
  // 0.06539 x 405 / 1,930 + 0.03061 x 282 / 6,903 = $0.01372 + $0.00125 = $0.01497; two pods, $0.0299.
  it("says what a workload's over-requests hold idle on the nodes its pods run on, and by namespace", () => {
    expect(workload("shop/Deployment/web")?.idleHourlyUsd).toBeCloseTo(0.0299, 4);
    // shop's: web $0.0299; api 50m and 129.5Mi over (0.06539 x 50 / 1,930 + 0.03061 x 129.5 / 6,903 = $0.0023); gappy
    // 404m and 397Mi over ($0.0137 + $0.0018 = $0.0154); batch $0.0001 (its memory); cache none (no data): $0.0477.
    expect(json?.rightsizing?.idleByNamespace.find((n) => n.namespace === "shop")?.idleHourlyUsd).toBeCloseTo(0.0477, 3);
  });

  it("reads a restarted container's counter through its reset, and a pod a rollout replaced as the same workload", () => {
    expect(workload("shop/Deployment/api")?.containers[0]).toMatchObject({
      usage: { cpuP95: 0.2, memoryMaxBytes: 110 * MIB },
      recommended: { cpu: 0.2, memoryBytes: 132_644_864 },
      status: "over",
    });
  });

  it("leaves out the steps a scrape gap leaves without a rate", () => {
    expect(workload("shop/Deployment/gappy")?.containers[0]).toMatchObject({ usage: { cpuP95: 0.09555 }, recommended: { cpu: 0.096 } });
  });

  it("lists a container that uses more than it asks first, as under", () => {
    expect(json?.rightsizing?.workloads[0].workload).toBe("shop/Deployment/batch");
    expect(workload("shop/Deployment/batch")?.containers[0]).toMatchObject({
      usage: { cpuP95: 0.3 },
      recommended: { cpu: 0.3 },
      status: "under",
      restarts: 2,
      oomKilled: true,
    });
    // Where kube-state-metrics has no series for a container, neither field is there.
    expect(workload("shop/Deployment/web")?.containers[0]).not.toHaveProperty("restarts");
  });

  it("keeps a workload Prometheus never saw at its requests, and says so", () => {
    expect(workload("shop/Deployment/cache")?.containers[0]).toMatchObject({ status: "no-data", recommended: { cpu: 0.5, memoryBytes: 512 * MIB } });
    expect(json?.warnings).toContain("shop/Deployment/cache: no usage in Prometheus for cache: kept at their requests");
  });

  it("prices the rightsize moves, no dearer than the fresh start", () => {
    const rightsize = json?.moves.find((m) => m.name === "rightsize");
    expect(rightsize).toBeDefined();
    expect(rightsize?.hourlyUsd).toBeLessThanOrEqual(json?.freshStart.hourlyUsd ?? 0);
    expect(json?.moves.map((m) => m.name)).toEqual(["arm64", "spot", "arm64+spot", "rightsize", "rightsize+arm64+spot"]);
  });

  // batch's idle: its memory request is 13Mi above the 115Mi recommended (its CPU is under, so none there); on an
  // m6i.large ($0.096; 1,930m and 6,903Mi) the memory part is 0.096 x 0.02856 / (0.06101 + 0.02856) = $0.03061,
  // and 13/6,903 of it is $0.0000576: $0.0001.
  it("shows the containers to right-size in the table, under-requested first, with the method and the source", async () => {
    const { code, out } = await savingsOf(objects, ["--prometheus", server.url, "--usage-window", "500m"]);
    expect(code).toBe(0);
    const lines = out.split("\n");
    const at = lines.indexOf(`Requests against usage (CPU p95 of its 5-minute rate, memory peak + 15%, over 500m, from ${server.url}):`);
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^container +status +requests +used \(p95 \/ max\) +recommended +idle \$\/hour \(workload\)$/);
    expect(lines[at + 2]).toMatch(/^-+( +-+){5}$/);
    expect(lines[at + 3]).toMatch(/^shop\/Deployment\/batch batch +under +100m \/ 128 MiB +300m \/ 100 MiB +300m \/ 115 MiB +\$0\.0001$/);
  });

  it("exits 1 naming the server when Prometheus cannot be read, and prints no report", async () => {
    const { code, out, err } = await savingsOf(objects, ["--prometheus", "http://127.0.0.1:9", "--format", "json"]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toBe(
      "npm run savings: cannot reach Prometheus at http://127.0.0.1:9 (ECONNREFUSED): check the URL, and that this machine reaches it (kubectl port-forward -n <namespace> svc/<prometheus> 9090 gives http://localhost:9090)\n",
    );
  });
});
