import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { Requirement } from "../../instance-catalogue/requirements";
import type { PoolDisruption, PoolModel } from "../model";
import { defaultPoolDisruption } from "../node-pool-model";
import type { DaemonSetShape, PodGroup } from "../workload/workload-model";
import { pricesOf } from "./catalogue-prices";
import { withDaemonOverhead } from "./daemon-overhead";
import { domainUniverse } from "./domain-universe";
import { NodeClaimIds } from "./node-claim-ids";
import { NodeClaimTemplate } from "./node-claim-template";
import { type PodData, podDataOf } from "./pod-data";
import { FitCache } from "./pod-fit";
import { type PoolOfferings, poolOfferings } from "./pool-offerings";
import { poolOrder } from "./pool-order";
import type { StateNode } from "./state-node";
import { Topology } from "./topology";

// What every simulation of one cluster shares, built once: its NodePools' offerings in Karpenter's order (each type
// with the DaemonSets it would run) and the templates the scheduler opens NodeClaims from, the fit cache, the
// region, zones and prices, each pool's disruption settings, and the NodeClaim numbers. Provisioning (a plan, the
// pending pods), consolidation (every simulation the disruption controller runs) and a running cluster's what-ifs
// (NodePools rewritten, pods re-planned) all run through it; each run brings its own pods and topology.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/provisioner.go (NewScheduler: what a scheduler is built from)

export interface SimulationContextInput {
  readonly pools: readonly PoolModel[];
  /** Each pool's requirements as planned; as the pool has them when not given. */
  readonly rewrite?: (pool: PoolModel) => readonly Requirement[];
  /** Every DaemonSet of the cluster (its add-ons' and the workload's). */
  readonly daemonSets: readonly DaemonSetShape[];
  readonly catalogue: InstanceCatalogue;
  readonly region: string;
  /** The zones the nodes run in; empty when no node says (a stand-in zone is planned). */
  readonly zones: readonly string[];
  /** Whether `zones` are real zones; stand-ins (a subnet each, names unknown) when false. Default: some are given. */
  readonly zonesKnown?: boolean;
}

export interface SimulationContext {
  /** Each NodePool's offerings, with their DaemonSet overhead, in Karpenter's order: weight, then name. */
  readonly pools: readonly PoolOfferings[];
  /** The same pools as the scheduler opens NodeClaims from them. */
  readonly templates: readonly NodeClaimTemplate[];
  /** Each NodePool's disruption settings, by name. */
  readonly disruption: ReadonlyMap<string, PoolDisruption>;
  readonly daemonSets: readonly DaemonSetShape[];
  readonly fits: FitCache;
  readonly catalogue: InstanceCatalogue;
  readonly region: string;
  readonly zonesKnown: boolean;
  readonly spotKnown: boolean;
  /** Numbers every NodeClaim a launch and every consolidation simulation opens: a hostname is never used twice. */
  readonly nodeClaimIds: NodeClaimIds;
  /** Whether the catalogue knows a type: consolidation leaves a node of an unknown type alone. */
  typeKnown(name: string): boolean;
  /** A pod group as the scheduler reads it (PreferNoSchedule taints of any pool tolerated when relaxing). */
  podData(group: PodGroup): PodData;
  /** Topology over these pods, its domains those of the pools and of these nodes. */
  topology(pods: readonly PodData[], nodes: readonly StateNode[]): Topology;
}

export function simulationContext(input: SimulationContextInput): SimulationContext {
  const { catalogue, region } = input;
  const zonesKnown = input.zonesKnown ?? input.zones.length > 0;
  const zones = input.zones.length > 0 ? input.zones : ["zone-1"];
  const offeringContext = { catalogue, prices: pricesOf(catalogue), region, zones, zonesKnown };
  const fits = new FitCache(catalogue.labelKeys, region);
  const rewrite = input.rewrite ?? ((pool: PoolModel) => pool.requirements);
  const pools = poolOrder(input.pools).map((pool) => withDaemonOverhead(poolOfferings(pool, rewrite(pool), offeringContext), input.daemonSets, fits));
  return contextOfOfferings(pools, { daemonSets: input.daemonSets, fits, catalogue, region, zonesKnown });
}

/** The context of pools already offered, in the order to try them (a test's own order, or Karpenter's). */
export function contextOfOfferings(
  pools: readonly PoolOfferings[],
  cluster: Pick<SimulationContext, "daemonSets" | "fits" | "catalogue" | "region" | "zonesKnown">,
): SimulationContext {
  const { catalogue } = cluster;
  const spotKnown = catalogue.spot !== undefined;
  const preferNoSchedule = pools.some((p) => p.pool.taints.some((t) => t.effect === "PreferNoSchedule"));
  return {
    ...cluster,
    pools,
    templates: pools.map((offerings) => new NodeClaimTemplate(offerings, spotKnown)),
    disruption: new Map(pools.map(({ pool }) => [pool.name, pool.disruption ?? defaultPoolDisruption(pool.name)])),
    spotKnown,
    nodeClaimIds: new NodeClaimIds(),
    typeKnown: (name) => catalogue.type(name) !== undefined,
    podData: (group) => podDataOf(group, preferNoSchedule),
    topology: (pods, nodes) => new Topology(pods, domainUniverse(pools, nodes)),
  };
}
