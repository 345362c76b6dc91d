import { allocatableOf, amiFamilyFlags, isDefaultKubelet } from "../../instance-catalogue/allocatable";
import { type InstanceCatalogue, type InstanceType, labelsFor } from "../../instance-catalogue/instance-catalogue";
import { allowedValues, type Requirement, satisfiesAll } from "../../instance-catalogue/requirements";
import { MIB } from "../../shared/quantity";
import { CAPACITY_TYPES, type CapacityType } from "../../shared/vocabulary/capacity-types";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { PoolModel, SystemPods } from "../model";

// What one NodePool can launch: the instance types its rendered requirements admit (evaluated on each type's
// labels, as Karpenter does), their allocatable resources under the pool's node class, their prices, and the
// capacity types and zones left by the offering-level requirements.

/** Labels every node has but no requirement can plan for (one node by name, zone ids): any value passes. */
export const OPEN_LABELS: ReadonlySet<string> = new Set([LABEL.hostname, LABEL.zoneId, LABEL.windowsBuild]);

/** The capacity types the planner can price: reservations are selected by the node class at run time. */
export type PricedCapacityType = Exclude<CapacityType, "reserved">;

export interface Prices {
  /** True with --live data: spot offerings are priced per zone. */
  readonly spotKnown: boolean;
  onDemand(type: InstanceType): number | undefined;
  /** USD per hour by zone. */
  spot(type: InstanceType): Readonly<Record<string, number>> | undefined;
}

export interface Candidate {
  readonly type: InstanceType;
  readonly labels: Readonly<Record<string, string>>;
  /** Allocatable under the pool's node class. */
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly extended: Readonly<Record<string, number>>;
  readonly onDemandUsd: number | undefined;
  readonly spotUsd: Readonly<Record<string, number>> | undefined;
}

export interface Overhead {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly extended: Readonly<Record<string, number>>;
}

export interface PoolOfferings {
  readonly pool: PoolModel;
  /** Largest first (allocatable cpu, then memory, then name), so fit checks usually stop at the first. */
  readonly candidates: readonly Candidate[];
  readonly capacityTypes: readonly PricedCapacityType[];
  /** Undefined: any zone (an existing VPC, whose zones the config does not list). */
  readonly zones: readonly string[] | undefined;
  /** Requirements on labels that are neither instance-type nor offering labels: the pool defines them. */
  readonly poolLabelRequirements: readonly Requirement[];
  /** Why the pool can launch nothing, when it cannot. */
  readonly emptyReason: string | undefined;
  /** DaemonSet requests on each node of the pool (none until withOverhead). */
  readonly overhead: Overhead;
}

export interface OfferingContext {
  readonly catalogue: InstanceCatalogue;
  readonly prices: Prices;
  readonly region: string;
  /** The cluster's zones; undefined when unknown. */
  readonly zones: readonly string[] | undefined;
}

