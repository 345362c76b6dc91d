import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { Requirement } from "../../instance-catalogue/requirements";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { ClusterModel, SystemPods } from "../model";
import { type ProvisioningResult, provision } from "../simulation/provisioner";
import { type SimulationContext, simulationContext } from "../simulation/simulation-context";
import type { StateNode } from "../simulation/state-node";
import type { PodDisruptionBudgetSpec } from "../workload/workload-model";
import { type DaemonSetShape, PLAIN_POD, type PodGroup } from "../workload/workload-model";
import type { Scenario } from "./scenarios";

// One scenario, end to end: each pool's offerings under the scenario's requirements, with the DaemonSet
// overhead of each of its instance types, then Karpenter's provisioning loops for the node-bound pods, from
// the nodes already running when there are any.

export interface SimulationInput {
  readonly cluster: ClusterModel;
  readonly catalogue: InstanceCatalogue;
  /** The node-bound pod groups of the steady state (Fargate-bound ones are priced apart). */
  readonly groups: readonly PodGroup[];
  /** The node-bound pods of Jobs and CronJobs, which only a scenario with `jobs` plans. */
  readonly jobs?: readonly PodGroup[];
  readonly daemonSets: readonly DaemonSetShape[];
  /** Nodes already running, with the pods bound to them: the plan adds to them before it launches more. */
  readonly existingNodes?: readonly StateNode[];
  /** The workload's PodDisruptionBudgets: they hold pods where consolidation would move them. */
  readonly pdbs?: readonly PodDisruptionBudgetSpec[];
}

const LINUX: Requirement = { key: LABEL.os, operator: "In", values: ["linux"] };

/** The DaemonSets the cluster's add-ons run: on every Linux node, tolerating every taint, as the add-ons' manifests do. */
export function systemDaemonSets(pods: readonly SystemPods[]): DaemonSetShape[] {
  return pods.map((d) => ({
    id: `${d.namespace}/${d.name}`,
    file: d.source,
    pod: {
      ...PLAIN_POD,
      cpuMillis: d.requests.cpuMillis,
      memoryBytes: d.requests.memoryBytes,
      nodeSelector: [LINUX, ...(d.excludes ?? [])],
      tolerations: [{ operator: "Exists" }],
    },
  }));
}

/** The zones as far as the cluster knows them; for an existing VPC, one stand-in per private subnet. */
export function clusterZones(cluster: ClusterModel): { readonly zones: readonly string[]; readonly known: boolean } {
  return cluster.zones !== undefined
    ? { zones: cluster.zones, known: true }
    : { zones: Array.from({ length: cluster.zoneCount }, (_, i) => `zone-${i + 1}`), known: false };
}

export interface ScenarioRun {
  /** The scenario's simulation context: each pool's offerings under its requirements, in Karpenter's order, the fits and DaemonSets its launch and its consolidation share. */
  readonly simulation: SimulationContext;
  readonly result: ProvisioningResult;
  /** The workload's PodDisruptionBudgets, as written. */
  readonly pdbs: readonly PodDisruptionBudgetSpec[];
}

/**
 * The cluster's simulation context: its pools (their requirements rewritten as a scenario says), its zones, and
 * the DaemonSets of its add-ons and of the workload.
 */
export function clusterSimulation(
  cluster: ClusterModel,
  catalogue: InstanceCatalogue,
  workloadDaemonSets: readonly DaemonSetShape[],
  rewrite?: Scenario["rewrite"],
): SimulationContext {
  const { zones, known } = clusterZones(cluster);
  return simulationContext({
    pools: cluster.pools,
    rewrite,
    daemonSets: [...systemDaemonSets(cluster.nodeDaemonSets), ...workloadDaemonSets],
    catalogue,
    region: cluster.region,
    zones,
    zonesKnown: known,
  });
}

export function simulateScenario(scenario: Scenario, input: SimulationInput): ScenarioRun {
  const simulation = clusterSimulation(input.cluster, input.catalogue, input.daemonSets, scenario.rewrite);
  // Jobs start once the steady pods run: they join as a second wave, as an autoscaler's replicas do.
  const starting = scenario.jobs === true ? (input.jobs ?? []).map((g) => ({ ...g, replicas: 0 })) : [];
  const burst = new Map(starting.map((g, i) => [g, (input.jobs ?? [])[i].replicas]));
  const result = provision(simulation, {
    groups: [...input.groups, ...starting],
    existingNodes: input.existingNodes,
    scaleUp:
      scenario.scaleUp === true
        ? new Map(input.groups.map((g) => [g, Math.max(0, (g.autoscaling?.maxReplicas ?? g.replicas) - g.replicas)]))
        : scenario.jobs === true
          ? burst
          : undefined,
  });
  return { simulation, result, pdbs: input.pdbs ?? [] };
}
