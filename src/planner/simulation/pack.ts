import type { InstanceType } from "../../instance-catalogue/instance-catalogue";
import { formatBytes, formatCpu } from "../../shared/quantity";
import type { PodShape } from "../workload/workload-model";
import type { FitResult } from "./pod-fit";
import { type Candidate, cheapestSpot, limitUsage, offered, type PoolOfferings, type PricedCapacityType } from "./pool-offerings";

// First-fit decreasing onto new nodes, the way Karpenter's provisioner fills NodeClaims: a node starts with
// every instance type its pool allows (within the pool's remaining limits); each pod added keeps only the
// types that still hold everything on it, DaemonSet overhead included; when none would hold the next pod it
// goes to the next node. The node then launches the cheapest offering that holds its pods, spot first where
// spot is allowed and priced. Nodes are filled one after another, which gives the same assignment as placing
// each pod in the first node that fits, and lets each finished node's capacity count against its pool's
// limits exactly. Identical pods are placed in bulk: the number that fits is the best over the types.

export interface PackGroup {
  readonly id: string;
  readonly pod: PodShape;
  readonly count: number;
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

export interface Unschedulable {
  readonly id: string;
  readonly count: number;
  readonly reason: string;
}

export interface PackResult {
  readonly nodes: readonly PlannedNode[];
  readonly unschedulable: readonly Unschedulable[];
}

export interface PackInput {
  /** In Karpenter's order: weight, then name. */
  readonly pools: readonly PoolOfferings[];
  /** Largest first. */
  readonly groups: readonly PackGroup[];
  /** fits[group][pool]. */
  readonly fits: readonly (readonly FitResult[])[];
  readonly spotKnown: boolean;
}

interface Bin {
  readonly offerings: PoolOfferings;
  viable: number[];
  cpu: number;
  memory: number;
  pods: number;
  extended: Record<string, number>;
  capacityTypes: readonly PricedCapacityType[];
  zones: readonly string[] | undefined;
  readonly groups: { id: string; count: number }[];
  /** The most free cpu, memory and pods any viable type still has: a pod larger in one of them cannot fit. */
  freeCpu: number;
  freeMemory: number;
  freePods: number;
}

function updateFree(bin: Bin): void {
  const o = bin.offerings.overhead;
  bin.freeCpu = 0;
  bin.freeMemory = 0;
  bin.freePods = 0;
  for (const index of bin.viable) {
    const c = bin.offerings.candidates[index];
    bin.freeCpu = Math.max(bin.freeCpu, c.cpu - o.cpu - bin.cpu);
    bin.freeMemory = Math.max(bin.freeMemory, c.memory - o.memory - bin.memory);
    bin.freePods = Math.max(bin.freePods, c.pods - o.pods - bin.pods);
  }
}

const intersect = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === undefined ? b : b === undefined ? a : a.filter((x) => b.includes(x));

/** How many more pods of this shape the candidate holds on top of what the bin already carries. */
function room(bin: Bin, c: Candidate, pod: PodShape): number {
  const o = bin.offerings.overhead;
  let n = c.pods - o.pods - bin.pods;
  if (pod.cpuMillis > 0) n = Math.min(n, Math.floor((c.cpu - o.cpu - bin.cpu) / pod.cpuMillis));
  if (pod.memoryBytes > 0) n = Math.min(n, Math.floor((c.memory - o.memory - bin.memory) / pod.memoryBytes));
  for (const [name, amount] of Object.entries(pod.extended)) {
    if (amount > 0) n = Math.min(n, Math.floor(((c.extended[name] ?? 0) - (o.extended[name] ?? 0) - (bin.extended[name] ?? 0)) / amount));
  }
  return Math.max(0, n);
}

/** Adds up to `want` pods of a group; returns how many went on. */
function addGroup(bin: Bin, group: PackGroup, fit: FitResult, want: number, spotKnown: boolean): number {
  if (!fit.ok) return 0;
  const capacityTypes = bin.capacityTypes.filter((t) => fit.fit.capacityTypes.includes(t));
  const zones = intersect(bin.zones, fit.fit.zones);
  if (capacityTypes.length === 0 || (zones !== undefined && zones.length === 0)) return 0;
  const narrowed = capacityTypes.length !== bin.capacityTypes.length || zones?.length !== bin.zones?.length;
  const candidates = bin.offerings.candidates;
  let best = 0;
  const rooms: number[] = new Array(bin.viable.length);
  bin.viable.forEach((index, k) => {
    const c = candidates[index];
    rooms[k] = fit.fit.accepts[index] === 1 && (!narrowed || offered(c, capacityTypes, zones, spotKnown)) ? room(bin, c, group.pod) : 0;
    if (rooms[k] > best) best = rooms[k];
  });
  const count = Math.min(want, best);
  if (count === 0) return 0;
  bin.viable = bin.viable.filter((_, k) => rooms[k] >= count);
  bin.cpu += group.pod.cpuMillis * count;
  bin.memory += group.pod.memoryBytes * count;
  bin.pods += count;
  for (const [name, amount] of Object.entries(group.pod.extended)) bin.extended[name] = (bin.extended[name] ?? 0) + amount * count;
  bin.capacityTypes = capacityTypes;
  bin.zones = zones;
  const last = bin.groups[bin.groups.length - 1];
  if (last?.id === group.id) last.count += count;
  else bin.groups.push({ id: group.id, count });
  updateFree(bin);
  return count;
}

/** Spot where it is allowed and offered, else on-demand; the cheapest price, then the name, wins. */
function launch(bin: Bin, spotKnown: boolean): PlannedNode {
  const candidates = bin.viable.map((i) => bin.offerings.candidates[i]);
  let chosen: { c: Candidate; usd: number; capacityType: PricedCapacityType; zone?: string; upper: boolean } | undefined;
  const consider = (c: Candidate, usd: number, capacityType: PricedCapacityType, upper: boolean, zone?: string) => {
    if (chosen === undefined || usd < chosen.usd || (usd === chosen.usd && c.type.name < chosen.c.type.name)) chosen = { c, usd, capacityType, zone, upper };
  };
  if (bin.capacityTypes.includes("spot") && spotKnown) {
    for (const c of candidates) {
      const spot = cheapestSpot(c, bin.zones);
      if (spot !== undefined) consider(c, spot.usd, "spot", false, spot.zone);
    }
  }
  if (chosen === undefined) {
    const onDemand = bin.capacityTypes.includes("on-demand");
    for (const c of candidates) if (c.onDemandUsd !== undefined) consider(c, c.onDemandUsd, onDemand ? "on-demand" : "spot", !onDemand);
  }
  if (chosen === undefined) throw new Error(`bug: a node of pool ${bin.offerings.pool.name} has no offering left`);
  return {
    pool: bin.offerings.pool.name,
    type: chosen.c.type,
    capacityType: chosen.capacityType,
    zone: chosen.zone,
    hourlyUsd: chosen.usd,
    priceIsUpperBound: chosen.upper,
    pods: bin.pods,
    cpuRequested: bin.cpu,
    memoryRequested: bin.memory,
    cpuAllocatable: chosen.c.cpu,
    memoryAllocatable: chosen.c.memory,
    groups: bin.groups,
  };
}

function openBin(offerings: PoolOfferings, remaining: Readonly<Record<string, number>>, withinLimits: boolean): Bin {
  const limits = Object.entries(remaining);
  const viable: number[] = [];
  offerings.candidates.forEach((c, i) => {
    if (!withinLimits || limits.every(([key, left]) => limitUsage(c, key) <= left)) viable.push(i);
  });
  const bin: Bin = {
    offerings,
    viable,
    cpu: 0,
    memory: 0,
    pods: 0,
    extended: {},
    capacityTypes: offerings.capacityTypes,
    zones: offerings.zones,
    groups: [],
    freeCpu: 0,
    freeMemory: 0,
    freePods: 0,
  };
  updateFree(bin);
  return bin;
}

/** "cpu 1000, memory 1000 GiB": a pool's limits for people. */
function formatLimits(limits: Readonly<Record<string, number>>): string {
  return Object.entries(limits)
    .map(([key, value]) => `${key} ${key === "cpu" ? formatCpu(value) : key === "memory" ? formatBytes(value) : value}`)
    .join(", ");
}

/** Why no new node can take one pod of this group: each pool's reason. */
function unschedulableReason(input: PackInput, g: number, remaining: readonly Record<string, number>[]): string {
  const group = input.groups[g];
  const reasons: string[] = [];
  for (const [p, offerings] of input.pools.entries()) {
    const fit = input.fits[g][p];
    if (!fit.ok) reasons.push(`NodePool ${offerings.pool.name}: ${fit.reason}`);
    else if (addGroup(openBin(offerings, remaining[p], false), group, fit, 1, input.spotKnown) === 0)
      reasons.push(`NodePool ${offerings.pool.name}: no instance type it allows holds the pod and the DaemonSets beside it`);
    else reasons.push(`NodePool ${offerings.pool.name}: its limits are reached (${formatLimits(offerings.pool.limits)})`);
  }
  return reasons.length === 0 ? "the cluster has no NodePool" : reasons.join("; ");
}

export function pack(input: PackInput): PackResult {
  const left = input.groups.map((g) => g.count);
  const remaining = input.pools.map((o) => ({ ...o.pool.limits }));
  const nodes: PlannedNode[] = [];
  const unschedulable: Unschedulable[] = [];
  for (let g = 0; g < input.groups.length; g++) {
    while (left[g] > 0) {
      // A new node from the first pool, in weight order, that takes at least one pod of this group.
      let bin: Bin | undefined;
      let pool = 0;
      for (; pool < input.pools.length; pool++) {
        const fit = input.fits[g][pool];
        if (!fit.ok) continue;
        const opened = openBin(input.pools[pool], remaining[pool], true);
        const added = addGroup(opened, input.groups[g], fit, left[g], input.spotKnown);
        if (added > 0) {
          left[g] -= added;
          bin = opened;
          break;
        }
      }
      if (bin === undefined) {
        unschedulable.push({ id: input.groups[g].id, count: left[g], reason: unschedulableReason(input, g, remaining) });
        left[g] = 0;
        break;
      }
      // Then every smaller pod that still fits, in order.
      for (let h = g + 1; h < input.groups.length && bin.freePods > 0; h++) {
        const pod = input.groups[h].pod;
        if (left[h] === 0 || pod.cpuMillis > bin.freeCpu || pod.memoryBytes > bin.freeMemory) continue;
        left[h] -= addGroup(bin, input.groups[h], input.fits[h][pool], left[h], input.spotKnown);
      }
      const node = launch(bin, input.spotKnown);
      nodes.push(node);
      const chosen = input.pools[pool].candidates.find((c) => c.type === node.type) as Candidate;
      for (const key of Object.keys(remaining[pool])) remaining[pool][key] -= limitUsage(chosen, key);
    }
  }
  return { nodes, unschedulable };
}

/**
 * Launches a node of known contents on a pool, choosing among the types `allowed` keeps: the re-pricing a
 * consolidation would do. Undefined when no allowed type holds them all.
 */
export function relaunch(
  offerings: PoolOfferings,
  contents: readonly { readonly group: PackGroup; readonly fit: FitResult; readonly count: number }[],
  spotKnown: boolean,
  allowed: (c: Candidate) => boolean,
): PlannedNode | undefined {
  const bin = openBin(offerings, {}, false);
  bin.viable = bin.viable.filter((i) => allowed(offerings.candidates[i]));
  updateFree(bin);
  for (const { group, fit, count } of contents) if (addGroup(bin, group, fit, count, spotKnown) !== count) return undefined;
  return launch(bin, spotKnown);
}
