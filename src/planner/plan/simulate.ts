import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { ClusterModel, PoolModel } from "../model";
import { type PackGroup, type PackResult, pack } from "../simulation/pack";
import { FitCache, type FitResult } from "../simulation/pod-fit";
import { type Overhead, type PoolOfferings, type Prices, poolOfferings, systemOverhead, withOverhead } from "../simulation/pool-offerings";
import type { DaemonSetShape, PodShape } from "../workload/workload-model";
import type { Scenario } from "./scenarios";

// One scenario, end to end: each pool's offerings under the scenario's requirements, the DaemonSet overhead
// of each pool, every pod group's fit on every pool, then the packing.

export interface SimulationInput {
  readonly cluster: ClusterModel;
  readonly catalogue: InstanceCatalogue;
  readonly prices: Prices;
  /** The node-bound pods (Fargate-bound ones are priced apart). */
  readonly groups: readonly PackGroup[];
  readonly daemonSets: readonly DaemonSetShape[];
}

/** Karpenter tries pools by descending weight; equal weights by name, for a stable plan. */
export function poolOrder(pools: readonly PoolModel[]): PoolModel[] {
  return [...pools].sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Karpenter packs the largest pods first (CPU, then memory); the id keeps ties stable. */
export function podOrder(groups: readonly PackGroup[]): PackGroup[] {
  return [...groups].sort((a, b) => b.pod.cpuMillis - a.pod.cpuMillis || b.pod.memoryBytes - a.pod.memoryBytes || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function addOverhead(a: Overhead, pod: PodShape): Overhead {
  const extended = { ...a.extended };
  for (const [name, amount] of Object.entries(pod.extended)) extended[name] = (extended[name] ?? 0) + amount;
  return { cpu: a.cpu + pod.cpuMillis, memory: a.memory + pod.memoryBytes, pods: a.pods + 1, extended };
}

export interface ScenarioRun {
  readonly pools: readonly PoolOfferings[];
  readonly result: PackResult;
  /** A group's fit on the pool at this index (cached). */
  readonly fits: (group: PackGroup, pool: number) => FitResult;
}

export function simulateScenario(scenario: Scenario, input: SimulationInput): ScenarioRun {
  const context = { catalogue: input.catalogue, prices: input.prices, region: input.cluster.region, zones: input.cluster.zones };
  const fits = new FitCache(input.catalogue.labelKeys, input.cluster.region);
  const pools = poolOrder(input.cluster.pools).map((pool) => {
    const offerings = poolOfferings(pool, scenario.rewrite(pool), context);
    // A workload DaemonSet runs on the pool's nodes when it tolerates the taints and selects the pool's types.
    let overhead = systemOverhead(pool, input.cluster.nodeDaemonSets);
    for (const ds of input.daemonSets) if (fits.fit(ds.pod, offerings).ok) overhead = addOverhead(overhead, ds.pod);
    return withOverhead(offerings, overhead);
  });
  const groups = podOrder(input.groups);
  const matrix: FitResult[][] = groups.map((g) => pools.map((p) => fits.fit(g.pod, p)));
  return {
    pools,
    result: pack({ pools, groups, fits: matrix, spotKnown: input.prices.spotKnown }),
    fits: (group, pool) => fits.fit(group.pod, pools[pool]),
  };
}
