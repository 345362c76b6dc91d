import { performance } from "node:perf_hooks";
import { readCatalogueFile } from "../../instance-catalogue/catalogue-file";
import { catalogueFrom, defaultCataloguePath, type InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { MIB } from "../../shared/quantity";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { clusterModelFromDocument } from "../cluster-model";
import type { ClusterModel } from "../model";
import { buildPlan } from "../plan/build-plan";
import { PLAIN_POD, type PodGroup, type Workload } from "../workload/workload-model";

// The planner's speed: whole plans (every scenario) for generated workloads, as pods and instance types grow.
// Deterministic inputs (a fixed linear congruential sequence), median of several runs.

/** `pods` pods in groups of `replicas` identical pods, sizes from 100m to 4 CPU and 128Mi to 8Gi. */
export function syntheticWorkload(pods: number, replicas: number): Workload {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const groups: PodGroup[] = [];
  for (let i = 0; groups.reduce((n, g) => n + g.replicas, 0) < pods; i++) {
    const count = Math.min(replicas, pods - groups.reduce((n, g) => n + g.replicas, 0));
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
  return { groups, daemonSets: [], warnings: [] };
}

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
