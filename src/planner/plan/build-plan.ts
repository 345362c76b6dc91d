import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { getOrAdd } from "../../shared/get-or-add";
import { recommendationsJson } from "../../usage/recommendations";
import { listPrices } from "../data/list-prices";
import type { ClusterModel } from "../model";
import type { RightsizedWorkload } from "../rightsized-workload";
import { pricesOf } from "../simulation/catalogue-prices";
import type { PlannedNode } from "../simulation/launch";
import { cheapestSpot } from "../simulation/pool-offerings";
import type { ProvisioningResult } from "../simulation/provisioner";
import type { Workload } from "../workload/workload-model";
import { baseCosts, fargateWorkloadCosts } from "./base-costs";
import { afterScaleDown, convergedJson, convergedNodes, packingWarning, pdbHoldWarning } from "./converge";
import { daemonSetReport } from "./daemon-set-report";
import { cheapestPerShape, type FloorOffering, floorHourlyUsd } from "./floor";
import { type ConvergedJson, HOURS_PER_MONTH, type Plan, roundUsd, type ScenarioDetail, type ScenarioJson } from "./plan-types";
import { planWarnings } from "./plan-warnings";
import { type PodDestinations, podDestinations, runsToCompletion } from "./pod-destinations";
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
  /** The workload with the requests its usage recommends (--prometheus): planned as the rightsized scenario. */
  readonly rightsized?: RightsizedWorkload;
}

