import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { Requirement } from "../../instance-catalogue/requirements";
import type { PoolDisruption, PoolModel } from "../model";
import { pricesOf } from "../simulation/catalogue-prices";
import { withDaemonOverhead } from "../simulation/daemon-overhead";
import { NodeClaimIds } from "../simulation/node-claim-ids";
import { FitCache } from "../simulation/pod-fit";
import { type PoolOfferings, poolOfferings } from "../simulation/pool-offerings";
import { poolOrder } from "../simulation/pool-order";
import type { DaemonSetShape, PodDisruptionBudget } from "../workload/workload-model";
import type { ClusterNode } from "./cluster-node";
import { defaultDisruption } from "./disruption-budgets";
import { disruptionContext } from "./disruption-context";
import { type ConsolidationResult, consolidate } from "./disruption-controller";
import type { PendingPods } from "./simulate-scheduling";

// What provisioning and consolidation share for one cluster: its NodePools' offerings in Karpenter's order (each
// type with the DaemonSets it would run), the fit cache, the region and zones, and each pool's disruption
// settings. A running cluster's state and its what-ifs (NodePools rewritten, pods re-planned) are settled through it.

export interface ClusterPlanning {
  readonly pools: readonly PoolOfferings[];
  /** Numbers every NodeClaim its launch and its consolidation open. */
  readonly nodeClaimIds: NodeClaimIds;
  readonly disruption: ReadonlyMap<string, PoolDisruption>;
  readonly daemonSets: readonly DaemonSetShape[];
  readonly fits: FitCache;
  readonly catalogue: InstanceCatalogue;
  readonly region: string;
  readonly zonesKnown: boolean;
  readonly spotKnown: boolean;
}

export interface ClusterPlanningInput {
  readonly pools: readonly PoolModel[];
  /** Each pool's requirements as planned; as the pool has them when not given. */
  readonly rewrite?: (pool: PoolModel) => readonly Requirement[];
  readonly daemonSets: readonly DaemonSetShape[];
  readonly catalogue: InstanceCatalogue;
  readonly region: string;
  /** The zones the nodes run in; empty when no node says (a stand-in zone is planned). */
  readonly zones: readonly string[];
  /** Whether `zones` are real zones; stand-ins (a subnet each, names unknown) when false. Default: some are given. */
  readonly zonesKnown?: boolean;
}

export function clusterPlanning(input: ClusterPlanningInput): ClusterPlanning {
  const { catalogue, region } = input;
  const zonesKnown = input.zonesKnown ?? input.zones.length > 0;
  const zones = input.zones.length > 0 ? input.zones : ["zone-1"];
  const context = { catalogue, prices: pricesOf(catalogue), region, zones, zonesKnown };
  const fits = new FitCache(catalogue.labelKeys, region);
  const rewrite = input.rewrite ?? ((pool: PoolModel) => pool.requirements);
  return {
    pools: poolOrder(input.pools).map((pool) => withDaemonOverhead(poolOfferings(pool, rewrite(pool), context), input.daemonSets, fits)),
    nodeClaimIds: new NodeClaimIds(),
    disruption: new Map(input.pools.map((p) => [p.name, p.disruption ?? defaultDisruption(p.name)])),
    daemonSets: input.daemonSets,
    fits,
    catalogue,
    region,
    zonesKnown,
    spotKnown: catalogue.spot !== undefined,
  };
}

export interface SettleInput {
  readonly nodes: readonly ClusterNode[];
  /** Pods bound to no node that Karpenter provisions for; none when not given. */
  readonly pending?: readonly PendingPods[];
  readonly pdbs: readonly PodDisruptionBudget[];
  /** When budgets' schedules are evaluated. */
  readonly at: Date;
  /** Karpenter's SpotToSpotConsolidation feature gate. */
  readonly spotToSpot: boolean;
}

/** Where the nodes settle once the disruption controller has nothing left to do. */
export function settleNodes(planning: ClusterPlanning, input: SettleInput): ConsolidationResult {
  const ctx = disruptionContext({
    pools: planning.pools,
    disruption: planning.disruption,
    daemonSets: planning.daemonSets,
    fits: planning.fits,
    nodes: input.nodes,
    region: planning.region,
    zonesKnown: planning.zonesKnown,
    spotKnown: planning.spotKnown,
    spotToSpot: input.spotToSpot,
    typeKnown: (name) => planning.catalogue.type(name) !== undefined,
    nodeClaimIds: planning.nodeClaimIds,
    pending: input.pending,
  });
  return consolidate(ctx, { nodes: input.nodes, pdbs: input.pdbs, at: input.at });
}
