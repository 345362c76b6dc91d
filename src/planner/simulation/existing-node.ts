import { formatRequirement, satisfies } from "../../instance-catalogue/requirements";
import { getOrAdd } from "../../shared/get-or-add";
import type { DaemonSetShape, HostPort, PodGroup } from "../workload/workload-model";
import { daemonRequests, daemonSetRunsOnNode } from "./daemon-overhead";
import { FITS, type FitOrReason, refuse } from "./fit-or-reason";
import { HostPortUsage } from "./host-port-usage";
import type { PodData } from "./pod-data";
import type { SchedulingForm } from "./preferences";
import { addResources, fits, type Resources, requestsOfPods } from "./resources";
import { nodePlacement, type StateNode } from "./state-node";
import { formatTaint, untoleratedTaint } from "./taints";
import type { Placement, PodCount, Topology } from "./topology";

// A node that already exists, as the scheduler tries it before any NodeClaim: a pod joins when it tolerates the
// node's taints, fits beside the pods already on it and its DaemonSets, its requirements hold for the node's
// labels, and topology lets it into the node's zone, capacity type and hostname. The node cannot change type, so
// room for DaemonSet pods that should run on it and do not yet is kept back for them.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/existingnode.go (NewExistingNode, Add)

export const EXCEEDS_NODE_RESOURCES = "exceeds node resources";

/** Made once: a pod may pass by hundreds of full nodes. */
const EXCEEDS_NODE_RESOURCES_REFUSAL = refuse(EXCEEDS_NODE_RESOURCES);

/** Each amount of `a` less `b`, never below zero (existingnode.go keeps the DaemonSets' remaining requests non-negative). */
function lessFloored(a: Resources, b: Resources): Resources {
  const extended: Record<string, number> = {};
  for (const [name, amount] of Object.entries(a.extended)) extended[name] = Math.max(0, amount - (b.extended[name] ?? 0));
  return { cpu: Math.max(0, a.cpu - b.cpu), memory: Math.max(0, a.memory - b.memory), pods: Math.max(0, a.pods - b.pods), extended };
}

/** A node's own requests, the DaemonSet room it keeps, and the host ports bound on it. */
interface Baseline {
  readonly requested: Resources;
  readonly daemons: Resources;
  readonly hostPorts: readonly { readonly port: HostPort; readonly by: string }[];
  readonly placement: Placement;
}

const baselines = new WeakMap<readonly DaemonSetShape[], WeakMap<StateNode, Baseline>>();

/**
 * What a node's own pods and DaemonSet pods take, computed once per node and DaemonSet list: the disruption
 * controller builds a scheduler over the same thousands of nodes for every candidate it tries.
 */
function baselineOf(state: StateNode, daemonSets: readonly DaemonSetShape[]) {
  const byNode = getOrAdd(baselines, daemonSets, () => new WeakMap());
  return getOrAdd(byNode, state, (): Baseline => {
    const running = daemonRequests(state.daemonSetPods);
    const belonging = daemonRequests(daemonSets.filter((ds) => daemonSetRunsOnNode(ds, state.labels, state.taints)));
    const hostPorts = [
      ...state.daemonSetPods.flatMap((ds) => (ds.pod.hostPorts ?? []).map((port) => ({ port, by: `DaemonSet ${ds.id}` }))),
      ...state.pods.flatMap(({ group }) => (group.pod.hostPorts ?? []).map((port) => ({ port, by: group.id }))),
    ];
    return {
      requested: requestsOfPods(state.pods),
      daemons: addResources(running, lessFloored(belonging, running)),
      hostPorts,
      placement: nodePlacement(state),
    };
  });
}

export class ExistingNode {
  readonly placement: Placement;
  private requestedSoFar: Resources;
  private readonly free: { cpu: number; memory: number; pods: number };
  /** Its pods once the scheduler added one; until then, the state's own (most nodes a simulation builds take none). */
  private runs: { readonly group: PodGroup; count: number }[] | undefined;
  private readonly addedRuns: { readonly group: PodGroup; count: number }[] = [];
  /** Whether a form's requirements hold for the node's labels, by form; made when a pod first gets that far. */
  private labelsAllow: Map<string, FitOrReason> | undefined;
  /** The host ports its pods and its DaemonSet pods bind; made when a pod with host ports comes. */
  private hostPorts: HostPortUsage | undefined;
  /** What its own pods request, the DaemonSet room it keeps (those running and those due), its ports and place. */
  private readonly baseline: Baseline;