function scenarioJson(name: Scenario["name"], result: ProvisioningResult): Omit<ScenarioJson, "converged" | "afterScaleDown"> {
  const hourly = roundUsd(result.nodes.reduce((sum, n) => sum + n.hourlyUsd, 0));
  return {
    name,
    nodes: result.nodes.map((n) => ({
      pool: n.pool,
      instanceType: n.type.name,
      capacityType: n.capacityType,
      ...(n.priceIsUpperBound ? { priceIsUpperBound: true } : {}),
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

function detail(scenario: Scenario, result: ProvisioningResult): ScenarioDetail {
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
    unschedulable: result.unschedulable,
  };
}

/** The allowed offerings of the as-configured pools, each type at its cheapest allowed price. */
function floorOfferings(run: ScenarioRun, spotKnown: boolean, zonesKnown: boolean): FloorOffering[] {
  const best = new Map<string, FloorOffering>();
  for (const pool of run.simulation.pools) {
    for (const c of pool.options) {
      const options: number[] = [];
      if (pool.capacityTypes.includes("on-demand") && c.onDemandUsd !== undefined) options.push(c.onDemandUsd);
      if (pool.capacityTypes.includes("spot")) {
        // Spot only where the pool may launch: its zones, as the launch prices it (cheapestSpot).
        const spot = spotKnown ? cheapestSpot(c, zonesKnown ? pool.zones : undefined)?.usd : c.onDemandUsd;
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

/**
 * The scenario's result with the pods no node runs in it (held before the simulation: Fargate's refusals,
 * volumes Karpenter ignores) among its unschedulable pods: the steady ones, and in jobs-burst the Jobs' too.
 */
function withHeld(scenario: Scenario, result: ProvisioningResult, destinations: PodDestinations): ProvisioningResult {
  const held = [...destinations.steady.held, ...(scenario.jobs === true ? destinations.jobs.held : [])];
  const count = (h: (typeof held)[number]) => (scenario.scaleUp === true ? (h.group.autoscaling?.maxReplicas ?? h.group.replicas) : h.group.replicas);
  const more = held.filter((h) => count(h) > 0).map((h) => ({ id: h.group.id, count: count(h), reason: h.reason }));
  return more.length === 0 ? result : { ...result, unschedulable: [...result.unschedulable, ...more] };
}

const replicas = (groups: readonly { readonly replicas: number }[]) => groups.reduce((s, g) => s + g.replicas, 0);

/** The steady state's pods as they are: on Karpenter's nodes, on Fargate, unschedulable, bound to named nodes; and the Jobs' apart. */
function workloadCounts(source: string, destinations: PodDestinations, asConfigured: ProvisioningResult): Plan["workload"] {
  const nodePods = asConfigured.nodes.reduce((s, n) => s + n.pods, 0);
  const fargatePods = replicas(destinations.fargate);
  const unschedulablePods = asConfigured.unschedulable.reduce((s, u) => s + u.count, 0);
  const boundPods = replicas(destinations.boundToNodes.filter((g) => !runsToCompletion(g)));
  const jobPods = replicas(destinations.jobs.nodes) + replicas(destinations.jobs.held.map((h) => h.group));
  return { source, pods: nodePods + fargatePods + unschedulablePods + boundPods, nodePods, fargatePods, unschedulablePods, boundPods, jobPods };
}

/** What the rightsized scenario simulates: the right-sized workload's pods, where they go, on the same cluster. */
function rightsizedSimulation(workload: Workload, simulation: SimulationInput, cluster: ClusterModel) {
  const running = workload.groups.filter((g) => g.replicas > 0 || (g.autoscaling?.maxReplicas ?? 0) > 0);
  const destinations = podDestinations(running, cluster.fargateProfiles);
  return {
    destinations,
    simulation: { ...simulation, groups: destinations.steady.nodes, jobs: destinations.jobs.nodes, daemonSets: workload.daemonSets, pdbs: workload.pdbs },
  };
}

export function buildPlan(input: PlanInput): Plan {
  const prices = pricesOf(input.catalogue);
  const { cluster, workload } = input;
  const running = workload.groups.filter((g) => g.replicas > 0 || (g.autoscaling?.maxReplicas ?? 0) > 0);
  const destinations = podDestinations(running, cluster.fargateProfiles);
  const { steady, jobs, fargate: fargateGroups } = destinations;
  const nodeGroups = steady.nodes;
  const simulation = {
    cluster,
    catalogue: input.catalogue,
    groups: nodeGroups,
    jobs: jobs.nodes,
    daemonSets: workload.daemonSets,
    pdbs: workload.pdbs,
  };

  const scenarios = scenariosFor(
    prices.spotKnown,
    nodeGroups.some((g) => g.autoscaling !== undefined),
    jobs.nodes.length + jobs.held.length > 0,
    input.rightsized !== undefined,
  );
  const rightsized = input.rightsized === undefined ? undefined : rightsizedSimulation(input.rightsized.workload, simulation, cluster);
  const simulated = scenarios.map((s) => simulateScenario(s, s.rightsized === true && rightsized !== undefined ? rightsized.simulation : simulation));
  const runs = simulated.map((run, i) => ({
    ...run,
    result: withHeld(scenarios[i], run.result, scenarios[i].rightsized === true && rightsized !== undefined ? rightsized.destinations : destinations),
  }));
  const asConfigured = runs[0];
  const scheduled = asConfigured.result.nodes;
  const floor = floorHourlyUsd(
    scheduled.reduce((s, n) => s + n.cpuRequested, 0),
    scheduled.reduce((s, n) => s + n.memoryRequested, 0),
    floorOfferings(asConfigured, prices.spotKnown, cluster.zones !== undefined),
  );
  // Scenarios that launch the same nodes from the same offerings (multiarch where the pools allow arm64 already)
  // settle alike: each distinct launch is settled once. The scenarios rewrite only the architecture and capacity
  // type, which the offerings' types and capacity types show.
  const settledByLaunch = new Map<string, ConvergedJson>();
  const settled = (i: number) => {
    const key = JSON.stringify([
      simulated[i].simulation.pools.map((p) => [p.pool.name, p.capacityTypes, p.zones, p.options.map((c) => c.type.name)]),
      simulated[i].result.nodes.map((n) => [n.pool, n.type.name, n.capacityType, n.zone, n.groups]),
    ]);
    return getOrAdd(settledByLaunch, key, () => convergedJson(convergedNodes(simulated[i])));
  };
  const scenarioJsons = scenarios.map((s, i) => ({
    ...scenarioJson(s.name, runs[i].result),
    converged: settled(i),
    ...(s.scaleUp === true ? { afterScaleDown: convergedJson(afterScaleDown(simulated[i], nodeGroups)) } : {}),
  }));
  const packing = packingWarning(scenarioJsons);
  const pdbHolds = pdbHoldWarning(scenarioJsons[0]);
  const base = baseCosts(cluster);
  const fargate = fargateWorkloadCosts(fargateGroups);
  const daemonSets = daemonSetReport(workload, asConfigured);
  return {
    json: {
      prices: { source: input.catalogue.source, region: input.catalogue.region, asOf: input.catalogue.spot?.asOf ?? input.catalogue.asOf },
      scenarios: scenarioJsons,
      base: { items: base.items, hourlyUsd: base.hourlyUsd },
      fargateWorkload: { items: fargate.items, hourlyUsd: fargate.hourlyUsd },
      daemonSets,
      floorHourlyUsd: roundUsd(floor),
      ...(input.rightsized === undefined ? {} : { rightsizing: recommendationsJson(input.rightsized.found, input.rightsized.method, input.rightsized.source) }),
      warnings: [
        ...(input.rightsized?.found.warnings ?? []),
        ...workload.warnings,
        ...planWarnings({
          ...input,
          prices,
          nodeGroups,
          destinations,
          runs: scenarios.map((s, i) => ({ scenario: s, result: simulated[i].result })),
          daemonSets,
        }),
        ...base.warnings,
        ...fargate.warnings,
        ...(packing === undefined ? [] : [packing]),
        ...(pdbHolds === undefined ? [] : [pdbHolds]),
      ],
    },
    details: scenarios.map((s, i) => detail(s, runs[i].result)),
    cluster: { name: cluster.name, configSource: input.configSource, region: cluster.region },
    workload: workloadCounts(input.workloadSource, destinations, runs[0].result),
    listPrices: { source: listPrices().source, asOf: listPrices().asOf },
  };
}
