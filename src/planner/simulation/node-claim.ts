import type { Requirement } from "../../instance-catalogue/requirements";
import type { PoolFit } from "./pod-fit";
import { type Candidate, offered, type PoolOfferings, type PricedCapacityType } from "./pool-offerings";
import type { SchedulingForm } from "./preferences";
import { fits, type Resources } from "./resources";
import type { Placement, TopologyRegistry } from "./topology";

// A NodeClaim being planned: the instance types it may still launch as (only ever fewer), the pods on it,
// and the zones and capacity types left to it. Adding a pod keeps only the types that hold every pod plus
// their own DaemonSet overhead, and that meet the pool's minValues.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go
//      (CanAdd, Add, filterInstanceTypesByRequirements)

/** What a pod asks of a node. */
export interface PodRequest {
  readonly group: number;
  readonly requests: Resources;
  readonly form: SchedulingForm;
}

/** What a NodeClaim launches as (launch.ts chooseLaunch). */
export interface LaunchChoice {
  /** The candidate's index in the pool's offerings. */
  readonly index: number;
  readonly capacityType: PricedCapacityType;
  readonly zone: string | undefined;
  readonly hourlyUsd: number;
  readonly upperBound: boolean;
}

interface Free {
  cpu: number;
  memory: number;
  pods: number;
}

export class NodeClaim {
  readonly host: string;
  viable: number[];
  requested: Resources = { cpu: 0, memory: 0, pods: 0, extended: {} };
  zones: readonly string[];
  capacityTypes: readonly PricedCapacityType[];
  /** The pod groups on the node, in the order they came, with how many pods of each. */
  readonly groups: { group: number; count: number }[] = [];
  /** The most and the least any viable type still has free: a pod within `least` fits every one of them. */
  private most: Free = { cpu: 0, memory: 0, pods: 0 };
  private least: Free = { cpu: 0, memory: 0, pods: 0 };
  /** An acceptance mask already known to admit every viable type. */
  private covered: Uint8Array | undefined;

  constructor(
    readonly id: number,
    readonly offerings: PoolOfferings,
    readonly pool: number,
    viable: number[],
    zones: readonly string[],
    capacityTypes: readonly PricedCapacityType[],
  ) {
    this.host = `node-${id}`;
    this.viable = viable;
    this.zones = zones;
    this.capacityTypes = capacityTypes;
    this.bounds();
  }

  get pods(): number {
    return this.requested.pods;
  }

  candidate(index: number): Candidate {
    return this.offerings.candidates[index];
  }

  private bounds(): void {
    const most = { cpu: -Infinity, memory: -Infinity, pods: -Infinity };
    const least = { cpu: Infinity, memory: Infinity, pods: Infinity };
    for (const i of this.viable) {
      const { allocatable: a, overhead: o } = this.offerings.candidates[i];
      const cpu = a.cpu - o.cpu - this.requested.cpu;
      const memory = a.memory - o.memory - this.requested.memory;
      const pods = a.pods - o.pods - this.requested.pods;
      most.cpu = Math.max(most.cpu, cpu);
      most.memory = Math.max(most.memory, memory);
      most.pods = Math.max(most.pods, pods);
      least.cpu = Math.min(least.cpu, cpu);
      least.memory = Math.min(least.memory, memory);
      least.pods = Math.min(least.pods, pods);
    }
    this.most = most;
    this.least = least;
  }

  /** How the NodeClaim launched, once its batch is over; a later batch sees it as a node of that type. */
  launch: LaunchChoice | undefined;

  get settled(): boolean {
    return this.launch !== undefined;
  }

  /**
   * The node as launched, for a later batch: one type, one zone, one capacity type (Karpenter then sees a
   * node, not a NodeClaim's options).
   */
  settle(choice: LaunchChoice): void {
    this.launch = choice;
    this.viable = [choice.index];
    if (choice.zone !== undefined) this.zones = [choice.zone];
    else if (this.zones.length > 1) this.zones = [this.zones[0]];
    this.capacityTypes = [choice.capacityType];
    this.covered = undefined;
    this.bounds();
  }

  /** No pod of at least these requests can ever join: nothing more to try on this node. */
  closedTo(cpu: number, memory: number): boolean {
    return this.most.pods < 1 || this.most.cpu < cpu || this.most.memory < memory;
  }

