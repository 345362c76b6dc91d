import * as path from "node:path";
import { readWorkload } from "../../../src/planner/workload/read-workload";
import { MIB } from "../../../src/shared/quantity";
import { nodesOf, planOf, scenario, workloadFile } from "../helpers";

// Published manifests, as users apply them (fixtures/real-workloads, each with its source and licence): each
// plans without a refusal, and what it asks for is read as kubectl would apply it. The expected counts are
// read off the manifests by hand.

const REAL = path.join(__dirname, "..", "fixtures", "real-workloads");
const DEFAULT = { name: "demo" };

const totalPods = (groups: readonly { replicas: number }[]) => groups.reduce((n, g) => n + g.replicas, 0);

describe("published manifests", () => {
  it("Online Boutique: 12 Deployments of one replica each, all placed", () => {
    const workload = readWorkload(path.join(REAL, "online-boutique.yaml"));
    expect(totalPods(workload.groups)).toBe(12);
    const asConfigured = scenario(planOf(DEFAULT, path.join(REAL, "online-boutique.yaml")), "as-configured");
    expect(asConfigured.unschedulable).toEqual([]);
    expect(asConfigured.nodes.reduce((n, node) => n + node.pods, 0)).toBe(12);
  });

  it("AWS's retail store sample (0.8.4, what the multiarch talk applies): its ConfigMap repeats a key, which kubectl takes", () => {
    const workload = readWorkload(path.join(REAL, "retail-store-0.8.4.yaml"));
    // 8 Deployments (ui has 1 replica, ...) and 3 StatefulSets, one pod each: 11.
    expect(totalPods(workload.groups)).toBe(11);
    expect(workload.warnings).toContain(
      `${path.join(REAL, "retail-store-0.8.4.yaml")}: line 249, column 3: "CARTS_DYNAMODB_CREATETABLE: "true"" repeats a key of the same mapping; the last value is used, as kubectl apply does (it drops the earlier one before sending)`,
    );
    expect(scenario(planOf(DEFAULT, path.join(REAL, "retail-store-0.8.4.yaml")), "as-configured").unschedulable).toEqual([]);
  });

  it("the retail store sample at 0.5.0 defines objects twice: the last definition stands, as kubectl apply leaves it", () => {
    const file = path.join(REAL, "retail-store-0.5.0-duplicated.yaml");
    const workload = readWorkload(file);
    expect(workload.warnings.find((w) => w.startsWith("objects defined more than once"))).toBe(
      `objects defined more than once; the last definition stands, as kubectl apply leaves it: Deployment default/catalog (${file}), StatefulSet default/catalog-mysql (${file}), Deployment default/ui (${file})`,
    );
    expect(new Set(workload.groups.map((g) => g.id)).size).toBe(workload.groups.length);
  });

  it("kube-prometheus: the operator's Prometheus and Alertmanager pods, its Deployments, and node-exporter on every node", () => {
    const workload = readWorkload(path.join(REAL, "kube-prometheus"));
    const byId = new Map(workload.groups.map((g) => [g.id, g]));
    // Prometheus k8s: 2 replicas; the prometheus container requests 400Mi, the config-reloader 10m / 50Mi.
    expect(byId.get("monitoring/prometheus-k8s")).toMatchObject({ replicas: 2, pod: { cpuMillis: 10, memoryBytes: 450 * MIB } });
    // Alertmanager main: 3 replicas of 4m / 100Mi, plus the reloader.
    expect(byId.get("monitoring/alertmanager-main")).toMatchObject({ replicas: 3, pod: { cpuMillis: 14, memoryBytes: 150 * MIB } });
    // Deployments: blackbox-exporter 1, grafana 1, kube-state-metrics 1, prometheus-adapter 2, prometheus-operator 1.
    expect(totalPods(workload.groups)).toBe(11);
    expect(workload.daemonSets.map((d) => d.id)).toEqual(["monitoring/node-exporter"]);
    // The ConfigMapList of dashboards is a list kubectl applies item by item, and APIService a built-in kind that
    // runs no pods: no kind left unknown but the operator's rules and monitors.
    expect(workload.warnings).toContain("kinds the planner does not know were skipped: PrometheusRule, ServiceMonitor");
    const plan = planOf(DEFAULT, path.join(REAL, "kube-prometheus"));
    expect(plan.json.daemonSets.map((d) => [d.id, d.nodes])).toEqual([["monitoring/node-exporter", scenario(plan, "as-configured").nodeCount]]);
  });
});

