import type { InstanceType } from "../../instance-catalogue/instance-catalogue";
import type { Requirement } from "../../instance-catalogue/requirements";
import type { LaunchChoice, NodeClaim } from "./node-claim";
import { type Candidate, cheapestSpot, type PricedCapacityType } from "./pool-offerings";

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
// @see aws/karpenter-provider-aws v1.14.1 pkg/providers/instance/instance.go

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
export function chooseLaunch(nc: NodeClaim, spotKnown: boolean, zonesKnown: boolean, minValues: readonly Requirement[]): LaunchChoice {
  const all = nc.viable.map((index) => ({ index, c: nc.candidate(index) }));
  const ordinary = all.filter(({ c }) => !c.exotic);
  const options = minValues.length === 0 && ordinary.length > 0 ? ordinary : all;
  const zones = zonesKnown ? nc.zones : undefined;
  const spotAllowed = nc.capacityTypes.includes("spot");
  const onDemandAllowed = nc.capacityTypes.includes("on-demand");

  let best: (LaunchChoice & { usd: number; name: string }) | undefined;
  const consider = (index: number, c: Candidate, usd: number, capacityType: PricedCapacityType, zone: string | undefined, upperBound: boolean) => {
    const entry = { index, capacityType, zone, hourlyUsd: usd, upperBound, usd, name: c.type.name };
    if (cheaper(entry, best)) best = entry;
  };
  if (spotAllowed && spotKnown) {
    const onDemandFloor = onDemandAllowed && minValues.length === 0 ? Math.min(...options.map(({ c }) => c.onDemandUsd ?? Infinity)) : Infinity;
    for (const { index, c } of options) {
      const spot = cheapestSpot(c, zones);
      if (spot !== undefined && spot.usd <= onDemandFloor) consider(index, c, spot.usd, "spot", spot.zone, false);
    }
  }
  if (best === undefined) {
    // Offline, spot is taken as offered wherever on-demand is: the node is spot, at the on-demand price.
    const spotOffline = spotAllowed && !spotKnown;
    if (spotOffline || onDemandAllowed) {
      for (const { index, c } of options) {
        if (c.onDemandUsd !== undefined) consider(index, c, c.onDemandUsd, spotOffline ? "spot" : "on-demand", undefined, spotOffline);
      }
    }
  }
  if (best === undefined) throw new Error(`bug: a NodeClaim of pool ${nc.offerings.pool.name} has no offering left`);
  const zone = best.zone ?? (zonesKnown && nc.zones.length === 1 ? nc.zones[0] : undefined);
  return { index: best.index, capacityType: best.capacityType, zone, hourlyUsd: best.hourlyUsd, upperBound: best.upperBound };
}

/** The planned node of a NodeClaim that launched as `choice`. */
export function plannedNode(nc: NodeClaim, choice: LaunchChoice, groupId: (group: number) => string): PlannedNode {
  const c = nc.candidate(choice.index);
  return {
    pool: nc.offerings.pool.name,
    type: c.type,
    capacityType: choice.capacityType,
    zone: choice.zone,
    hourlyUsd: choice.hourlyUsd,
    priceIsUpperBound: choice.upperBound,
    pods: nc.pods,
    cpuRequested: nc.requested.cpu,
    memoryRequested: nc.requested.memory,
    cpuAllocatable: c.allocatable.cpu,
    memoryAllocatable: c.allocatable.memory,
    groups: nc.groups.map(({ group, count }) => ({ id: groupId(group), count })),
  };
}
