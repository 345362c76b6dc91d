import type { Requirement } from "../../instance-catalogue/requirements";
import type { PodGroup } from "../workload/workload-model";
import { FITS, type FitOrReason, refuse } from "./fit-or-reason";
import { HostPortUsage } from "./host-port-usage";
import type { NodeClaimTemplate } from "./node-claim-template";
import type { PodData } from "./pod-data";
import type { FitCache, PoolFit } from "./pod-fit";
import { type InstanceOption, offered, type PricedCapacityType } from "./pool-offerings";
import type { SchedulingForm } from "./preferences";
import { fits, NO_RESOURCES, type Resources } from "./resources";
import type { Placement, PodCount, Topology } from "./topology";

// A NodeClaim the scheduler is filling: the instance types it may still launch as (only ever fewer), the pods
// on it, and the zones and capacity types left to it. A pod joins when the pool takes it (taints, requirements),
// topology leaves it a zone and a capacity type, and some type still holds every pod plus that type's own
// DaemonSet overhead while the types left meet the pool's minValues; the NodeClaim then keeps only those types.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go
//      (NewNodeClaim, Add, filterInstanceTypesByRequirements)

/** Refused for room: no type the NodeClaim may still be has room for the pod (the scheduler words it for a new one). */
export const NO_ROOM = "no instance type it may still launch as has room for the pod";
export const NO_TYPE_HOLDS = "no instance type it may still launch as holds the pod beside the others and the DaemonSets";

// The refusals a pod meets most, made once: a pod may pass by hundreds of full NodeClaims.
const NO_ROOM_REFUSAL = refuse(NO_ROOM);
const NO_TYPE_HOLDS_REFUSAL = refuse(NO_TYPE_HOLDS);

interface Free {
  cpu: number;
  memory: number;
  pods: number;
}

export class NodeClaim {
  /** A placeholder, as Karpenter's: hostname topology needs a name before the node has one. */
  readonly hostname: string;
  private viable: readonly InstanceOption[];
  private requestedSoFar: Resources = NO_RESOURCES;
  private zonesLeft: readonly string[];
  private capacityTypesLeft: readonly PricedCapacityType[];
  /** The pods on it, by group in the order they came (a run of the same group is one entry). */
  private readonly runs: { readonly group: PodGroup; count: number }[] = [];
  /** The most and the least any viable type still has free: a pod within `least` fits every one of them. */
  private most: Free = { cpu: 0, memory: 0, pods: 0 };
  private least: Free = { cpu: 0, memory: 0, pods: 0 };
  /** An acceptance mask already known to admit every viable type. */
  private covered: Uint8Array | undefined;
  /** The host ports its pods and its DaemonSets bind; undefined while none does. */
  private hostPorts: HostPortUsage | undefined;

  /** `instanceTypes`: the pool's types within its remaining limits. */
  constructor(
    readonly template: NodeClaimTemplate,
    private readonly topology: Topology,
    private readonly fitCache: FitCache,
    readonly id: number,
    instanceTypes: readonly InstanceOption[],
  ) {
    this.hostname = `hostname-placeholder-${String(id).padStart(4, "0")}`;
    this.viable = instanceTypes;
    this.zonesLeft = template.offerings.zones;
    this.capacityTypesLeft = template.offerings.capacityTypes;
    this.hostPorts = template.daemonHostPorts.length === 0 ? undefined : new HostPortUsage(template.daemonHostPorts);
    this.bounds();
  }

  /** The types it may still launch as, in the pool's order. */
  get instanceTypeOptions(): readonly InstanceOption[] {
    return this.viable;
  }

  get zones(): readonly string[] {
    return this.zonesLeft;
  }

  get capacityTypes(): readonly PricedCapacityType[] {
    return this.capacityTypesLeft;
  }

  get pods(): readonly PodCount[] {
    return this.runs;
  }

  get podCount(): number {
    return this.requestedSoFar.pods;
  }

  /** What its pods request, DaemonSets aside. */
  get requested(): Resources {
    return this.requestedSoFar;
  }

