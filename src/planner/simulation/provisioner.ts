import type { PodGroup } from "../workload/workload-model";
import { chooseLaunch, type LaunchChoice, launchedNode, type PlannedNode, plannedNode } from "./launch";
import type { PodData } from "./pod-data";
import { byCpuAndMemoryDescending, type QueuedPods } from "./queue";
import type { Resources } from "./resources";
import { type Results, Scheduler } from "./scheduler";
import type { SimulationContext } from "./simulation-context";
import type { StateNode } from "./state-node";
import type { Topology } from "./topology";

// Karpenter's provisioner, for the pods of a plan: provisioning loops, each a scheduler solving the pods still
// pending against the nodes that exist, until a loop places nothing. The NodeClaims a loop opens launch; the
// next loop sees them as nodes of one type, zone and capacity type, at their real capacity against the pools'
// limits. Pods held back by limits (a new NodeClaim reserves its largest option), or by zone anti-affinity (a
// NodeClaim that may land in any free zone blocks them all), are planned by a later loop, as Karpenter's next
// provisioning loop would plan them, its queue sorted afresh as NewQueue sorts it. A StatefulSet whose podManagementPolicy is
// OrderedReady (the default) creates its pods one at a time, each once the one before runs: Karpenter sees them
// one provisioning loop apart, the next one joining the back of the queue, and a pod that finds no node keeps
// the ones after it from being created at all.
// @see kubernetes/kubernetes pkg/controller/statefulset/stateful_set_control.go (OrderedReady: one pod at a time)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/provisioner.go (Schedule, NewScheduler)

/** The pods to provision for, and where from. */
export interface ProvisioningRequest {
  /** The pod groups to plan, with the replicas to plan. */
  readonly groups: readonly PodGroup[];
  /** Nodes already running, with the pods bound to them (none for a plan from scratch). */
  readonly existingNodes?: readonly StateNode[];
  /** Replicas a group adds once the first plan is launched (an autoscaler scaling up); none when undefined. */
  readonly scaleUp?: ReadonlyMap<PodGroup, number>;
}

export interface ProvisioningResult {
  /** The nodes the plan launches, in launch order, each with every pod the plan put on it. */
  readonly nodes: readonly PlannedNode[];
  /** The same nodes, each with the node as the cluster then holds it (its pods bound): what consolidation starts from. */
  readonly launched: readonly { readonly planned: PlannedNode; readonly state: StateNode }[];
  /** The nodes given as running, in the order given, with the pods the plan added to them. */
  readonly existingNodes: readonly StateNode[];
  /** Each node given (the object given) as the plan leaves it, with the pods it added. */
  readonly existingAfter: ReadonlyMap<StateNode, StateNode>;
  /** Pods no loop found a node for, by group, with why the last of them found none. */
  readonly unschedulable: readonly { readonly id: string; readonly count: number; readonly reason: string }[];
  /** Pods that were placed only after giving up preferences, by group and what was given up. */
  readonly relaxed: readonly { readonly id: string; readonly count: number; readonly gaveUp: string }[];
}

/** Provisioning loops per wave of pods: enough for zone anti-affinity across every zone a region has. */
const LOOPS = 10;

/** The pod groups only bound to nodes already running, not among those to plan: topology counts them too. */
function boundOnly(groups: readonly PodGroup[], nodes: readonly StateNode[]): PodGroup[] {
  if (nodes.length === 0) return [];
  const known = new Set(groups);
  return nodes.flatMap((n) => n.pods.map((p) => p.group)).filter((g) => !known.has(g) && known.add(g));
}

type RelaxedCount = { readonly id: string; count: number; readonly gaveUp: string };

class Provisioner {
  private readonly pods: readonly PodData[];
  private readonly topology: Topology;
  /** The pods in a first loop's order; pods added later queue among those left, in that order. */
  private readonly queueOrder: readonly PodData[];
  private readonly queueRank: ReadonlyMap<PodData, number>;
  /** The nodes given, then those the loops launched, in launch order. */
  private nodes: StateNode[];
  /** How each node the loops launched launched: the nodes after those given, in the same order. */
  private readonly launches: { readonly pool: string; readonly choice: LaunchChoice }[] = [];
  /** What the pods on each launched node request, as the last loop counted them. */
  private launchedRequests: Resources[] = [];
  private readonly relaxed = new Map<string, RelaxedCount>();

  constructor(
    private readonly context: SimulationContext,
    private readonly input: ProvisioningRequest,
  ) {
    this.pods = input.groups.map((group) => context.podData(group));
    this.nodes = [...(input.existingNodes ?? [])];
    const bound = boundOnly(input.groups, this.nodes).map((group) => context.podData(group));
    this.topology = context.topology([...this.pods, ...bound], this.nodes);
    this.queueOrder = byCpuAndMemoryDescending(this.pods);
    this.queueRank = new Map(this.queueOrder.map((pod, rank) => [pod, rank]));
  }

