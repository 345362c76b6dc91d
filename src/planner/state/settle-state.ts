import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { defaultDisruption } from "../consolidation/disruption-budgets";
import { disruptionContext } from "../consolidation/disruption-context";
import { type ConsolidationResult, consolidate } from "../consolidation/disruption-controller";
import { pricesOf } from "../simulation/catalogue-prices";
import { withDaemonOverhead } from "../simulation/daemon-overhead";
import { FitCache } from "../simulation/pod-fit";
import { poolOfferings } from "../simulation/pool-offerings";
import { poolOrder } from "../simulation/pool-order";
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

export function settleState(state: ClusterState, options: SettleOptions): ConsolidationResult {
  const { catalogue } = options;
  const region = regionOf(state, catalogue);
  const zonesKnown = state.zones.length > 0;
  const context = { catalogue, prices: pricesOf(catalogue), region, zones: zonesKnown ? state.zones : ["zone-1"], zonesKnown };
  const fits = new FitCache(catalogue.labelKeys, region);
  const pools = poolOrder(state.pools).map((pool) => withDaemonOverhead(poolOfferings(pool, pool.requirements, context), state.daemonSets, fits));
  const ctx = disruptionContext({
    pools,
    disruption: new Map(state.pools.map((p) => [p.name, p.disruption ?? defaultDisruption(p.name)])),
    daemonSets: state.daemonSets,
    fits,
    nodes: state.nodes,
    region,
    zonesKnown,
    spotKnown: catalogue.spot !== undefined,
    spotToSpot: options.spotToSpot,
    typeKnown: (name) => catalogue.type(name) !== undefined,
  });
  return consolidate(ctx, { nodes: state.nodes, pdbs: state.pdbs, at: options.at });
}
