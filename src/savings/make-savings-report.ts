import type { ClusterObjects } from "../cluster-state/cluster-objects";
import type { InstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { clusterStateOf } from "../planner/state/cluster-state";
import { regionOf, settleState } from "../planner/state/settle-state";
import type { WorkloadUsage } from "../usage/read-usage";
import type { RightsizingMethod } from "../usage/rightsizing-method";
import type { WorkloadContainers } from "../usage/workload-containers";
import { priceMoves } from "./moves/moves";
import { pendingOutlook } from "./pending-pods";
import { fargateHourlyUsd, type SavingsJson, savingsReport } from "./savings-report";
import { rightsizedObjects } from "./usage/rightsized-objects";
import { rightsizing } from "./usage/rightsizing";

// The report from a cluster's objects: its state, where consolidation settles it, and the moves, priced with one
// catalogue (the shipped one, or --live's for the cluster's region).

export interface ReportOptions {
  readonly catalogue: InstanceCatalogue;
  readonly at: Date;
  readonly spotToSpot: boolean;
  /** A line for each stage of a long run (stderr on a terminal); none when not given. */
  readonly progress?: (stage: string) => void;
  /** What the workloads' containers used (--prometheus): the report right-sizes them and prices the rightsize moves. */
  readonly usage?: {
    readonly workloads: readonly WorkloadContainers[];
    readonly usage: WorkloadUsage;
    readonly method: RightsizingMethod;
    /** The Prometheus read, without credentials. */
    readonly source: string;
  };
}

export function makeSavingsReport(objects: ClusterObjects, options: ReportOptions): SavingsJson {
  const { catalogue, at, spotToSpot } = options;
  const state = clusterStateOf(objects, catalogue, at);
  options.progress?.(`settling ${state.nodes.length} nodes as Karpenter's consolidation would`);
  const result = settleState(state, { catalogue, at, spotToSpot });
  const pending = pendingOutlook(state, catalogue);
  // Whether the pending pods hold consolidation still: it moves nothing with them, and would without them.
  const heldByPending =
    result.actions.length === 0 && pending.launches.length > 0 && settleState(state, { catalogue, at, spotToSpot }, false).actions.length > 0;
  const usage = options.usage;
  const sized = usage === undefined ? undefined : rightsizing(usage.workloads, usage.usage, usage.method, { source: usage.source, at, nodes: state.nodes });
  // The same objects with the recommended requests, read as a state again: what the rightsize moves re-plan.
  const rightsizedState = sized === undefined ? undefined : clusterStateOf(rightsizedObjects(objects, sized), catalogue, at);
  options.progress?.(catalogue.spot === undefined ? "pricing the arm64 move (spot needs --live)" : "pricing the moves: arm64, spot, both");
  const moves = priceMoves({ state, catalogue, region: regionOf(state, catalogue), at, spotToSpot }, fargateHourlyUsd(state), rightsizedState);
  return savingsReport({ state, result, catalogue, at, moves, pending, heldByPending, rightsizing: sized });
}
