import type { NodeClaim } from "../simulation/node-claim";
import { satisfiesMinValues } from "../simulation/node-claim";
import type { InstanceOption, PricedCapacityType } from "../simulation/pool-offerings";
import type { Results } from "../simulation/scheduler";
import { type Blocker, type Candidate, consolidationBlocker } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import { byPrice, cheapestLaunchPrice, type LaunchScope, worstLaunchPrice } from "./offering-prices";
import { type DisruptionContext, notAllPodsWouldSchedule, type PendingPods, simulateScheduling } from "./simulate-scheduling";

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

/** What the disruption controller carries out: the candidates go, a replacement launches if there is one. */
export interface Command {
  readonly candidates: readonly Candidate[];
  readonly replacement?: Replacement;
  /** Where the simulation put the candidates' pods. */
  readonly results: Results;
  /** The cluster's pending pods still waiting once it ran, when its simulation scheduled them; undefined: as before. */
  readonly stillPending?: readonly PendingPods[];
}

const unconsolidatable = (message: string): Blocker => ({ event: "Unconsolidatable", message });

/** Multi- and single-node consolidation's ShouldDisrupt: why they leave the candidate alone, or undefined. */
export const consolidationShouldDisrupt = (ctx: DisruptionContext, candidate: Candidate): Blocker | undefined =>
  consolidationBlocker(candidate, ctx.simulation.typeKnown(candidate.node.instanceType));
export const isCommand = (value: Command | Blocker): value is Command => "candidates" in value;

const sumPrices = (candidates: readonly Candidate[]) => candidates.reduce((sum, c) => sum + c.price, 0);

function scopeOf(claim: NodeClaim, capacityTypes: readonly PricedCapacityType[], ctx: DisruptionContext): LaunchScope {
  return { capacityTypes, zones: ctx.simulation.zonesKnown ? claim.zones : undefined, spotKnown: ctx.simulation.spotKnown };
}

/** The options that cost less than `price` wherever they launch, cheapest first, if they still meet minValues. */
function cheaperThan(claim: NodeClaim, options: readonly InstanceOption[], scope: LaunchScope, price: number): InstanceOption[] | Blocker {
  const cheaper = byPrice(options, scope).filter((o) => worstLaunchPrice(o, scope) < price);
  const minValues = satisfiesMinValues(cheaper, claim.template.minValues);
  return minValues.ok ? cheaper : unconsolidatable(`Filtering by price: ${minValues.reason}`);
}

const NOT_CHEAPER = unconsolidatable("Can't replace with a cheaper node");

/**
 * The candidates' command, or why there is none, in Karpenter's words (computeConsolidation). Multi-node
 * consolidation publishes no event for a prefix it rejects; single-node consolidation publishes the reason.
 */
export function computeConsolidation(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[]): Command | Blocker {
  const { results, unscheduled } = simulateScheduling(ctx, nodes, candidates, ctx.pending);
  if (unscheduled.length > 0) return unconsolidatable(notAllPodsWouldSchedule(unscheduled));
  // The pending pods the simulation placed would run where it put them; the others still wait.
  const stillPending = results.pending.filter((p) => p.pending === true).map((p) => ({ group: p.pod.group, count: p.count }));
  if (results.newNodeClaims.length === 0) return { candidates, results, stillPending };
  if (results.newNodeClaims.length > 1) return unconsolidatable(`Can't remove without creating ${results.newNodeClaims.length} candidates`);

  const claim = results.newNodeClaims[0];
  const price = sumPrices(candidates);
  const allSpot = candidates.every((c) => c.node.capacityType === "spot");
  if (allSpot && claim.capacityTypes.includes("spot")) return spotToSpot(ctx, { candidates, results, stillPending }, claim, price);

  const scope = scopeOf(claim, claim.capacityTypes, ctx);
  const options = cheaperThan(claim, claim.instanceTypeOptions, scope, price);
  if (!Array.isArray(options)) return options;
  if (options.length === 0) return NOT_CHEAPER;
  // Priced at spot when both are allowed: the launch must not fall back to a dearer on-demand node.
  const capacityTypes: readonly PricedCapacityType[] = claim.capacityTypes.includes("spot") ? ["spot"] : claim.capacityTypes;
  return { candidates, results, stillPending, replacement: { claim, options, capacityTypes } };
}

/** Spot replaced by spot: behind a feature gate, and for one node only among enough cheaper options (computeSpotToSpotConsolidation). */
function spotToSpot(ctx: DisruptionContext, deleting: Command, claim: NodeClaim, price: number): Command | Blocker {
  if (!ctx.spotToSpot) return unconsolidatable("SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node");
  const capacityTypes: readonly PricedCapacityType[] = ["spot"];
  const options = cheaperThan(claim, claim.instanceTypeOptions, scopeOf(claim, capacityTypes, ctx), price);
  if (!Array.isArray(options)) return options;
  if (options.length === 0) return NOT_CHEAPER;
  if (deleting.candidates.length > 1) return { ...deleting, replacement: { claim, options, capacityTypes } };
  if (options.length < MIN_SPOT_TO_SPOT_OPTIONS) {
    return unconsolidatable(
      `SpotToSpotConsolidation requires ${MIN_SPOT_TO_SPOT_OPTIONS} cheaper instance type options than the current candidate to consolidate, got ${options.length}`,
    );
  }
  // Launch among the cheapest 15 only, so a replacement cannot walk down a ladder of slightly cheaper types; or
  // among as many as the pool's largest minValues asks, where that is more.
  const keep = Math.max(MIN_SPOT_TO_SPOT_OPTIONS, ...claim.template.minValues.map((r) => r.minValues ?? 0));
  return { ...deleting, replacement: { claim, options: options.slice(0, keep), capacityTypes } };
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
  if (!Array.isArray(options) || options.length === 0) return undefined;
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
