import { performance } from "node:perf_hooks";
import { readCatalogueFile } from "../../instance-catalogue/catalogue-file";
import { catalogueFrom, defaultCataloguePath, type InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { MIB } from "../../shared/quantity";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { clusterModelFromDocument } from "../cluster-model";
import type { ClusterModel } from "../model";
import { buildPlan } from "../plan/build-plan";
import { convergedNodes } from "../plan/converge";
import { scenariosFor } from "../plan/scenarios";
import { simulateScenario } from "../plan/simulate";
import { PLAIN_POD, type PodGroup, type Workload } from "../workload/workload-model";
import { seededRandom } from "./seeded-random";

// The planner's speed: whole plans (every scenario) for generated workloads, as pods and instance types grow.
// Deterministic inputs (a fixed linear congruential sequence), median of several runs.

/** `pods` pods in groups of `replicas` identical pods, sizes from 100m to 4 CPU and 128Mi to 8Gi. */
export function syntheticWorkload(pods: number, replicas: number): Workload {
  const next = seededRandom();
  const groups: PodGroup[] = [];
  for (let i = 0, planned = 0; planned < pods; i++) {
    const count = Math.min(replicas, pods - planned);
    planned += count;
    const arch = next() < 0.1 ? "amd64" : undefined;
    groups.push({
      id: `bench/app-${i}`,
      kind: "Deployment",
      namespace: "bench",
      name: `app-${i}`,
      labels: {},
      replicas: count,
      file: "synthetic",
      pod: {
        ...PLAIN_POD,
        cpuMillis: 100 + Math.floor(next() * 39) * 100,
        memoryBytes: (128 + Math.floor(next() * 63) * 128) * MIB,
        nodeSelector: arch === undefined ? [] : [{ key: LABEL.arch, operator: "In", values: [arch] }],
      },
    });
  }
  return { groups, daemonSets: [], pdbs: [], warnings: [] };
}

/**
 * The same workload as manifests a user would apply: `pods` pods in Deployments of `replicas`, sizes as
 * syntheticWorkload's, split into files of at most `perFile` documents (a workload file may be 5 MiB).
 */
export function syntheticManifests(pods: number, replicas: number, perFile = 10_000): string[] {
  const files: string[] = [];
  let documents: string[] = [];
  for (const g of syntheticWorkload(pods, replicas).groups) {
    const selector = g.pod.nodeSelector.length === 0 ? "" : `      nodeSelector: { kubernetes.io/arch: ${g.pod.nodeSelector[0].values?.[0]} }\n`;
    documents.push(`apiVersion: apps/v1
kind: Deployment
metadata: { name: ${g.name}, namespace: ${g.namespace}, labels: { app: ${g.name} } }
spec:
  replicas: ${g.replicas}
  selector: { matchLabels: { app: ${g.name} } }
  template:
    metadata: { labels: { app: ${g.name}, tier: bench } }
    spec:
${selector}      containers:
        - name: main
          image: public.ecr.aws/docker/library/nginx:1.27
          ports: [{ containerPort: 8080 }]
          resources:
            requests: { cpu: ${g.pod.cpuMillis}m, memory: ${g.pod.memoryBytes / MIB}Mi }
            limits: { memory: ${g.pod.memoryBytes / MIB}Mi }
`);
    if (documents.length === perFile) {
      files.push(documents.join("---\n"));
      documents = [];
    }
  }
  if (documents.length > 0) files.push(documents.join("---\n"));
  return files;
}

/**
 * The default pool with limits that do not bind, so that a bench plans every pod in one batch (each new
 * NodeClaim reserves its largest option, up to 192 vCPU and a TiB: limits must allow that many times over).
 */
export const UNLIMITED_DEFAULT_POOL = 'name: bench\nnodePools:\n  - name: default\n    limits: { cpu: "10000000", memory: 40000000Gi }\n';

/** A pool that admits every type of the catalogue: every category, every generation. */
export function allTypesCluster(catalogue: InstanceCatalogue): ClusterModel {
  return clusterModelFromDocument(
    {
      name: "bench",
      nodePools: [{ name: "all", instanceCategories: catalogue.names("category"), minGeneration: 1, limits: { cpu: 1000000, memory: "100000Ti" } }],
    },
    "bench",
  );
}

/** The first `count` types of the catalogue (by name), priced as they are. */
export function subCatalogue(count: number): InstanceCatalogue {
  const file = readCatalogueFile(defaultCataloguePath());
  return catalogueFrom({ ...file, types: file.types.slice(0, count) });
}

export function timePlan(cluster: ClusterModel, catalogue: InstanceCatalogue, workload: Workload, runs: number): { medianMs: number; nodes: number } {
  const times: number[] = [];
  let nodes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const plan = buildPlan({ cluster, configSource: "bench", catalogue, workload, workloadSource: "bench" });
    times.push(performance.now() - started);
    nodes = plan.json.scenarios[0].nodeCount;
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)], nodes };
}

/**
 * The launch and the settling of every scenario, timed apart on the same input: what consolidation adds to a plan
 * (the plan's own scenario list, each launched by the provisioner, then settled by the disruption controller).
 */
export function timeLaunchAndSettle(cluster: ClusterModel, catalogue: InstanceCatalogue, workload: Workload): { launchMs: number; settleMs: number } {
  const input = { cluster, catalogue, groups: workload.groups, daemonSets: workload.daemonSets };
  const scenarios = scenariosFor(
    catalogue.spot !== undefined,
    workload.groups.some((g) => g.autoscaling !== undefined),
  );
  const started = performance.now();
  const runs = scenarios.map((s) => simulateScenario(s, input));
  const launched = performance.now();
  for (const run of runs) convergedNodes(run);
  return { launchMs: launched - started, settleMs: performance.now() - launched };
}
