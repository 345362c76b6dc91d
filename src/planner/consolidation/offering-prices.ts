import { cheapestSpot, type InstanceOption, type PricedCapacityType } from "../simulation/pool-offerings";

// What an instance type costs where a NodeClaim may launch it, as consolidation weighs a replacement. Offline there
// are no spot prices: spot is offered wherever on-demand is, at the on-demand rate (as launch.ts prices it).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/cloudprovider/types.go (Offerings.WorstLaunchPrice, InstanceTypes.OrderByPrice)

/** Where a replacement may launch. */
export interface LaunchScope {
  readonly capacityTypes: readonly PricedCapacityType[];
  /** undefined: any zone (zones not known). */
  readonly zones: readonly string[] | undefined;
  readonly spotKnown: boolean;
}

function spotPrices(c: InstanceOption, scope: LaunchScope): number[] {
  if (!scope.capacityTypes.includes("spot")) return [];
  if (!scope.spotKnown) return c.onDemandUsd === undefined ? [] : [c.onDemandUsd];
  return Object.entries(c.spotUsd ?? {})
    .filter(([zone]) => scope.zones === undefined || scope.zones.includes(zone))
    .map(([, usd]) => usd);
}

/**
 * The most the type may cost when launched: reserved capacity first (never priced here), then spot, then
 * on-demand, the first with an offering, at its dearest offering. Infinity when nothing is offered.
 */
export function worstLaunchPrice(c: InstanceOption, scope: LaunchScope): number {
  const spot = spotPrices(c, scope);
  if (spot.length > 0) return Math.max(...spot);
  if (scope.capacityTypes.includes("on-demand") && c.onDemandUsd !== undefined) return c.onDemandUsd;
  return Number.POSITIVE_INFINITY;
}

/** Its cheapest offering in the scope, Infinity when none. */
export function cheapestLaunchPrice(c: InstanceOption, scope: LaunchScope): number {
  const spot = scope.spotKnown ? cheapestSpot(c, scope.capacityTypes.includes("spot") ? scope.zones : [])?.usd : spotPrices(c, scope)[0];
  const onDemand = scope.capacityTypes.includes("on-demand") ? c.onDemandUsd : undefined;
  return Math.min(spot ?? Number.POSITIVE_INFINITY, onDemand ?? Number.POSITIVE_INFINITY);
}

/** The types by their cheapest offering, ties by name (OrderByPrice). */
export function byPrice(types: readonly InstanceOption[], scope: LaunchScope): InstanceOption[] {
  const price = new Map(types.map((c) => [c, cheapestLaunchPrice(c, scope)]));
  return [...types].sort((a, b) => (price.get(a) ?? 0) - (price.get(b) ?? 0) || (a.type.name < b.type.name ? -1 : a.type.name > b.type.name ? 1 : 0));
}
