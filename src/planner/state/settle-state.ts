import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { ConsolidationResult } from "../consolidation/disruption-controller";
import { settleNodes } from "../consolidation/settle-nodes";
import { type SimulationContext, simulationContext } from "../simulation/simulation-context";
import type { ClusterState } from "./cluster-state";

// Where a running cluster settles: its nodes and pods, its NodePools as they are, run through the disruption
// controller (consolidation/) until nothing moves.

export interface SettleOptions {
  readonly catalogue: InstanceCatalogue;
  /** When budgets' schedules are evaluated. */
  readonly at: Date;
  /** Karpenter's SpotToSpotConsolidation feature gate. */
  readonly spotToSpot: boolean;
}

/** The region the state is priced and planned for: the nodes', else the catalogue's. */
export const regionOf = (state: ClusterState, catalogue: InstanceCatalogue) => state.region ?? catalogue.region;

/** The state's simulation context: its NodePools as they are, its DaemonSets, its zones. */
export const stateSimulation = (state: ClusterState, catalogue: InstanceCatalogue): SimulationContext =>
  simulationContext({ pools: state.pools, daemonSets: state.daemonSets, catalogue, region: regionOf(state, catalogue), zones: state.zones });

/** The pending pods Karpenter provisions for (IsProvisionable, and not refused by Provisioner.Validate). */
export const provisionablePending = (state: ClusterState) => state.pending.filter((p) => p.ignored === undefined);

/**
 * Where the state settles; `withPending` false leaves its pending pods out, to tell what they hold back. The
 * pending pods Karpenter provisions for are in every simulation, as its SimulateScheduling has them.
 */
export function settleState(state: ClusterState, options: SettleOptions, withPending = true): ConsolidationResult {
  const simulation = stateSimulation(state, options.catalogue);
  const pending = withPending ? provisionablePending(state) : [];
  return settleNodes(simulation, { nodes: state.nodes, pending, pdbs: state.pdbs, at: options.at, spotToSpot: options.spotToSpot });
}
