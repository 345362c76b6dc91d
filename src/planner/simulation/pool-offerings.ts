import { allocatableOf, amiFamilyFlags, ephemeralStorageAllocatable, isDefaultKubelet, memoryCapacityMiB } from "../../instance-catalogue/allocatable";
import { type InstanceCatalogue, type InstanceType, labelsFor } from "../../instance-catalogue/instance-catalogue";
import { allowedValues, type Requirement, satisfiesAll } from "../../instance-catalogue/requirements";
import { MIB } from "../../shared/quantity";
import { CAPACITY_TYPES, type CapacityType } from "../../shared/vocabulary/capacity-types";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { PoolModel } from "../model";
import { type DaemonSetShape, EPHEMERAL_STORAGE } from "../workload/workload-model";
import { NO_RESOURCES, type Resources } from "./resources";

// What one NodePool can launch: the instance types its rendered requirements admit (evaluated on each type's
// labels, as Karpenter does), their allocatable resources under the pool's node class, what each counts
// against the pool's limits, their prices, and the capacity types and zones left by the offering-level
// requirements. DaemonSet overhead is per instance type (daemon-overhead.ts), as Karpenter counts it.

/** Labels every node has but no requirement can plan for (one node by name): any value passes. */
export const OPEN_LABELS: ReadonlySet<string> = new Set([LABEL.hostname, LABEL.windowsBuild]);

/** The capacity types the planner can price: reservations are selected by the node class at run time. */
export type PricedCapacityType = Exclude<CapacityType, "reserved">;

/** Extended resources that make a type "exotic" to Karpenter's AWS provider (instance/filter ExoticInstanceTypeFilter). */
const EXOTIC_RESOURCES = ["nvidia.com/gpu", "amd.com/gpu", "aws.amazon.com/neuron", "aws.amazon.com/neuroncore", "habana.ai/gaudi"];

export interface Prices {
  /** True with --live data: spot offerings are priced per zone. */
  readonly spotKnown: boolean;
  onDemand(type: InstanceType): number | undefined;
  /** USD per hour by zone. */
  spot(type: InstanceType): Readonly<Record<string, number>> | undefined;
}

export interface InstanceOption {
  /** Its place among the pool's options: the bit that acceptance masks keep for it (pod-fit.ts). */
  readonly index: number;
  readonly type: InstanceType;
  readonly labels: Readonly<Record<string, string>>;
  /** Allocatable under the pool's node class. */
  readonly allocatable: Resources;
  /** The DaemonSets whose pods run on a node of this type in this pool (daemon-overhead.ts), and their requests. */
  readonly daemonSets: readonly DaemonSetShape[];
  readonly overhead: Resources;
  /** What a node of this type counts against pool limits: Karpenter's capacity (cpu, memory after VM overhead, pods, extended). */
  readonly capacity: Readonly<Record<string, number>>;
  /** Metal, GPU or accelerator types, which Karpenter launches only when nothing else holds the pods. */
  readonly exotic: boolean;
  readonly onDemandUsd: number | undefined;
  readonly spotUsd: Readonly<Record<string, number>> | undefined;
}

export interface PoolOfferings {
  readonly pool: PoolModel;
  /** In catalogue order. */
  readonly options: readonly InstanceOption[];
  readonly capacityTypes: readonly PricedCapacityType[];
  /** The zones the pool launches in: the cluster's, narrowed by the pool's zone requirement. */
  readonly zones: readonly string[];
  /** Requirements on labels that are neither instance-type nor offering labels: the pool defines them. */
  readonly poolLabelRequirements: readonly Requirement[];
  /** Why the pool can launch nothing, when it cannot. */
  readonly emptyReason: string | undefined;
}

export interface OfferingContext {
  readonly catalogue: InstanceCatalogue;
  readonly prices: Prices;
  readonly region: string;
  /** The cluster's zones (or stand-ins when they are not known). */
  readonly zones: readonly string[];
  /** False when the zones are stand-ins: spot prices are then taken from any zone. */
  readonly zonesKnown: boolean;
}