  run(): ProvisioningResult {
    let pending = this.loops(this.runsOf((pod) => pod.group.replicas));
    const scaleUp = this.input.scaleUp;
    if (scaleUp !== undefined) {
      const more = this.runsOf((pod) => scaleUp.get(pod.group) ?? 0);
      if (more.length > 0) pending = this.loops(this.inQueueOrder([...more, ...pending]));
    }
    const given = this.nodes.length - this.launches.length;
    const launched = this.launches.map(({ pool, choice }, i) => {
      const state = this.nodes[given + i];
      return { planned: plannedNode(pool, choice, state, this.launchedRequests[i]), state };
    });
    const existingNodes = this.nodes.slice(0, given);
    return {
      nodes: launched.map((l) => l.planned),
      launched,
      existingNodes,
      // Every loop's scheduler keeps the nodes it is given in their order: the i-th node is the i-th given.
      existingAfter: new Map((this.input.existingNodes ?? []).map((node, i) => [node, existingNodes[i]])),
      unschedulable: pending.map((e) => ({ id: e.pod.group.id, count: e.count, reason: e.reason ?? "not planned" })),
      relaxed: [...this.relaxed.values()],
    };
  }

  private inQueueOrder(runs: readonly QueuedPods[]): QueuedPods[] {
    return [...runs].sort((a, b) => (this.queueRank.get(a.pod) ?? 0) - (this.queueRank.get(b.pod) ?? 0));
  }

  private runsOf(count: (pod: PodData) => number): QueuedPods[] {
    return this.queueOrder.filter((pod) => count(pod) > 0).map((pod) => ({ pod, count: count(pod) }));
  }

  /** Provisioning loops until one places nothing; returns what is still pending. */
  private loops(queued: readonly QueuedPods[]): readonly QueuedPods[] {
    const { runs, waiting } = oneAtATime(queued);
    let pending: readonly QueuedPods[] = runs;
    // Each pod an OrderedReady StatefulSet holds back takes a loop of its own.
    const most = LOOPS + [...waiting.values()].reduce((n, w) => n + w.count, 0);
    for (let loop = 0; loop < most && pending.length > 0; loop++) {
      const scheduler = new Scheduler({
        templates: this.context.templates,
        existingNodes: this.nodes,
        daemonSets: this.context.daemonSets,
        topology: this.topology,
        fits: this.context.fits,
        nodeClaimIds: this.context.nodeClaimIds,
      });
      const results = scheduler.solve(pending);
      pending = results.pending;
      this.count(results.relaxed);
      this.launch(results);
      const created = nextOrdinals(waiting, pending);
      if (results.placed === 0 && created.length === 0) break;
      pending = [...pending, ...created];
    }
    return withUncreated(pending, waiting);
  }

  /** The loop's NodeClaims launch; the next loop sees them as nodes, at their real capacity. */
  private launch(results: Results): void {
    const given = this.nodes.length - this.launches.length;
    this.nodes = results.existingNodes.map((node) => node.toStateNode());
    this.launchedRequests = results.existingNodes.slice(given).map((node) => node.requested);
    for (const nc of results.newNodeClaims) {
      const choice = chooseLaunch(nc, this.context.zonesKnown);
      this.launches.push({ pool: nc.template.pool.name, choice });
      this.launchedRequests.push(nc.requested);
      this.nodes.push(launchedNode(nc, choice, this.context.region));
    }
  }

  private count(relaxed: Results["relaxed"]): void {
    for (const r of relaxed) {
      const key = `${r.pod.group.id}\0${r.gaveUp}`;
      const seen = this.relaxed.get(key);
      if (seen === undefined) this.relaxed.set(key, { id: r.pod.group.id, count: r.count, gaveUp: r.gaveUp });
      else seen.count += r.count;
    }
  }
}

/** The pods of OrderedReady StatefulSets not created yet, by pod, each run with the reason it came with. */
type Waiting = Map<PodData, { count: number; readonly reason?: string }>;

/** The runs a loop starts from: an OrderedReady StatefulSet's first pod only, the rest waiting (runs of one group joined). */
function oneAtATime(queued: readonly QueuedPods[]): { runs: QueuedPods[]; waiting: Waiting } {
  const waiting: Waiting = new Map();
  const runs: QueuedPods[] = [];
  for (const run of queued) {
    if (run.pod.group.orderedReady !== true) runs.push(run);
    else if (waiting.has(run.pod)) (waiting.get(run.pod) as { count: number }).count += run.count;
    else {
      runs.push({ ...run, count: 1 });
      waiting.set(run.pod, { count: run.count - 1, reason: run.reason });
    }
  }
  return { runs, waiting };
}

/** Once an OrderedReady StatefulSet's pod has a node, the StatefulSet creates the next (one per loop). */
function nextOrdinals(waiting: Waiting, pending: readonly QueuedPods[]): QueuedPods[] {
  const blocked = new Set(pending.map((p) => p.pod));
  const created: QueuedPods[] = [];
  for (const [pod, left] of waiting) {
    if (left.count === 0 || blocked.has(pod)) continue;
    left.count--;
    created.push({ pod, count: 1 });
  }
  return created;
}

/** The pods an OrderedReady StatefulSet never created, counted with the pod they wait for (and its reason). */
function withUncreated(pending: readonly QueuedPods[], waiting: Waiting): readonly QueuedPods[] {
  if (![...waiting.values()].some((w) => w.count > 0)) return pending;
  const joined = pending.map((run) => {
    const left = waiting.get(run.pod);
    if (left === undefined || left.count === 0) return run;
    const count = left.count;
    left.count = 0;
    return { ...run, count: run.count + count };
  });
  const never = [...waiting.entries()].filter(([, w]) => w.count > 0).map(([pod, w]) => ({ pod, count: w.count, reason: w.reason }));
  return [...joined, ...never];
}

/** The nodes Karpenter launches for the pods, from the nodes given, and the pods that find no node. */
export function provision(context: SimulationContext, request: ProvisioningRequest): ProvisioningResult {
  return new Provisioner(context, request).run();
}