  private bounds(): void {
    const most = { cpu: -Infinity, memory: -Infinity, pods: -Infinity };
    const least = { cpu: Infinity, memory: Infinity, pods: Infinity };
    const requested = this.requestedSoFar;
    for (const { allocatable: a, overhead: o } of this.viable) {
      const cpu = a.cpu - o.cpu - requested.cpu;
      const memory = a.memory - o.memory - requested.memory;
      const pods = a.pods - o.pods - requested.pods;
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

  /** No pod of at least these requests can ever join: nothing more to try on this NodeClaim. */
  closedTo(cpu: number, memory: number): boolean {
    return this.most.pods < 1 || this.most.cpu < cpu || this.most.memory < memory;
  }

  /** Cheap refusal: no viable type has room for the requests. */
  cannotHold(requests: Resources): boolean {
    return requests.cpu > this.most.cpu || requests.memory > this.most.memory || this.most.pods < 1;
  }

  /** Adds the pod, in this form, when it can join; otherwise says why not and changes nothing. */
  add(pod: PodData, form: SchedulingForm): FitOrReason {
    const poolFit = this.fitCache.fit(form, this.template.offerings);
    if (!poolFit.ok) return poolFit;
    const fit = poolFit.value;
    const portTaken = pod.hostPorts === undefined ? undefined : this.hostPorts?.conflict(pod.hostPorts);
    if (portTaken !== undefined) return refuse(portTaken);
    if (this.cannotHold(pod.requests)) return NO_ROOM_REFUSAL;
    const capacityTypes = this.capacityTypesLeft.filter((t) => fit.capacityTypes.includes(t));
    if (capacityTypes.length === 0) return refuse(`the pod requires a capacity type the node cannot be (${this.capacityTypesLeft.join(", ")})`);
    const zones = this.zonesLeft.filter((z) => fit.zones.includes(z));
    if (zones.length === 0) return refuse(`the pod requires a zone the node cannot be in (${this.zonesLeft.join(", ")})`);
    const placed = this.topology.addRequirements(pod.group, form.constraints, form.strict, { host: this.hostname, zones, capacityTypes });
    if (!placed.ok) return placed;
    const placement = placed.value;
    const narrowed = placement.zones.length !== this.zonesLeft.length || placement.capacityTypes.length !== this.capacityTypesLeft.length;
    const r = pod.requests;
    const everyTypeHolds = r.cpu <= this.least.cpu && r.memory <= this.least.memory && this.least.pods >= 1 && Object.keys(r.extended).length === 0;
    const { spotKnown, minValues } = this.template;
    const mustFilter = !everyTypeHolds || this.covered !== fit.accepts || (spotKnown && narrowed) || minValues.length > 0;
    let viable = this.viable;
    if (mustFilter) {
      viable = this.viable.filter(
        (c) =>
          fit.accepts[c.index] === 1 &&
          fits(r, this.requestedSoFar, c.overhead, c.allocatable) &&
          (!spotKnown || offered(c, placement.capacityTypes, placement.zones, true)),
      );
      if (viable.length === 0) return NO_TYPE_HOLDS_REFUSAL;
      const enough = satisfiesMinValues(viable, minValues);
      if (!enough.ok) return enough;
    }
    this.commit(pod, viable, placement, fit, mustFilter);
    this.topology.record(pod.group, { host: this.hostname, zones: this.zonesLeft, capacityTypes: this.capacityTypesLeft });
    return FITS;
  }

  private commit(pod: PodData, viable: readonly InstanceOption[], placement: Placement<PricedCapacityType>, fit: PoolFit, filtered: boolean): void {
    const r = pod.requests;
    const before = this.requestedSoFar;
    const extended: Record<string, number> = { ...before.extended };
    for (const [name, amount] of Object.entries(r.extended)) extended[name] = (extended[name] ?? 0) + amount;
    this.requestedSoFar = { cpu: before.cpu + r.cpu, memory: before.memory + r.memory, pods: before.pods + r.pods, extended };
    this.viable = viable;
    this.zonesLeft = placement.zones;
    this.capacityTypesLeft = placement.capacityTypes;
    this.covered = fit.accepts;
    if (pod.hostPorts !== undefined) {
      this.hostPorts ??= new HostPortUsage();
      this.hostPorts.add(pod.hostPorts, pod.group.id);
    }
    const last = this.runs[this.runs.length - 1];
    if (last?.group === pod.group) last.count++;
    else this.runs.push({ group: pod.group, count: 1 });
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
 * Whether the types left still meet a pool's minValues: as many distinct values of each key among the types a
 * launch may choose from (cloudprovider/types.go SatisfiesMinValues).
 */
export function satisfiesMinValues(options: readonly InstanceOption[], minValues: readonly Requirement[]): FitOrReason {
  for (const r of minValues) {
    const distinct = new Set(options.map((c) => c.labels[r.key]).filter((v) => v !== undefined)).size;
    if (distinct < (r.minValues ?? 0)) return refuse(`the types left have ${distinct} distinct ${r.key} values; the pool's minValues asks for ${r.minValues}`);
  }
  return FITS;
}