function candidateOf(type: InstanceType, pool: PoolModel, prices: Prices): Candidate {
  const nodeClass = pool.nodeClass;
  const allocatable =
    isDefaultKubelet(nodeClass.kubelet) && nodeClass.amiFamily === "AL2023"
      ? type.allocatable
      : allocatableOf(type.capacity, amiFamilyFlags(nodeClass.amiFamily), nodeClass.kubelet);
  return {
    type,
    labels: labelsFor(type, nodeClass.os),
    cpu: allocatable.cpuMillis,
    memory: allocatable.memoryBytes,
    pods: allocatable.pods,
    extended: type.extendedResources,
    onDemandUsd: prices.onDemand(type),
    spotUsd: prices.spotKnown ? prices.spot(type) : undefined,
  };
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The offerings of one pool; `requirements` may be a scenario's rewrite of the pool's own. */
export function poolOfferings(pool: PoolModel, requirements: readonly Requirement[], context: OfferingContext): PoolOfferings {
  const labelKeys = context.catalogue.labelKeys;
  const typeRequirements = requirements.filter((r) => labelKeys.has(r.key));
  let capacityTypes: string[] = [...CAPACITY_TYPES];
  let zones = context.zones === undefined ? undefined : [...context.zones];
  let regionOk = true;
  const poolLabelRequirements: Requirement[] = [];
  for (const r of requirements) {
    if (labelKeys.has(r.key)) continue;
    if (r.key === LABEL.capacityType) capacityTypes = allowedValues(capacityTypes, r);
    else if (r.key === LABEL.zone) zones = zones === undefined ? (r.operator === "In" ? [...(r.values ?? [])] : undefined) : allowedValues(zones, r);
    else if (r.key === LABEL.region) regionOk &&= allowedValues([context.region], r).length > 0;
    else poolLabelRequirements.push(r);
  }
  // On-Demand Capacity Reservations are selected by the node class at run time: the planner knows none.
  const usable = capacityTypes.filter((c): c is PricedCapacityType => c === "spot" || c === "on-demand");
  const candidates = context.catalogue.types
    .filter((type) => {
      const labels = labelsFor(type, pool.nodeClass.os);
      return satisfiesAll((key) => labels[key], typeRequirements);
    })
    .map((type) => candidateOf(type, pool, context.prices))
    // Karpenter launches only priced offerings; offline, spot is priced at the on-demand price, so a type
    // without one is out either way.
    .filter((c) => offered(c, usable, zones, context.prices.spotKnown))
    .sort((a, b) => b.cpu - a.cpu || b.memory - a.memory || byName(a.type.name, b.type.name));

  const emptyReason = !regionOk
    ? `its requirements exclude the region ${context.region}`
    : usable.length === 0
      ? `it allows capacity types [${capacityTypes.join(", ")}]; the planner prices spot and on-demand only (reservations are not known)`
      : zones !== undefined && zones.length === 0
        ? "its zone requirements leave none of the cluster's zones"
        : candidates.length === 0
          ? `no priced instance type satisfies its requirements`
          : undefined;
  return {
    pool,
    candidates: emptyReason === undefined ? candidates : [],
    capacityTypes: usable,
    zones,
    poolLabelRequirements,
    emptyReason,
    overhead: { cpu: 0, memory: 0, pods: 0, extended: {} },
  };
}

/** The cheapest spot price of a candidate in the allowed zones (undefined zones: any). */
export function cheapestSpot(c: Candidate, zones: readonly string[] | undefined): { usd: number; zone: string } | undefined {
  let best: { usd: number; zone: string } | undefined;
  for (const [zone, usd] of Object.entries(c.spotUsd ?? {})) {
    if (zones !== undefined && !zones.includes(zone)) continue;
    if (best === undefined || usd < best.usd || (usd === best.usd && zone < best.zone)) best = { usd, zone };
  }
  return best;
}

/** Whether the candidate has a priced offering of one of these capacity types in one of these zones. */
export function offered(c: Candidate, capacityTypes: readonly PricedCapacityType[], zones: readonly string[] | undefined, spotKnown: boolean): boolean {
  if (capacityTypes.includes("on-demand") && c.onDemandUsd !== undefined) return true;
  if (!capacityTypes.includes("spot")) return false;
  return spotKnown ? cheapestSpot(c, zones) !== undefined : c.onDemandUsd !== undefined;
}

/** The same offerings with the DaemonSets that run on the pool's nodes counted as overhead. */
export function withOverhead(offerings: PoolOfferings, overhead: Overhead): PoolOfferings {
  return { ...offerings, overhead };
}

/** aws-node and kube-proxy run on Linux nodes only (their DaemonSets select kubernetes.io/os: linux). */
export function systemOverhead(pool: PoolModel, daemonSets: readonly SystemPods[]): Overhead {
  if (pool.nodeClass.os !== "linux") return { cpu: 0, memory: 0, pods: 0, extended: {} };
  return {
    cpu: daemonSets.reduce((sum, d) => sum + d.requests.cpuMillis, 0),
    memory: daemonSets.reduce((sum, d) => sum + d.requests.memoryBytes, 0),
    pods: daemonSets.length,
    extended: {},
  };
}

/** Capacity counted against a pool's limits: vCPUs and memory as EC2 sizes them, extended resources as allocatable. */
export function limitUsage(candidate: Candidate, key: string): number {
  if (key === "cpu") return candidate.type.vcpu * 1000;
  if (key === "memory") return candidate.type.memoryMiB * MIB;
  if (key === "pods") return candidate.pods;
  return candidate.extended[key] ?? 0;
}
