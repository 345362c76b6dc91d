import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { listPrices } from "../data/list-prices";
import type { ClusterModel } from "../model";
import type { PackGroup, PackResult, PlannedNode } from "../simulation/pack";
import { relaunch } from "../simulation/pack";
import { type Candidate, cheapestSpot, limitUsage } from "../simulation/pool-offerings";
import type { Workload } from "../workload/workload-model";
import { baseCosts } from "./base-costs";
import { fargateProfileFor } from "./fargate";
import { cheapestPerShape, type FloorOffering, floorHourlyUsd } from "./floor";
import { HOURS_PER_MONTH, type Plan, roundUsd, type ScenarioDetail, type ScenarioJson } from "./plan-types";
import { pricesOf } from "./prices";
import { type Scenario, scenariosFor } from "./scenarios";
import { type ScenarioRun, type SimulationInput, simulateScenario } from "./simulate";

// The whole plan: which pods go to Fargate, each scenario's nodes, the base costs, the floor and the
// warnings a reader needs to trust (or distrust) the numbers. Pure: the same input gives the same plan.

export interface PlanInput {
  readonly cluster: ClusterModel;
  readonly configSource: string;
  readonly catalogue: InstanceCatalogue;
  readonly workload: Workload;
  readonly workloadSource: string;
}

function scenarioJson(name: Scenario["name"], result: PackResult): ScenarioJson {
  const hourly = roundUsd(result.nodes.reduce((sum, n) => sum + n.hourlyUsd, 0));
  return {
    name,
    nodes: result.nodes.map((n) => ({
      pool: n.pool,
      instanceType: n.type.name,
      capacityType: n.capacityType,
      arch: n.type.arch,
      ...(n.zone === undefined ? {} : { zone: n.zone }),
      pods: n.pods,
      hourlyUsd: n.hourlyUsd,
    })),
    nodeCount: result.nodes.length,
    hourlyUsd: hourly,
    monthlyUsd: roundUsd(hourly * HOURS_PER_MONTH, 2),
    unschedulable: result.unschedulable.map((u) => ({ pod: u.count === 1 ? u.id : `${u.id} (${u.count} pods)`, reason: u.reason })),
  };
}

const cost = (nodes: readonly PlannedNode[]) => nodes.reduce((sum, n) => sum + n.hourlyUsd, 0);

/**
 * First-fit decreasing is a heuristic: a larger choice of types can, rarely, pack worse. The amd64-only
 * packing is also a valid multiarch packing, and re-launched with arm64 allowed (only types no larger than
 * the node's, so pool limits still hold) it costs at most as much; multiarch keeps the cheaper of the two,
 * as consolidation would.
 */
function bestMultiarch(own: ScenarioRun, amd64: ScenarioRun, input: SimulationInput): PackResult {
  if (amd64.result.unschedulable.length > 0) return own.result;
  const groups = new Map(input.groups.map((g) => [g.id, g]));
  const relaunched: PlannedNode[] = [];
  for (const node of amd64.result.nodes) {
    const p = own.pools.findIndex((o) => o.pool.name === node.pool);
    const contents = node.groups.map(({ id, count }) => {
      const group = groups.get(id) as PackGroup;
      return { group, fit: own.fits(group, p), count };
    });
    // No type larger than the node's in anything its pool limits (vCPUs and memory even without limits).
    const original = own.pools[p].candidates.find((c) => c.type === node.type) as Candidate;
    const limited = ["cpu", "memory", ...Object.keys(own.pools[p].pool.limits)];
    const again = relaunch(own.pools[p], contents, input.prices.spotKnown, (c) => limited.every((key) => limitUsage(c, key) <= limitUsage(original, key)));
    if (again === undefined) return own.result;
    relaunched.push(again);
  }
  return cost(relaunched) < cost(own.result.nodes) ? { nodes: relaunched, unschedulable: [] } : own.result;
}

function detail(scenario: Scenario, result: PackResult): ScenarioDetail {
  const sum = (f: (n: PlannedNode) => number) => result.nodes.reduce((s, n) => s + f(n), 0);
  return {
    name: scenario.name,
    description: scenario.description,
    nodes: result.nodes,
    podsScheduled: sum((n) => n.pods),
    podsUnschedulable: result.unschedulable.reduce((s, u) => s + u.count, 0),
    cpuRequested: sum((n) => n.cpuRequested),
    cpuAllocatable: sum((n) => n.cpuAllocatable),
    memoryRequested: sum((n) => n.memoryRequested),
    memoryAllocatable: sum((n) => n.memoryAllocatable),
  };
}