describe("published manifests, what the cluster adds to them", () => {
  it("Bank of Anthos: ephemeral-storage requests packed against the 44 GiB kubelet leaves of a 50 GiB root volume", () => {
    const folder = path.join(REAL, "bank-of-anthos");
    const storage = new Map(readWorkload(folder).groups.map((g) => [g.id, (g.pod.extended["ephemeral-storage"] ?? 0) / MIB]));
    // balance-reader, ledger-writer and transaction-history 0.5Gi; contacts and userservice 0.25Gi; the rest none.
    expect([...storage.entries()].filter(([, mib]) => mib > 0)).toEqual([
      ["default/balancereader", 512],
      ["default/contacts", 256],
      ["default/ledgerwriter", 512],
      ["default/transactionhistory", 512],
      ["default/userservice", 256],
    ]);
    const asConfigured = scenario(planOf(DEFAULT, folder), "as-configured");
    expect(nodesOf(asConfigured)).toEqual(["c6g.large spot 9 pods"]);
  });
});

describe("what kubectl and Helm users feed the planner", () => {
  it("leaves Helm hook objects out, with a word", () => {
    const file = workloadFile(`apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations: { helm.sh/hook: pre-install }
spec:
  template:
    spec:
      containers: [{ name: m, resources: { requests: { cpu: "4" } } }]
---
apiVersion: v1
kind: Pod
metadata: { name: test-connection, annotations: { "helm.sh/hook": test } }
spec:
  containers: [{ name: t }]
`);
    const workload = readWorkload(file);
    expect(workload.groups).toEqual([]);
    expect(workload.warnings).toContain(
      "Helm hook objects run around a release, not steadily, and were left out: Job default/migrate (helm.sh/hook: pre-install), Pod default/test-connection (helm.sh/hook: test)",
    );
  });

  it("reads standard input for --workload -", () => {
    const yaml = "kind: Pod\nmetadata: { name: p }\nspec:\n  containers: [{ name: c, resources: { requests: { cpu: 100m } } }]\n";
    const workload = readWorkload("-", () => Buffer.from(yaml));
    expect(workload.groups.map((g) => [g.id, g.pod.cpuMillis])).toEqual([["default/p", 100]]);
  });

  it("KEDA ScaledObjects scale like HPAs: 0 to 100 replicas unless told", () => {
    const file = workloadFile(`apiVersion: apps/v1
kind: Deployment
metadata: { name: worker }
spec:
  template:
    spec:
      containers: [{ name: w, resources: { requests: { cpu: 500m } } }]
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: { name: worker }
spec:
  scaleTargetRef: { name: worker }
  triggers: [{ type: cron, metadata: { timezone: Etc/UTC, start: 0 8 * * *, end: 0 18 * * *, desiredReplicas: "5" } }]
`);
    expect(readWorkload(file).groups[0]).toMatchObject({
      replicas: 0,
      autoscaling: { source: "ScaledObject default/worker", minReplicas: 0, maxReplicas: 100 },
    });
  });

  it("an HPA leaves a workload pinned to 0 replicas alone, and names a target the workload does not hold", () => {
    const file = workloadFile(`apiVersion: apps/v1
kind: Deployment
metadata: { name: paused }
spec:
  replicas: 0
  template:
    spec:
      containers: [{ name: p, resources: { requests: { cpu: 500m } } }]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: paused }
spec: { scaleTargetRef: { kind: Deployment, name: paused }, maxReplicas: 5 }
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: ghost }
spec: { scaleTargetRef: { kind: Deployment, name: ghost }, maxReplicas: 5 }
`);
    const workload = readWorkload(file);
    expect(workload.groups[0]).toMatchObject({ replicas: 0 });
    expect(workload.groups[0].autoscaling).toBeUndefined();
    expect(workload.warnings).toContain("HorizontalPodAutoscaler default/ghost scales Deployment default/ghost, which the workload does not hold: ignored");
  });

  it("a workload of DaemonSets alone launches no node, and says what it adds to every node", () => {
    const file = workloadFile(`apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  template:
    spec:
      containers: [{ name: a, resources: { requests: { cpu: 200m, memory: 128Mi } } }]
`);
    const plan = planOf(DEFAULT, file);
    expect(scenario(plan, "as-configured").nodeCount).toBe(0);
    expect(plan.json.daemonSets).toEqual([{ id: "default/agent", cpuMillis: 200, memoryBytes: 128 * MIB, nodes: 0 }]);
    expect(plan.json.warnings).toContain(
      "the workload has DaemonSets only: Karpenter launches no node for them (it provisions for pending pods); each adds its requests to every node it runs on: default/agent 200m CPU / 128 MiB",
    );
  });
});
