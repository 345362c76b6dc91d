import type { NodeClaim } from "../simulation/node-claim";
import { satisfiesMinValues } from "../simulation/node-claim";
import type { InstanceOption, PricedCapacityType } from "../simulation/pool-offerings";
import type { Results } from "../simulation/scheduler";
import type { Blocker, Candidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import { byPrice, cheapestLaunchPrice, type LaunchScope, worstLaunchPrice } from "./offering-prices";
import { type DisruptionContext, notAllPodsWouldSchedule, simulateScheduling } from "./simulate-scheduling";

// Whether a set of candidates can go: their pods fit on the rest of the cluster (delete), or on it plus one new
// NodeClaim whose every remaining option costs less than the candidates together (replace).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/consolidation.go
//      (computeConsolidation, computeSpotToSpotConsolidation)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/multinodeconsolidation.go (filterOutSameInstanceType)

/** Spot-to-spot single-node consolidation needs this many cheaper options, and launches among the cheapest this many. */
export const MIN_SPOT_TO_SPOT_OPTIONS = 15;

/** The one NodeClaim a replace launches, narrowed to what may replace the candidates. */
export interface Replacement {
  readonly claim: NodeClaim;
  /** Cheaper than the candidates together, cheapest first. */
  readonly options: readonly InstanceOption[];
  readonly capacityTypes: readonly PricedCapacityType[];
}

export interface Command {
  readonly candidates: readonly Candidate[];
  readonly replacement?: Replacement;
  /** Where the simulation put the candidates' pods. */
  readonly results: Results;
}

/** No command, and (for a single node) why, in Karpenter's words. */
export interface NoCommand {
  readonly blocker?: Blocker;
}

const noCommand = (message?: string): NoCommand => ({ blocker: message === undefined ? undefined : { event: "Unconsolidatable", message } });
export const isCommand = (value: Command | NoCommand): value is Command => "candidates" in value;

const sumPrices = (candidates: readonly Candidate[]) => candidates.reduce((sum, c) => sum + c.price, 0);

function scopeOf(claim: NodeClaim, capacityTypes: readonly PricedCapacityType[], ctx: DisruptionContext): LaunchScope {
  return { capacityTypes, zones: ctx.zonesKnown ? claim.zones : undefined, spotKnown: ctx.spotKnown };
}

/** The options that cost less than `price` wherever they launch, cheapest first, if they still meet minValues. */
function cheaperThan(claim: NodeClaim, options: readonly InstanceOption[], scope: LaunchScope, price: number): InstanceOption[] | string {
  const cheaper = byPrice(options, scope).filter((o) => worstLaunchPrice(o, scope) < price);
  const minValues = satisfiesMinValues(cheaper, claim.template.minValues);
  return minValues.ok ? cheaper : `Filtering by price: ${minValues.reason}`;
}

/** The candidates' command, or none; a single candidate's refusal says why (computeConsolidation). */
export function computeConsolidation(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[]): Command | NoCommand {
  const single = candidates.length === 1;
  const say = (message: string) => noCommand(single ? message : undefined);
  const { results, unscheduled } = simulateScheduling(ctx, nodes, candidates, ctx.pending);
  if (unscheduled.length > 0) return say(notAllPodsWouldSchedule(unscheduled));
  if (results.newNodeClaims.length === 0) return { candidates, results };
  if (results.newNodeClaims.length > 1) return say(`Can't remove without creating ${results.newNodeClaims.length} candidates`);

  const claim = results.newNodeClaims[0];
  const price = sumPrices(candidates);
  const allSpot = candidates.every((c) => c.node.capacityType === "spot");
  if (allSpot && claim.capacityTypes.includes("spot")) return spotToSpot(ctx, candidates, claim, results, price);

  const scope = scopeOf(claim, claim.capacityTypes, ctx);
  const options = cheaperThan(claim, claim.instanceTypeOptions, scope, price);
  if (typeof options === "string") return say(options);
  if (options.length === 0) return say("Can't replace with a cheaper node");
  // Priced at spot when both are allowed: the launch must not fall back to a dearer on-demand node.
  const capacityTypes: readonly PricedCapacityType[] = claim.capacityTypes.includes("spot") ? ["spot"] : claim.capacityTypes;
  return { candidates, results, replacement: { claim, options, capacityTypes } };
}

/** Spot replaced by spot: behind a feature gate, and for one node only among enough cheaper options (computeSpotToSpotConsolidation). */
function spotToSpot(ctx: DisruptionContext, candidates: readonly Candidate[], claim: NodeClaim, results: Results, price: number): Command | NoCommand {
  const single = candidates.length === 1;
  const say = (message: string) => noCommand(single ? message : undefined);
  if (!ctx.spotToSpot) return say("SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node");
  const capacityTypes: readonly PricedCapacityType[] = ["spot"];
  const options = cheaperThan(claim, claim.instanceTypeOptions, scopeOf(claim, capacityTypes, ctx), price);
  if (typeof options === "string") return say(options);
  if (options.length === 0) return say("Can't replace with a cheaper node");
  if (!single) return { candidates, results, replacement: { claim, options, capacityTypes } };
  if (options.length < MIN_SPOT_TO_SPOT_OPTIONS) {
    return say(
      `SpotToSpotConsolidation requires ${MIN_SPOT_TO_SPOT_OPTIONS} cheaper instance type options than the current candidate to consolidate, got ${options.length}`,
    );
  }
  // Launch among the cheapest 15 only, so a replacement cannot walk down a ladder of slightly cheaper types.
  return { candidates, results, replacement: { claim, options: options.slice(0, MIN_SPOT_TO_SPOT_OPTIONS), capacityTypes } };
}

/**
 * Multi-node only: options no cheaper than a candidate of the same type go (the same type again is really a plain
 * delete of the others), or the command is no longer valid (filterOutSameInstanceType).
 */
export function withoutSameInstanceType(ctx: DisruptionContext, command: Command): Command | undefined {
  const replacement = command.replacement;
  if (replacement === undefined) return command;
  const byType = new Map<string, number>();
  for (const c of command.candidates) byType.set(c.node.instanceType, Math.min(byType.get(c.node.instanceType) ?? Infinity, c.price));
  let ceiling = Number.POSITIVE_INFINITY;
  for (const o of replacement.options) ceiling = Math.min(ceiling, byType.get(o.type.name) ?? Infinity);
  if (ceiling === Number.POSITIVE_INFINITY) return command;
  const options = cheaperThan(replacement.claim, replacement.options, scopeOf(replacement.claim, replacement.capacityTypes, ctx), ceiling);
  if (typeof options === "string" || options.length === 0) return undefined;
  return { ...command, replacement: { ...replacement, options } };
}

/** What the command saves an hour: the candidates' prices less the replacement's cheapest option (EstimatedSavings). */
export function estimatedSavings(ctx: DisruptionContext, command: Command): number {
  const source = sumPrices(command.candidates);
  const replacement = command.replacement;
  if (replacement === undefined) return source;
  const cheapest = byPrice(replacement.options, scopeOf(replacement.claim, replacement.capacityTypes, ctx))[0];
  return source - (cheapest === undefined ? 0 : cheapestLaunchPrice(cheapest, scopeOf(replacement.claim, replacement.capacityTypes, ctx)));
}
