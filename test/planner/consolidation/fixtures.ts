import type { ClusterNode } from "../../../src/planner/consolidation/cluster-node";
import { disruptionContext } from "../../../src/planner/consolidation/disruption-context";
import { type ConsolidationResult, consolidate } from "../../../src/planner/consolidation/disruption-controller";
import type { NodePoolBudget, PoolDisruption, PoolModel } from "../../../src/planner/model";
import type { DaemonSetShape, PodDisruptionBudget, PodGroup } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { instanceType, type RunningNodeOptions, runningNode, simulationOf } from "../simulation/fixtures";

// Clusters for the disruption controller's tests, on the simulation tests' catalogue of four round-numbered types
// (m.small $0.10, m.large $0.20, g.small $0.08, g.large $0.16; see ../simulation/fixtures.ts).

export const AT = new Date("2026-11-26T12:00:00Z");

export interface PoolOptions {
  readonly policy?: PoolDisruption["policy"];
  readonly never?: boolean;
  readonly budgets?: readonly NodePoolBudget[];
}

export interface TestPool {
  readonly model: PoolModel;
  readonly disruption: PoolDisruption;
}

export function testPool(model: PoolModel, options: PoolOptions = {}): TestPool {
  return {
    model,
    disruption: {
      pool: model.name,
      policy: options.policy ?? "WhenEmptyOrUnderutilized",
      consolidateAfterNever: options.never ?? false,
      budgets: options.budgets ?? [{ nodes: "100%" }],
    },
  };
}

export interface NodeOptions extends RunningNodeOptions {
  readonly doNotDisrupt?: boolean;
}

/** A node of a pool (or of none), priced from the catalogue at its on-demand rate. */
export function clusterNode(name: string, typeName: string, pool: TestPool | undefined, options: NodeOptions = {}): ClusterNode {
  const state = runningNode(name, typeName, { ...options, pool: pool?.model.name });
  return {
    state,
    pool: pool?.disruption,
    instanceType: typeName,
    capacityType: state.labels[LABEL.capacityType],
    zone: state.labels[LABEL.zone],
    hourlyUsd: instanceType(typeName).onDemandUsd,
    priceIsUpperBound: state.labels[LABEL.capacityType] === "spot",
    doNotDisrupt: options.doNotDisrupt ?? false,
    deleting: false,
    managed: pool !== undefined,
    ready: true,
    instanceTerminating: false,
  };
}

export interface ClusterOptions {
  readonly pdbs?: readonly PodDisruptionBudget[];
  readonly spotToSpot?: boolean;
  readonly at?: Date;
  /** The cluster's DaemonSets; none when not given. */
  readonly daemonSets?: readonly DaemonSetShape[];
  /** The capacity screen before each simulation (DisruptionContext.screen). */
  readonly screen?: boolean;
}

/** The disruption controller run to its end on these pools and nodes (pools tried in the order given). */
export function settle(pools: readonly TestPool[], nodes: readonly ClusterNode[], options: ClusterOptions = {}): ConsolidationResult {
  const simulation = simulationOf(
    pools.map((p) => ({ ...p.model, disruption: p.disruption })),
    options.daemonSets,
  );
  const ctx = { ...disruptionContext(simulation, { nodes, spotToSpot: options.spotToSpot ?? false }), screen: options.screen };
  return consolidate(ctx, { nodes, pdbs: options.pdbs ?? [], at: options.at ?? AT });
}

/** The settled nodes as "name type capacity-type", and the actions as "method kind nodes -> replacement". */
export function summary(result: ConsolidationResult) {
  return {
    nodes: result.nodes.map((n) => `${n.state.name} ${n.instanceType} ${n.capacityType}`),
    actions: result.actions.map(
      (a) =>
        `${a.method} ${a.kind} ${a.nodes.map((n) => n.state.name).join(",")}${a.replacement === undefined ? "" : ` -> ${a.replacement.instanceType} ${a.replacement.capacityType}`}`,
    ),
  };
}

/** Why each settled node stays, as "name: message". */
export const blockers = (result: ConsolidationResult) => result.blockers.map((b) => `${b.node.state.name}: ${b.blocker.message}`);

export const on = (group: PodGroup, count = 1) => ({ group, count });

/** The NodePool CRD's default budgets: one of 10%. */
export const DEFAULT_BUDGETS: readonly NodePoolBudget[] = [{ nodes: "10%" }];