  /** Cheap refusal: no viable type has room for the requests. */
  cannotHold(requests: Resources): boolean {
    return requests.cpu > this.most.cpu || requests.memory > this.most.memory || this.most.pods < 1;
  }

  /**
   * Adds the pod when it can join (the pool accepts its form, topology allows a placement, some type holds
   * it); otherwise says why not and changes nothing.
   */
  tryAdd(pod: PodRequest, fit: PoolFit, topology: TopologyRegistry, spotKnown: boolean, minValues: readonly Requirement[]): string | undefined {
    if (this.cannotHold(pod.requests)) return "no instance type it may still launch as has room for the pod";
    const capacityTypes = this.capacityTypes.filter((t) => fit.capacityTypes.includes(t));
    if (capacityTypes.length === 0) return `the pod requires a capacity type the node cannot be (${this.capacityTypes.join(", ")})`;
    const zones = this.zones.filter((z) => fit.zones.includes(z));
    if (zones.length === 0) return `the pod requires a zone the node cannot be in (${this.zones.join(", ")})`;
    const placement = topology.allow(pod.group, pod.form.constraints, pod.form.strict, { host: this.host, zones, capacityTypes });
    if (typeof placement === "string") return placement;
    const narrowed = placement.zones.length !== this.zones.length || placement.capacityTypes.length !== this.capacityTypes.length;
    const r = pod.requests;
    const everyTypeHolds = r.cpu <= this.least.cpu && r.memory <= this.least.memory && this.least.pods >= 1 && Object.keys(r.extended).length === 0;
    const mustFilter = !everyTypeHolds || this.covered !== fit.accepts || (spotKnown && narrowed) || minValues.length > 0;
    let viable = this.viable;
    if (mustFilter) {
      const cts = placement.capacityTypes as PricedCapacityType[];
      viable = this.viable.filter((i) => {
        const c = this.offerings.candidates[i];
        return fit.accepts[i] === 1 && fits(r, this.requested, c.overhead, c.allocatable) && (!spotKnown || offered(c, cts, placement.zones, true));
      });
      if (viable.length === 0) return "no instance type it may still launch as holds the pod beside the others and the DaemonSets";
      const short = minValuesShortfall(
        viable.map((i) => this.offerings.candidates[i]),
        minValues,
      );
      if (short !== undefined) return short;
    }
    this.commit(pod, viable, placement, fit.accepts, mustFilter);
    topology.record(pod.group, { host: this.host, zones: this.zones, capacityTypes: this.capacityTypes });
    return undefined;
  }

  private commit(pod: PodRequest, viable: number[], placement: Placement, accepts: Uint8Array, filtered: boolean): void {
    const r = pod.requests;
    const extended: Record<string, number> = { ...this.requested.extended };
    for (const [name, amount] of Object.entries(r.extended)) extended[name] = (extended[name] ?? 0) + amount;
    this.requested = { cpu: this.requested.cpu + r.cpu, memory: this.requested.memory + r.memory, pods: this.requested.pods + r.pods, extended };
    this.viable = viable;
    this.zones = placement.zones;
    this.capacityTypes = placement.capacityTypes as PricedCapacityType[];
    this.covered = accepts;
    const last = this.groups[this.groups.length - 1];
    if (last?.group === pod.group) last.count++;
    else this.groups.push({ group: pod.group, count: 1 });
    if (filtered) this.bounds();
    else {
      for (const bound of [this.most, this.least]) {
        bound.cpu -= r.cpu;
        bound.memory -= r.memory;
        bound.pods -= r.pods;
      }
    }
  }
}

/**
 * Why the types left cannot meet a pool's minValues (distinct values of a key among the types a launch may
 * choose from), or undefined (cloudprovider/types.go SatisfiesMinValues).
 */
export function minValuesShortfall(candidates: readonly Candidate[], minValues: readonly Requirement[]): string | undefined {
  for (const r of minValues) {
    const distinct = new Set(candidates.map((c) => c.labels[r.key]).filter((v) => v !== undefined)).size;
    if (distinct < (r.minValues ?? 0)) return `the types left have ${distinct} distinct ${r.key} values; the pool's minValues asks for ${r.minValues}`;
  }
  return undefined;
}