function optionOf(type: InstanceType, pool: PoolModel, prices: Prices): Omit<InstanceOption, "index"> {
  const nodeClass = pool.nodeClass;
  // The same for every type of the class: what kubelet leaves of the root volume.
  const ephemeral = ephemeralStorageAllocatable(nodeClass.ephemeralStorageBytes, nodeClass.kubelet);
  const allocatable =
    isDefaultKubelet(nodeClass.kubelet) && nodeClass.amiFamily === "AL2023"
      ? type.allocatable
      : allocatableOf(type.capacity, amiFamilyFlags(nodeClass.amiFamily), nodeClass.kubelet);
  return {
    type,
    labels: labelsFor(type, nodeClass.os),
    allocatable: {
      cpu: allocatable.cpuMillis,
      memory: allocatable.memoryBytes,
      pods: allocatable.pods,
      extended: { ...type.extendedResources, [EPHEMERAL_STORAGE]: ephemeral },
    },
    daemonSets: [],
    overhead: NO_RESOURCES,
    // cloudprovider InstanceType.Capacity: vCPUs, memory less the VM overhead (not EC2's nominal figure), pods.
    capacity: { cpu: type.vcpu * 1000, memory: memoryCapacityMiB(type.capacity) * MIB, pods: allocatable.pods, ...type.extendedResources },
    exotic: type.size.includes("metal") || EXOTIC_RESOURCES.some((r) => (type.extendedResources[r] ?? 0) > 0),
    onDemandUsd: prices.onDemand(type),
    spotUsd: prices.spotKnown ? prices.spot(type) : undefined,
  };
}

/** The pool's zones: the cluster's, narrowed by the pool's zone requirements (listed names where the cluster's are stand-ins). */
function poolZones(requirements: readonly Requirement[], context: OfferingContext): string[] {
  let zones = [...context.zones];
  for (const r of requirements) {
    if (r.key !== LABEL.zone) continue;
    zones = !context.zonesKnown && r.operator === "In" ? [...(r.values ?? [])] : allowedValues(zones, r);
  }
  return zones;
}

/** The offerings of one pool; `requirements` may be a scenario's rewrite of the pool's own. */
export function poolOfferings(pool: PoolModel, requirements: readonly Requirement[], context: OfferingContext): PoolOfferings {
  const labelKeys = context.catalogue.labelKeys;
  const typeRequirements = requirements.filter((r) => labelKeys.has(r.key));
  let capacityTypes: CapacityType[] = [...CAPACITY_TYPES];
  let regionOk = true;
  const poolLabelRequirements: Requirement[] = [];
  for (const r of requirements) {
    if (labelKeys.has(r.key) || r.key === LABEL.zone) continue;
    if (r.key === LABEL.capacityType) capacityTypes = allowedValues(capacityTypes, r);
    else if (r.key === LABEL.region) regionOk &&= allowedValues([context.region], r).length > 0;
    else poolLabelRequirements.push(r);
  }
  const zones = poolZones(requirements, context);
  // On-Demand Capacity Reservations are selected by the node class at run time: the planner knows none.
  const usable = capacityTypes.filter((c): c is PricedCapacityType => c === "spot" || c === "on-demand");
  const options = context.catalogue.types
    .filter((type) => {
      const labels = labelsFor(type, pool.nodeClass.os);
      return satisfiesAll((key) => labels[key], typeRequirements);
    })
    .map((type) => optionOf(type, pool, context.prices))
    // Karpenter launches only priced offerings; offline, spot is priced at the on-demand price, so a type
    // without one is out either way.
    .filter((c) => offered(c, usable, context.zonesKnown ? zones : undefined, context.prices.spotKnown))
    .map((c, index) => ({ ...c, index }));

  const emptyReason = !regionOk
    ? `its requirements exclude the region ${context.region}`
    : usable.length === 0
      ? `it allows capacity types [${capacityTypes.join(", ")}]; the planner prices spot and on-demand only (reservations are not known)`
      : zones.length === 0
        ? "its zone requirements leave none of the cluster's zones"
        : options.length === 0
          ? `no priced instance type satisfies its requirements`
          : undefined;
  return { pool, options: emptyReason === undefined ? options : [], capacityTypes: usable, zones, poolLabelRequirements, emptyReason };
}

/** The cheapest spot price of an instance option in the allowed zones (undefined zones: any). */
export function cheapestSpot(c: Pick<InstanceOption, "spotUsd">, zones: readonly string[] | undefined): { usd: number; zone: string } | undefined {
  let best: { usd: number; zone: string } | undefined;
  for (const [zone, usd] of Object.entries(c.spotUsd ?? {})) {
    if (zones !== undefined && !zones.includes(zone)) continue;
    if (best === undefined || usd < best.usd || (usd === best.usd && zone < best.zone)) best = { usd, zone };
  }
  return best;
}

/** Whether the instance option has a priced offering of one of these capacity types in one of these zones (undefined: any). */
export function offered(
  c: Pick<InstanceOption, "onDemandUsd" | "spotUsd">,
  capacityTypes: readonly PricedCapacityType[],
  zones: readonly string[] | undefined,
  spotKnown: boolean,
): boolean {
  if (capacityTypes.includes("on-demand") && c.onDemandUsd !== undefined) return true;
  if (!capacityTypes.includes("spot")) return false;
  return spotKnown ? cheapestSpot(c, zones) !== undefined : c.onDemandUsd !== undefined;
}