/** The allowed offerings of the as-configured pools, each type at its cheapest allowed price. */
function floorOfferings(run: ScenarioRun, spotKnown: boolean): FloorOffering[] {
  const best = new Map<string, FloorOffering>();
  for (const pool of run.pools) {
    for (const c of pool.candidates) {
      const options: number[] = [];
      if (pool.capacityTypes.includes("on-demand") && c.onDemandUsd !== undefined) options.push(c.onDemandUsd);
      if (pool.capacityTypes.includes("spot")) {
        // Spot only where the pool may launch: its zones, as the packer prices it (cheapestSpot).
        const spot = spotKnown ? cheapestSpot(c, pool.zones)?.usd : c.onDemandUsd;
        if (spot !== undefined) options.push(spot);
      }
      if (options.length === 0) continue;
      const usd = Math.min(...options);
      const seen = best.get(c.type.name);
      if (seen === undefined || usd < seen.hourlyUsd) best.set(c.type.name, { vcpu: c.type.vcpu, memoryMiB: c.type.memoryMiB, hourlyUsd: usd });
    }
  }
  return cheapestPerShape([...best.values()]);
}

function pricingWarnings(input: PlanInput, spotKnown: boolean): string[] {
  const warnings: string[] = [];
  const { catalogue, cluster } = input;
  if (!spotKnown) {
    warnings.push(
      "no spot prices offline: where a pool allows on-demand, nodes are priced on-demand (Karpenter would launch spot when it can, usually for less); spot-only pools are priced at the on-demand rate, an upper bound. Run with --live for spot prices.",
    );
  }
  if (catalogue.region !== cluster.region) {
    warnings.push(
      `instance prices are ${catalogue.region}'s (${catalogue.source.split(":")[0]}); ${cluster.region} differs: run with --live --region ${cluster.region}`,
    );
  }
  const fixed = listPrices();
  if (fixed.region !== cluster.region) warnings.push(`control plane, Fargate and NAT prices are ${fixed.region}'s list prices; ${cluster.region} may differ`);
  const windows = cluster.pools.filter((p) => p.nodeClass.os === "windows").map((p) => p.name);
  if (windows.length > 0)
    warnings.push(`Windows NodePools ${windows.join(", ")} are priced at Linux rates: the Windows license AWS adds per vCPU-hour is not included`);
  const minValues = cluster.pools.filter((p) => p.requirements.some((r) => r.minValues !== undefined)).map((p) => p.name);
  if (minValues.length > 0)
    warnings.push(`minValues (spot diversity) is not simulated: NodePools ${minValues.join(", ")} may need more types to choose from than a plan's node has`);
  if (cluster.zones === undefined && spotKnown)
    warnings.push("the cluster's zones are not known here (an existing VPC, or another region): spot prices of every zone are considered");
  return warnings;
}

export function buildPlan(input: PlanInput): Plan {
  const prices = pricesOf(input.catalogue);
  const { cluster, workload } = input;
  const running = workload.groups.filter((g) => g.replicas > 0);
  const fargateGroups = running.filter((g) => fargateProfileFor(g.namespace, g.labels, cluster.fargateProfiles) !== undefined);
  const nodeGroups: PackGroup[] = running.filter((g) => !fargateGroups.includes(g)).map((g) => ({ id: g.id, pod: g.pod, count: g.replicas }));
  const simulation: SimulationInput = { cluster, catalogue: input.catalogue, prices, groups: nodeGroups, daemonSets: workload.daemonSets };

  const runs = new Map(scenariosFor(prices.spotKnown).map((s) => [s, simulateScenario(s, simulation)] as const));
  const results = [...runs.entries()].map(([scenario, run]) => {
    if (scenario.name !== "multiarch") return [scenario, run.result] as const;
    const amd64 = [...runs.entries()].find(([s]) => s.name === "amd64-only")?.[1] as ScenarioRun;
    return [scenario, bestMultiarch(run, amd64, simulation)] as const;
  });

  const asConfigured = results[0][1];
  const asConfiguredRun = [...runs.values()][0];
  const scheduled = asConfigured.nodes;
  const floor = floorHourlyUsd(
    scheduled.reduce((s, n) => s + n.cpuRequested, 0),
    scheduled.reduce((s, n) => s + n.memoryRequested, 0),
    floorOfferings(asConfiguredRun, prices.spotKnown),
  );
  const base = baseCosts(cluster, fargateGroups);
  return {
    json: {
      prices: { source: input.catalogue.source, region: input.catalogue.region, asOf: input.catalogue.spot?.asOf ?? input.catalogue.asOf },
      scenarios: results.map(([scenario, result]) => scenarioJson(scenario.name, result)),
      base: { items: base.items, hourlyUsd: base.hourlyUsd },
      floorHourlyUsd: roundUsd(floor),
      warnings: [...workload.warnings, ...pricingWarnings(input, prices.spotKnown), ...base.warnings],
    },
    details: results.map(([scenario, result]) => detail(scenario, result)),
    cluster: { name: cluster.name, configSource: input.configSource, region: cluster.region },
    workload: {
      source: input.workloadSource,
      pods: running.reduce((s, g) => s + g.replicas, 0),
      nodePods: nodeGroups.reduce((s, g) => s + g.count, 0),
      fargatePods: fargateGroups.reduce((s, g) => s + g.replicas, 0),
    },
    listPrices: { source: listPrices().source, asOf: listPrices().asOf },
  };
}
