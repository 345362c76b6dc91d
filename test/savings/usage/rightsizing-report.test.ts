import type { IPod } from "kubernetes-models/v1/Pod";
import type { SavingsJson } from "../../../src/savings/savings-report";
import { deploymentPodName, deploymentPods } from "../../fixtures/eks-cluster/cluster-objects";
import { type ContainerOf, cpuSeries, lastTerminatedSeries, memorySeries, podCpuSeries, restartsSeries, type Steps } from "../../helpers/cadvisor-series";
import { describeWithPrometheus, type PrometheusServer, startPrometheus } from "../../helpers/prometheus-server";
import { AT, addOns, poolNode, poolObjects, savingsOf, smallPool } from "../cluster-states";

// `npm run savings -- --state ... --prometheus URL` end to end: a cluster state as a real EKS cluster returns it,
// and a real Prometheus (2.42) loaded with its pods' series as the kubelet's cAdvisor and kube-state-metrics write
// them (../../helpers/cadvisor-series.ts: every minute, with the labels a kube-prometheus scrape stores, and each
// pod's own cgroup beside its containers). rate(x[5m]) at a 5-minute step holds six samples, one at each end, so it
// is exactly the step's rate; a window with fewer than two samples has no rate.
//
// The window is 500 minutes ending at AT (2026-11-26T12:00:00Z): steps k = 0..100 at AT - 500m + 5k minutes; CPU
// counters start one step earlier. By construction:
//   web (Deployment, 2 replicas, 500m / 512Mi each): both pods' rate at step k is k/1000 cores, so the 202 samples
//     hold each of 0.000..0.100 twice; p95 ranks 0.95 x 201 = 190.95, between sorted samples 190 and 191, both
//     0.095: 95m. Memory peaks at 200Mi: 200 x 1,048,576 x 1.15 = 241,172,480 bytes. Over (95m < 450m).
//   api (1 replica, 250m / 256Mi): 0.2 cores throughout, its container restarted at step 60 (the counter starts
//     again from what it used since the minute before: rate adds the value before the drop back, so the step keeps
//     its 0.2). p95 0.2: 200m, below 225m (90% of 250m): over. Its first pod was replaced by a rollout at step 50:
//     the old pod's name (another template hash) is read as the same workload's, and its 110Mi peak is the
//     workload's (the new pod's is 100Mi): 110 x 1,048,576 x 1.15 = 132,644,864 bytes.
//   batch (1 replica, 100m / 128Mi): 0.3 cores, more than it asks: under, and listed first.
//   gappy (1 replica, 500m / 512Mi): k/1000 cores, not scraped between steps 39 and 50: the windows of steps 40 to
//     50 hold one sample or none and have no rate, 90
//     remain (0..39 and 51..100); p95 ranks 0.95 x 89 = 84.55, between sorted 84 (0.095) and 85 (0.096):
//     0.095 x 0.45 + 0.096 x 0.55 = 0.09555: 96m once rounded up to the millicore.
//   cache (1 replica): never scraped: no-data, kept at its requests.

const A = "ip-10-0-1-10.ec2.internal";
const B = "ip-10-0-2-20.ec2.internal";
const MINUTE = 60_000;
const MIB = 1024 * 1024;
const END = Date.parse(AT);
const START = END - 500 * MINUTE;

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

const W: Steps = { start: START, steps: 100 };
const at = (pod: string, container: string, node: string): ContainerOf => ({ namespace: "shop", pod, container, node });

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
    const web0 = at(name(web[0]), "web", A);
    const batch0 = at(name(batch[0]), "batch", B);
    server = await startPrometheus([
      cpuSeries(W, web0, (k) => k / 1000),
      memorySeries(W, web0, 150 * MIB, 200 * MIB, 70),
      // The pod's own cgroup at ten times its container's rate: were it read, web's p95 would be 950m.
      podCpuSeries(W, web0, (k) => k / 100),
      cpuSeries(W, at(name(web[1]), "web", B), (k) => k / 1000),
      memorySeries(W, at(name(web[1]), "web", B), 150 * MIB, 200 * MIB, 70),
      cpuSeries(W, at(oldApi, "api", A), () => 0.2, { to: 49 }),
      memorySeries(W, at(oldApi, "api", A), 90 * MIB, 110 * MIB, 49, { to: 49 }),
      cpuSeries(W, at(name(api[0]), "api", A), () => 0.2, { from: 50, resetAt: 60 }),
      memorySeries(W, at(name(api[0]), "api", A), 80 * MIB, 100 * MIB, 70, { from: 50 }),
      cpuSeries(W, batch0, () => 0.3),
      memorySeries(W, batch0, 100 * MIB, 100 * MIB, 70),
      // kube-state-metrics: batch restarted twice in the window (at steps 30 and 60), the last time for memory.
      restartsSeries(W, batch0, (k) => (k < 30 ? 0 : k < 60 ? 1 : 2)),
      lastTerminatedSeries(W, batch0, "OOMKilled", 60),
      cpuSeries(W, at(name(gappy[0]), "gappy", B), (k) => k / 1000, { gap: { after: 39, before: 50 } }),
      memorySeries(W, at(name(gappy[0]), "gappy", B), 100 * MIB, 100 * MIB, 70),
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
