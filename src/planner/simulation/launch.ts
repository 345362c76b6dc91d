import type { InstanceType } from "../../instance-catalogue/instance-catalogue";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { NodeClaim } from "./node-claim";
import { cheapestSpot, type InstanceOption, type PricedCapacityType } from "./pool-offerings";
import type { Resources } from "./resources";
import type { StateNode } from "./state-node";

// What a planned NodeClaim launches as, the way Karpenter's AWS provider chooses (pkg/providers/instance,
// instance.go filterInstanceTypes and getCapacityType, filter.go):
//   - metal, GPU and accelerator types are dropped while another type remains (ExoticInstanceTypeFilter),
//     unless the pool has minValues;
//   - spot is used whenever the NodeClaim allows it and a type offers it (reserved first, then spot, then
//     on-demand); with both allowed, spot offerings dearer than the cheapest on-demand one are dropped
//     (SpotOfferingFilter);
//   - EC2 Fleet then picks: lowest-price for on-demand, price-capacity-optimized for spot, which the plan
//     takes as the cheapest spot offering. Offline there are no spot prices: the node is spot, priced at the
//     on-demand rate, an upper bound.
// Once launched, the NodeClaim is a node of the cluster: the next provisioning loop sees it as one.
// @see aws/karpenter-provider-aws v1.14.1 pkg/providers/instance/instance.go

/** What launching reads of a NodeClaim: consolidation launches one narrowed to cheaper options. */
export type LaunchRequest = Pick<NodeClaim, "template" | "instanceTypeOptions" | "zones" | "capacityTypes" | "hostname" | "pods">;

/** What a NodeClaim launches as. */
export interface LaunchChoice {
  readonly option: InstanceOption;
  readonly capacityType: PricedCapacityType;
  /** Undefined when EC2 picks among several (on-demand, or zones not known). */
  readonly zone: string | undefined;
  readonly hourlyUsd: number;
  readonly upperBound: boolean;
}

export interface PlannedNode {
  readonly pool: string;
  readonly type: InstanceType;
  readonly capacityType: PricedCapacityType;
  readonly zone: string | undefined;
  readonly hourlyUsd: number;
  /** Offline spot: priced at the on-demand rate, an upper bound. */
  readonly priceIsUpperBound: boolean;
  readonly pods: number;
  readonly cpuRequested: number;
  readonly memoryRequested: number;
  readonly cpuAllocatable: number;
  readonly memoryAllocatable: number;
  readonly groups: readonly { readonly id: string; readonly count: number }[];
}

const cheaper = (a: { usd: number; name: string }, b: { usd: number; name: string } | undefined) =>
  b === undefined || a.usd < b.usd || (a.usd === b.usd && a.name < b.name);

/** The type, capacity type, zone and price a NodeClaim launches with. */
export function chooseLaunch(nc: LaunchRequest, zonesKnown: boolean): LaunchChoice {
  const { spotKnown, minValues } = nc.template;
  const all = nc.instanceTypeOptions;
  const ordinary = all.filter((c) => !c.exotic);
  const options = minValues.length === 0 && ordinary.length > 0 ? ordinary : all;
  const zones = zonesKnown ? nc.zones : undefined;
  const spotAllowed = nc.capacityTypes.includes("spot");
  const onDemandAllowed = nc.capacityTypes.includes("on-demand");

  let best: (LaunchChoice & { usd: number; name: string }) | undefined;
  const consider = (option: InstanceOption, usd: number, capacityType: PricedCapacityType, zone: string | undefined, upperBound: boolean) => {
    const entry = { option, capacityType, zone, hourlyUsd: usd, upperBound, usd, name: option.type.name };
    if (cheaper(entry, best)) best = entry;
  };
  if (spotAllowed && spotKnown) {
    const onDemandFloor = onDemandAllowed && minValues.length === 0 ? Math.min(...options.map((c) => c.onDemandUsd ?? Infinity)) : Infinity;
    for (const c of options) {
      const spot = cheapestSpot(c, zones);
      if (spot !== undefined && spot.usd <= onDemandFloor) consider(c, spot.usd, "spot", spot.zone, false);
    }
  }
  if (best === undefined) {
    // Offline, spot is taken as offered wherever on-demand is: the node is spot, at the on-demand price.
    const spotOffline = spotAllowed && !spotKnown;
    if (spotOffline || onDemandAllowed) {
      for (const c of options) {
        if (c.onDemandUsd !== undefined) consider(c, c.onDemandUsd, spotOffline ? "spot" : "on-demand", undefined, spotOffline);
      }
    }
  }
  if (best === undefined) throw new Error(`bug: a NodeClaim of pool ${nc.template.pool.name} has no offering left`);
  const zone = best.zone ?? (zonesKnown && nc.zones.length === 1 ? nc.zones[0] : undefined);
  return { option: best.option, capacityType: best.capacityType, zone, hourlyUsd: best.hourlyUsd, upperBound: best.upperBound };
}

/**
 * The node a NodeClaim becomes: one type, one capacity type and one zone (where EC2 picks, the first the
 * NodeClaim allowed), with the labels Karpenter gives it, its pods bound and its type's DaemonSets running.
 */
export function launchedNode(nc: LaunchRequest, choice: LaunchChoice, region: string): StateNode {
  const { pool } = nc.template;
  const c = choice.option;
  return {
    name: nc.hostname,
    labels: {
      ...c.labels,
      ...pool.labels,
      [LABEL.nodePool]: pool.name,
      [LABEL.nodeClass]: pool.nodeClass.name,
      [LABEL.region]: region,
      [LABEL.zone]: choice.zone ?? nc.zones[0],
      [LABEL.capacityType]: choice.capacityType,
      [LABEL.hostname]: nc.hostname,
    },
    taints: pool.taints,
    allocatable: c.allocatable,
    capacity: c.capacity,
    pods: nc.pods.map(({ group, count }) => ({ group, count })),
    daemonSetPods: c.daemonSets,
    initialized: false,
  };
}

/**
 * The planned node a launch became, with every pod the plan put on it (in this loop and later ones), and what
 * they request as the scheduler counted it.
 */
export function plannedNode(pool: string, choice: LaunchChoice, node: StateNode, requested: Resources): PlannedNode {
  const c = choice.option;
  return {
    pool,
    type: c.type,
    capacityType: choice.capacityType,
    zone: choice.zone,
    hourlyUsd: choice.hourlyUsd,
    priceIsUpperBound: choice.upperBound,
    pods: requested.pods,
    cpuRequested: requested.cpu,
    memoryRequested: requested.memory,
    cpuAllocatable: c.allocatable.cpu,
    memoryAllocatable: c.allocatable.memory,
    groups: node.pods.map(({ group, count }) => ({ id: group.id, count })),
  };
}