  /** `daemonSets`: every DaemonSet of the cluster; those whose pods belong on this node and are missing get room kept. */
  constructor(
    readonly state: StateNode,
    private readonly topology: Topology,
    daemonSets: readonly DaemonSetShape[],
  ) {
    this.baseline = baselineOf(state, daemonSets);
    this.placement = this.baseline.placement;
    const { requested, daemons } = this.baseline;
    this.requestedSoFar = requested;
    const { allocatable: a } = state;
    this.free = {
      cpu: a.cpu - daemons.cpu - requested.cpu,
      memory: a.memory - daemons.memory - requested.memory,
      pods: a.pods - daemons.pods - requested.pods,
    };
  }

  get name(): string {
    return this.state.name;
  }

  /** Every pod on it: those bound before, then those the scheduler added. */
  get pods(): readonly PodCount[] {
    return this.runs ?? this.state.pods;
  }

  /** The pods the scheduler added, by group in the order they came. */
  get added(): readonly PodCount[] {
    return this.addedRuns;
  }

  /** What its pods request, DaemonSets aside. */
  get requested(): Resources {
    return this.requestedSoFar;
  }

  /** No pod of at least these requests can join: nothing more to try on this node. */
  closedTo(cpu: number, memory: number): boolean {
    return this.free.pods < 1 || this.free.cpu < cpu || this.free.memory < memory;
  }

  /** Cheap refusal: no room for the requests. */
  cannotHold(requests: Resources): boolean {
    return requests.cpu > this.free.cpu || requests.memory > this.free.memory || this.free.pods < 1;
  }

  /** Adds the pod, in this form, when it can join; otherwise says why not and changes nothing. */
  add(pod: PodData, form: SchedulingForm): FitOrReason {
    const taint = untoleratedTaint(form.tolerations, this.state.taints);
    if (taint !== undefined) return refuse(`does not tolerate the taint ${formatTaint(taint)}`);
    const portTaken = pod.hostPorts === undefined ? undefined : this.ports().conflict(pod.hostPorts);
    if (portTaken !== undefined) return refuse(portTaken);
    if (!fits(pod.requests, this.requestedSoFar, this.baseline.daemons, this.state.allocatable)) return EXCEEDS_NODE_RESOURCES_REFUSAL;
    const allowed = this.allows(form);
    if (!allowed.ok) return allowed;
    const placed = this.topology.addRequirements(pod.group, form.constraints, form.strict, this.placement);
    if (!placed.ok) return placed;
    const r = pod.requests;
    this.requestedSoFar = addResources(this.requestedSoFar, r);
    this.free.cpu -= r.cpu;
    this.free.memory -= r.memory;
    this.free.pods -= r.pods;
    if (pod.hostPorts !== undefined) this.ports().add(pod.hostPorts, pod.group.id);
    this.runs ??= this.state.pods.map(({ group, count }) => ({ group, count }));
    for (const runs of [this.runs, this.addedRuns]) {
      const last = runs[runs.length - 1];
      if (last?.group === pod.group) last.count++;
      else runs.push({ group: pod.group, count: 1 });
    }
    this.topology.record(pod.group, this.placement);
    return FITS;
  }

  /** The node once the scheduler is done: the pods it added are bound to it. */
  toStateNode(): StateNode {
    if (this.runs === undefined) return this.state;
    return { ...this.state, pods: this.runs.map(({ group, count }) => ({ group, count })) };
  }

  private ports(): HostPortUsage {
    this.hostPorts ??= new HostPortUsage(this.baseline.hostPorts);
    return this.hostPorts;
  }

  private allows(form: SchedulingForm): FitOrReason {
    this.labelsAllow ??= new Map();
    let allowed = this.labelsAllow.get(form.key);
    if (allowed === undefined) {
      const unmet = form.requirements.find((r) => !satisfies(this.state.labels[r.key], r));
      allowed = unmet === undefined ? FITS : refuse(`requires ${formatRequirement(unmet)}, which the node's labels do not satisfy`);
      this.labelsAllow.set(form.key, allowed);
    }
    return allowed;
  }
}
