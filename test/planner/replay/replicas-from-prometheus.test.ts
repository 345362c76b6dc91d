import * as fs from "node:fs";
import * as path from "node:path";
import { describeWithPrometheus, type PrometheusSeries, type PrometheusServer, startPrometheus } from "../../helpers/prometheus-server";
import { testFolder } from "../../helpers/test-folder";
import { runReplay } from "./run-replay";

// --replicas-from against a real Prometheus (2.42) holding kube-state-metrics' series as a kube-prometheus scrape
// stores them (every 30 s, with the scrape's labels): the curve read from it must replay exactly as the same curve
// written by hand.

const T0 = Date.parse("2026-11-20T08:00:00Z");
const HOUR = 3600;

/** kube-state-metrics' target labels, as the kube-prometheus-stack's ServiceMonitor scrapes it. */
const SCRAPE = {
  container: "kube-state-metrics",
  endpoint: "http",
  instance: "10.0.1.17:8080",
  job: "kube-state-metrics",
  pod: "kube-prometheus-stack-kube-state-metrics-6b8f7c9d4-x2k9q",
  service: "kube-prometheus-stack-kube-state-metrics",
};

/** A gauge every 30 s over the hour, its value at each second from the start. */
function every30s(metric: string, labels: Record<string, string>, value: (t: number) => number): PrometheusSeries {
  const samples: [number, number][] = [];
  for (let t = 0; t <= HOUR; t += 30) samples.push([T0 + t * 1000, value(t)]);
  return { metric, labels: { ...SCRAPE, ...labels }, samples };
}

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: shop }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: web, image: nginx, resources: { requests: { cpu: 500m, memory: 1Gi } } }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: worker, namespace: shop }
spec:
  selector: { matchLabels: { app: worker } }
  template:
    metadata: { labels: { app: worker } }
    spec:
      containers: [{ name: worker, image: busybox, resources: { requests: { cpu: "1", memory: 2Gi } } }]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: worker, namespace: shop }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: worker }
  minReplicas: 1
  maxReplicas: 10
  metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } } }]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: cache, namespace: shop }
spec:
  serviceName: cache
  replicas: 2
  selector: { matchLabels: { app: cache } }
  template:
    metadata: { labels: { app: cache } }
    spec:
      containers: [{ name: redis, image: redis, resources: { requests: { cpu: 250m, memory: 512Mi } } }]
`;

/** The same curve, by hand: web 2 -> 20 at 10 min -> 2 at 40 min; worker (its HPA's desired replicas) 1 -> 3 at 20 min; cache 1. */
const BY_HAND = [
  "time,workload,replicas",
  "2026-11-20T08:00:00Z,shop/Deployment/web,2",
  "2026-11-20T08:00:00Z,shop/Deployment/worker,1",
  "2026-11-20T08:00:00Z,shop/StatefulSet/cache,1",
  "2026-11-20T08:10:00Z,shop/Deployment/web,20",
  "2026-11-20T08:20:00Z,shop/Deployment/worker,3",
  "2026-11-20T08:40:00Z,shop/Deployment/web,2",
].join("\n");

const run = runReplay;

describeWithPrometheus("npm run replay -- --replicas-from: the curve from kube-state-metrics", () => {
  let server: PrometheusServer | undefined;
  const dir = testFolder("replay-prometheus");
  const workload = path.join(dir, "workload.yaml");
  const curve = path.join(dir, "curve.csv");

  beforeAll(async () => {
    fs.writeFileSync(workload, WORKLOAD);
    fs.writeFileSync(curve, `${BY_HAND}\n`);
    server = await startPrometheus([
      every30s("kube_deployment_spec_replicas", { namespace: "shop", deployment: "web" }, (t) => (t >= 600 && t < 2400 ? 20 : 2)),
      every30s("kube_statefulset_replicas", { namespace: "shop", statefulset: "cache" }, () => 1),
      // A Deployment the manifests do not have: not replayed, and said so.
      every30s("kube_deployment_spec_replicas", { namespace: "ops", deployment: "grafana" }, () => 1),
      // worker's spec replicas are not scraped here; its HPA's desired replicas are, with its target on the info series.
      every30s("kube_horizontalpodautoscaler_status_desired_replicas", { namespace: "shop", horizontalpodautoscaler: "worker" }, (t) => (t >= 1200 ? 3 : 1)),
      every30s(
        "kube_horizontalpodautoscaler_info",
        {
          namespace: "shop",
          horizontalpodautoscaler: "worker",
          scaletargetref_api_version: "apps/v1",
          scaletargetref_kind: "Deployment",
          scaletargetref_name: "worker",
        },
        () => 1,
      ),
    ]);
  }, 120_000);
  afterAll(() => server?.stop());

  it("replays the curve read from Prometheus exactly as the same curve written by hand", async () => {
    const url = server?.url as string;
    const fromPrometheus = await run([
      "--workload",
      workload,
      "--replicas-from",
      url,
      "--from",
      "2026-11-20T08:00:00Z",
      "--to",
      "2026-11-20T09:00:00Z",
      "--format",
      "json",
    ]);
    const byHand = await run(["--workload", workload, "--replicas", curve, "--format", "json"]);
    expect([fromPrometheus.code, fromPrometheus.err]).toEqual([0, ""]);
    expect(byHand.code).toBe(0);
    const a = JSON.parse(fromPrometheus.out);
    const b = JSON.parse(byHand.out);
    expect(a.curve).toBe(url);
    expect(a.warnings).toEqual(["1 workload Prometheus has replicas of is not in the workload, and not replayed: ops/Deployment/grafana", ...b.warnings]);
    expect({ ...a, curve: "", warnings: [] }).toEqual({ ...b, curve: "", warnings: [] });
    // The curve moved the cluster: the scale-up launched nodes, and the period is the wall clock's.
    expect(a.nodes.launched).toBeGreaterThan(0);
    expect(a.period.from).toBe("2026-11-20T08:00:00.000Z");
  });

  it("says in one line, exit 1, when no replica series is there, and when the server cannot be reached", async () => {
    const url = server?.url as string;
    const empty = await run(["--workload", workload, "--replicas-from", url, "--from", "2026-11-01T00:00:00Z", "--to", "2026-11-01T01:00:00Z"]);
    expect(empty).toEqual({
      code: 1,
      out: "",
      err: "npm run replay: no replica series between 2026-11-01T00:00:00.000Z and 2026-11-01T01:00:00.000Z (kube_deployment_spec_replicas, kube_statefulset_replicas, kube_horizontalpodautoscaler_status_desired_replicas): is kube-state-metrics scraped?\n",
    });
    const gone = await run(["--workload", workload, "--replicas-from", "http://127.0.0.1:9", "--from", "2026-11-20T08:00:00Z", "--to", "2026-11-20T09:00:00Z"]);
    expect(gone.code).toBe(1);
    expect(gone.err.split("\n").filter(Boolean)).toHaveLength(1);
    expect(gone.err).toMatch(/^npm run replay: .*127\.0\.0\.1:9/);
  });
});
