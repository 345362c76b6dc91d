import { budgetScheduleActive, cronScheduleProblem } from "../../provisioners/cron-schedule";
import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { poolTotals } from "../consolidation/balanced";
import { blockingBudget, budgetMapping } from "../consolidation/budget-mapping";
import { type Candidate, isCandidate, newCandidate } from "../consolidation/candidates";
import type { ClusterNode } from "../consolidation/cluster-node";
import { type Command, computeConsolidation, isCommand } from "../consolidation/compute-consolidation";
import { disruptionContext } from "../consolidation/disruption-context";
import { launchesOf, nextCommand } from "../consolidation/disruption-controller";
import type { DisruptionMethod, MethodName } from "../consolidation/disruption-method";
import { EMPTINESS, emptiness } from "../consolidation/emptiness";
import type { PendingPods } from "../consolidation/simulate-scheduling";
import { chooseLaunch, type LaunchRequest, launchedNode } from "../simulation/launch";
import type { PodData } from "../simulation/pod-data";
import { byCpuAndMemoryDescending } from "../simulation/queue";
import { Scheduler } from "../simulation/scheduler";
import type { SimulationContext } from "../simulation/simulation-context";
import { podDisruptionBudgets } from "../workload/pod-disruption-budgets";
import type { PodDisruptionBudgetSpec, PodGroup } from "../workload/workload-model";
import { Batcher } from "./batcher";
import { PodWaits, type WaitSummary } from "./pod-waits";
import { type CreatedPods, countOf, PodsByCreation } from "./pods-by-creation";
import { ReplayNode } from "./replay-node";
import {
  CONSOLIDATION_STATE_TTL_SECONDS,
  DISRUPTION_POLL_SECONDS,
  EC2_MINIMUM_BILLED_SECONDS,
  FARGATE_MINIMUM_BILLED_SECONDS,
  PROVISIONABLE_RETRIGGER_SECONDS,
  type ReplayTiming,
  TERMINATION_SECONDS,
  VALIDATION_SECONDS,
} from "./replay-timing";
import { podsToDelete } from "./scale-down-order";

// A replica curve played through Karpenter's controllers on a clock. The curve's changes create pods (the
// ReplicaSet creates them at once) or delete them (in its deletion order); the kube-scheduler binds new pods to
// ready nodes with room at once; the rest are pending and open the provisioner's batch window, which, once closed,
// schedules them with the planner's scheduler onto the nodes that exist (those still starting included) and new
// NodeClaims; a NodeClaim is a ready node `nodeReady` later, and the pods nominated to it bind then. The
// disruption controller runs on its own clock: a pass every 10 s (the methods and their order are the planner's
// consolidation code), a node a candidate once consolidateAfter has passed since its last pod event, budgets read at
// the simulated time, a command validated 15 s after it was computed, replacements launched before the candidates
// are deleted, the candidates' pods created again and bound where the simulation put them.
// Where the model stops: drift, expiration, interruption and repair are not modelled; a command's 10-minute
// timeout is; pods start the moment they bind (image pull and probes are the workload's, not Karpenter's); a
// node's instance is terminated a fixed 5 s after its NodeClaim is deleted.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/provisioner.go (Reconcile, Schedule)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/controller.go (Reconcile), queue.go (StartCommand, waitOrTerminate)

/** A workload's replicas from `t` on. */
export interface CurveChange {
  readonly t: number;
  readonly group: PodGroup;
  readonly replicas: number;
}

/** A workload Fargate runs: billed per pod for its lifetime. */
export interface FargateWorkload {
  readonly group: PodGroup;
  /** USD per pod per hour, at the Fargate size its requests round up to. */
  readonly podHourlyUsd: number;
}

export interface ReplayInput {
  readonly simulation: SimulationContext;
  /** Karpenter's workloads, the very objects the initial nodes' pods are of. */
  readonly groups: readonly PodGroup[];
  readonly fargate: readonly FargateWorkload[];
  readonly pdbs: readonly PodDisruptionBudgetSpec[];
  /** The nodes running at the start, with their pods: the cluster settled at the first replicas. */
  readonly initialNodes: readonly ClusterNode[];
  /** Pods of the start that found no node. */
  readonly initialPending: readonly PendingPods[];
  /** The replicas at the start, every workload's (Fargate's too). */
  readonly initialReplicas: ReadonlyMap<PodGroup, number>;
  /** In time order. */
  readonly changes: readonly CurveChange[];
  /** The wall-clock time of t = 0: budgets' schedules are read at start + t. */
  readonly start: Date;
  readonly timing: ReplayTiming;
}

export interface TimelinePoint {
  readonly t: number;
  /** EC2 nodes that exist (launching and terminating ones included). */
  readonly nodes: number;
  /** Pods created and not running: pending, or nominated to a node still starting. */
  readonly pending: number;
  /** What runs now costs an hour: the EC2 nodes, and Fargate's pods. */
  readonly hourlyUsd: number;
}

export interface PeakNode {
  readonly name: string;
  readonly instanceType: string;
  readonly capacityType: string;
  readonly pods: number;
  readonly hourlyUsd: number | undefined;
}

export interface DisruptionRecord {
  readonly t: number;
  readonly method: MethodName;
  readonly kind: "delete" | "replace";
  readonly nodes: readonly string[];
  readonly replacements: readonly string[];
}

export interface ReplayResult {
  /** From t = 0 to the end: the curve's last change, and then until the cluster is quiet. */
  readonly seconds: number;
  /** False when the cluster was still changing a day after the curve's last change, where the replay stopped. */
  readonly settled: boolean;
  readonly ec2Usd: number;
  readonly fargateUsd: number;
  readonly timeline: readonly TimelinePoint[];
  readonly waits: WaitSummary;
  /** Pods still not running at the end. */
  readonly stillPending: number;
  readonly disruptions: { readonly deleted: number; readonly replaced: number; readonly podsEvicted: number; readonly commands: readonly DisruptionRecord[] };
  /** Commands the 15 s validation abandoned (the cluster changed meanwhile). */
  readonly abandoned: number;
  readonly launched: number;
  /** The nodes when there were most (the first time), each with the pods bound or nominated to it. */
  readonly atPeak: readonly PeakNode[];
  readonly final: readonly ClusterNode[];
  /** Why pods found no node, by workload, as the last provisioning said. */
  readonly unschedulable: readonly { readonly id: string; readonly reason: string }[];
}

/** How long past the curve's last change the replay waits for the cluster to go quiet. */
const MAX_TAIL_SECONDS = 24 * 3600;
/** A command whose replacements are not initialized within 10 minutes is abandoned (queue.go maxRetryDuration). */
const COMMAND_TIMEOUT_SECONDS = 600;

interface Validating {
  readonly at: number;
  readonly method: DisruptionMethod;
  readonly command: Command;
  readonly candidates: readonly ReplayNode[];
}

interface InFlight {
  readonly startedAt: number;
  readonly method: MethodName;
  readonly kind: "delete" | "replace";
  readonly candidates: readonly ReplayNode[];
  readonly replacements: readonly ReplayNode[];
}

class Replay {
  private t = 0;
  private nodes: ReplayNode[] = [];
  private readonly byName = new Map<string, ReplayNode>();
  private readonly pending = new Map<PodGroup, PodsByCreation>();
  private readonly fargatePods = new Map<PodGroup, PodsByCreation>();
  private readonly fargateRate = new Map<PodGroup, number>();
  private readonly podData = new Map<PodGroup, PodData>();
  private readonly batcher: Batcher;
  private readonly waits = new PodWaits();
  private readonly timeline: TimelinePoint[] = [];
  private atPeak: PeakNode[] = [];
  private readonly commands: DisruptionRecord[] = [];
  private inFlight: InFlight[] = [];
  private validating: Validating | undefined;
  private nextPass = 0;
  private version = 0;
  private lastNoOp: { signature: string; t: number } | undefined;
  /** New pending pods the batcher has not been told of. */
  private untriggered = false;
  private retriggerAt: number | undefined;
  private futileVersion = -1;
  private kubeDirty = false;
  private ec2Usd = 0;
  private fargateUsd = 0;
  private evicted = 0;
  private deleted = 0;
  private replaced = 0;
  private abandoned = 0;
  private launched = 0;
  private named = 0;
  private unschedulable = new Map<string, string>();
  /** The pools' budget schedules (those that parse), whose activity the clock turns on and off. */
  private readonly schedules: readonly { readonly cron: string; readonly minutes: number }[];
  /** The last pass found nothing to do only because a budget held a candidate. */
  private held = false;
  /** When a budget schedule next turns on or off, within a day; undefined when none does. */
  private budgetChangeAt: number | undefined;

  constructor(private readonly input: ReplayInput) {
    this.batcher = new Batcher(input.timing);
    this.schedules = [...input.simulation.disruption.values()].flatMap((pool) =>
      pool.budgets.flatMap((b) => (b.schedule !== undefined && cronScheduleProblem(b.schedule.cron) === undefined ? [b.schedule] : [])),
    );
    for (const group of input.groups) this.podData.set(group, input.simulation.podData(group));
    for (const node of input.initialNodes) {
      const how = { instanceType: node.instanceType, capacityType: node.capacityType, hourlyUsd: node.hourlyUsd, upperBound: node.priceIsUpperBound };
      const pool = node.pool === undefined ? undefined : input.simulation.disruption.get(node.pool.pool);
      const name = this.nodeName(node.pool?.pool ?? "node");
      const state = { ...node.state, name, labels: { ...node.state.labels, [LABEL.hostname]: name }, initialized: true };
      const replayNode = new ReplayNode(state, how, pool, 0, 0, true);
      for (const { group } of node.state.pods) replayNode.podsSince.set(group, Number.NEGATIVE_INFINITY);
      this.add(replayNode);
    }
    for (const { group, count } of input.initialPending) this.pendingOf(group).add(0, count);
    for (const { group, podHourlyUsd } of input.fargate) {
      this.fargateRate.set(group, podHourlyUsd);
      const pods = new PodsByCreation();
      pods.add(Number.NEGATIVE_INFINITY, input.initialReplicas.get(group) ?? 0);
      this.fargatePods.set(group, pods);
    }
    this.untriggered = this.pendingCount() > 0;
    this.kubeDirty = this.untriggered;
  }

  run(): ReplayResult {
    const changes = this.input.changes;
    const lastChange = changes.length === 0 ? 0 : changes[changes.length - 1].t;
    let next = 0;
    let settled = true;
    let sameTime = 0;
    for (;;) {
      sameTime = next === this.t ? sameTime + 1 : 0;
      if (sameTime > 100_000) throw new Error(`bug: the replay makes no progress at t=${next}`);
      this.t = next;
      this.step(changes);
      this.record();
      if (this.t >= lastChange && this.quiet()) break;
      if (this.t > lastChange + MAX_TAIL_SECONDS) {
        settled = false;
        break;
      }
      next = this.nextEventTime(changes);
    }
    return this.finish(settled);
  }

  private changeIndex = 0;

  /** Everything that happens at `this.t`, in the order the controllers would see it. */
  private step(changes: readonly CurveChange[]): void {
    const t = this.t;
    if (this.changeIndex < changes.length && changes[this.changeIndex].t <= t) {
      // One row per workload and time: each change's workload is counted before any other change touches it.
      const counts = this.podsNow();
      while (this.changeIndex < changes.length && changes[this.changeIndex].t <= t) {
        const change = changes[this.changeIndex++];
        this.apply(change, counts.get(change.group) ?? 0);
      }
    }
    for (const node of this.nodes) if (!node.ready && node.readyAt <= t) this.becomeReady(node);
    this.carryOutCommands();
    for (const node of this.nodes) if (node.terminateAt !== undefined && node.terminateAt <= t) this.terminate(node);
    if (this.nodes.some((n) => n.terminated)) this.nodes = this.nodes.filter((n) => !n.terminated);
    if (this.kubeDirty) this.bindToReadyNodes();
    if (this.untriggered && this.unnominatedCount() > 0) {
      this.batcher.trigger(t);
      this.untriggered = false;
    }
    if (this.retriggerAt !== undefined && this.retriggerAt <= t) {
      this.retriggerAt = undefined;
      if (this.unnominatedCount() > 0) {
        if (this.version !== this.futileVersion) this.batcher.trigger(t);
        else this.retriggerAt = t + PROVISIONABLE_RETRIGGER_SECONDS;
      }
    }
    const closes = this.batcher.closesAt();
    if (closes !== undefined && closes <= t) {
      this.batcher.close();
      this.provision();
    }
    if (this.validating !== undefined) {
      if (this.validating.at <= t) this.validate(this.validating);
    } else if (this.nextPass <= t) this.disruptionPass();
  }

  private nextEventTime(changes: readonly CurveChange[]): number {
    let next = Number.POSITIVE_INFINITY;
    const consider = (time: number | undefined) => {
      if (time !== undefined && time < next) next = time;
    };
    if (this.changeIndex < changes.length) consider(changes[this.changeIndex].t);
    consider(this.batcher.closesAt());
    consider(this.retriggerAt);
    for (const node of this.nodes) {
      if (!node.ready) consider(node.readyAt);
      consider(node.terminateAt);
    }
    consider(this.validating === undefined ? this.nextPass : this.validating.at);
    for (const command of this.inFlight) consider(command.startedAt + COMMAND_TIMEOUT_SECONDS);
    return Math.max(this.t, next);
  }

  // --- pods ---------------------------------------------------------------------------------------------------

  private pendingOf(group: PodGroup): PodsByCreation {
    return getOrAdd(this.pending, group, () => new PodsByCreation());
  }

  private unnominatedCount(): number {
    let n = 0;
    for (const pods of this.pending.values()) n += pods.size;
    return n;
  }

  private pendingCount(): number {
    let n = this.unnominatedCount();
    for (const node of this.nodes) n += node.nominatedCount();
    return n;
  }

  /**
   * Each workload's pods now: pending, and on nodes (those nominated to a node included); a replacement's reservation
   * holds the candidates' pods, counted where they run now. Counted once for all the curve's changes at one time.
   */
  private podsNow(): Map<PodGroup, number> {
    const counts = new Map<PodGroup, number>();
    const add = (group: PodGroup, n: number) => counts.set(group, (counts.get(group) ?? 0) + n);
    for (const [group, pods] of this.pending) add(group, pods.size);
    for (const node of this.nodes) {
      for (const p of node.state.pods) add(p.group, p.count);
      for (const [group, held] of node.reserved ?? []) add(group, -held);
    }
    return counts;
  }

  private apply(change: CurveChange, current: number): void {
    const rate = this.fargateRate.get(change.group);
    if (rate !== undefined) {
      this.scaleFargate(change.group, change.replicas, rate);
      return;
    }
    if (change.replicas > current) {
      this.pendingOf(change.group).add(this.t, change.replicas - current);
      this.untriggered = true;
      this.kubeDirty = true;
      this.version++;
    } else if (change.replicas < current) this.scaleDown(change.group, current - change.replicas);
  }

  private scaleFargate(group: PodGroup, replicas: number, podHourlyUsd: number): void {
    const pods = getOrAdd(this.fargatePods, group, () => new PodsByCreation());
    if (replicas > pods.size) pods.add(this.t, replicas - pods.size);
    else for (const gone of pods.takeNewest(pods.size - replicas)) this.fargateUsd += fargateCost(gone, this.t, podHourlyUsd, true);
  }

  /**
   * The ReplicaSet's deletion order: pods bound to no node first (pending, then those nominated to a starting
   * node, newest first), then running pods from the nodes most crowded with the workload.
   */
  private scaleDown(group: PodGroup, diff: number): void {
    let left = diff - countOf(this.pendingOf(group).takeNewest(diff));
    const starting = this.nodes.filter((n) => (n.nominated.get(group)?.size ?? 0) > 0).sort((a, b) => b.launchedAt - a.launchedAt);
    for (const node of starting) {
      if (left <= 0) break;
      const taken = countOf(node.nominatedOf(group).takeNewest(left));
      this.removePods(node, group, taken, false);
      left -= taken;
    }
    if (left > 0) {
      const holdings = this.nodes.flatMap((node) => {
        const count = (node.state.pods.find((p) => p.group === group)?.count ?? 0) - (node.reserved?.get(group) ?? 0) - (node.nominated.get(group)?.size ?? 0);
        return node.ready && count > 0 ? [{ node, name: node.name, count, readySince: node.podsSince.get(group) ?? 0 }] : [];
      });
      for (const { node, count } of podsToDelete(holdings, left)) this.removePods(node, group, count, true);
    }
    this.kubeDirty = this.unnominatedCount() > 0;
    this.version++;
  }

  private removePods(node: ReplayNode, group: PodGroup, count: number, podEvent: boolean): void {
    if (count <= 0) return;
    node.state = {
      ...node.state,
      pods: node.state.pods.flatMap((p) => (p.group !== group ? [p] : p.count > count ? [{ group, count: p.count - count }] : [])),
    };
    if (podEvent && node.ready) node.podEventAt = this.t;
  }

  private bind(node: ReplayNode, group: PodGroup, pods: readonly CreatedPods[]): void {
    for (const p of pods) this.waits.add(this.t - p.createdAt, p.count);
    if (pods.length > 0) {
      node.podEventAt = this.t;
      node.podsSince.set(group, this.t);
    }
  }

  // --- nodes --------------------------------------------------------------------------------------------------

  private add(node: ReplayNode): void {
    this.nodes.push(node);
    this.byName.set(node.name, node);
    this.version++;
  }

  private becomeReady(node: ReplayNode): void {
    node.ready = true;
    node.state = { ...node.state, initialized: true };
    for (const [group, pods] of node.nominated) this.bind(node, group, pods.takeOldest(pods.size));
    node.nominated.clear();
    this.kubeDirty = this.unnominatedCount() > 0;
    this.version++;
  }

  private terminate(node: ReplayNode): void {
    node.terminated = true;
    this.byName.delete(node.name);
    const seconds = Math.max(EC2_MINIMUM_BILLED_SECONDS, this.t - node.launchedAt);
    this.ec2Usd += ((node.how.hourlyUsd ?? 0) * seconds) / 3600;
    this.version++;
  }

  /** Pods that find room on a ready node bind at once: the kube-scheduler's work, done as the planner's scheduler places them. */
  private bindToReadyNodes(): void {
    this.kubeDirty = false;
    const queued = this.queuedPending();
    if (queued.length === 0) return;
    const ready = this.nodes.filter((n) => n.ready && n.deletingSince === undefined);
    if (ready.length === 0) return;
    const scheduler = this.scheduler(ready, false);
    const results = scheduler.solve(queued);
    results.existingNodes.forEach((existing, i) => {
      if (existing.added.length === 0) return;
      const node = ready[i];
      node.state = existing.toStateNode();
      for (const { group, count } of existing.added) this.bind(node, group, this.pendingOf(group).takeOldest(count));
      this.version++;
    });
  }

  /**
   * The pending pods in the queue's order: by CPU and memory, ties by creation (the oldest pod of each workload),
   * then by workload name where upstream breaks them by UID.
   * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/queue.go (byCPUAndMemoryDescending)
   */
  private queuedPending() {
    const oldest = (pods: PodsByCreation) => pods.list()[0]?.createdAt ?? 0;
    const groups = [...this.pending.entries()]
      .filter(([, pods]) => pods.size > 0)
      .sort(([a, pa], [b, pb]) => oldest(pa) - oldest(pb) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const counts = new Map(groups.map(([group, pods]) => [this.podData.get(group) as PodData, pods.size]));
    return byCpuAndMemoryDescending([...counts.keys()]).map((pod) => ({ pod, count: counts.get(pod) ?? 0 }));
  }

  private scheduler(nodes: readonly ReplayNode[], withPools: boolean): Scheduler {
    const { simulation } = this.input;
    const states = nodes.map((n) => n.state);
    return new Scheduler({
      templates: withPools ? simulation.templates : [],
      existingNodes: states,
      daemonSets: simulation.daemonSets,
      topology: simulation.topology([...this.podData.values()], states),
      fits: simulation.fits,
      nodeClaimIds: simulation.nodeClaimIds,
    });
  }

  /** The provisioner's batch: the pending pods onto the nodes that exist (starting ones too), then new NodeClaims. */
  private provision(): void {
    const queued = this.queuedPending();
    if (queued.length === 0) return;
    const existing = this.nodes.filter((n) => n.deletingSince === undefined);
    const results = this.scheduler(existing, true).solve(queued);
    results.existingNodes.forEach((after, i) => {
      if (after.added.length === 0) return;
      const node = existing[i];
      node.state = after.toStateNode();
      for (const { group, count } of after.added) {
        const pods = this.pendingOf(group).takeOldest(count);
        if (node.ready) this.bind(node, group, pods);
        else for (const p of pods) node.nominatedOf(group).add(p.createdAt, p.count);
      }
    });
    for (const claim of results.newNodeClaims) {
      const node = this.launch(claim);
      for (const { group, count } of claim.pods) for (const p of this.pendingOf(group).takeOldest(count)) node.nominatedOf(group).add(p.createdAt, p.count);
    }
    this.unschedulable = new Map(results.pending.map((p) => [p.pod.group.id, p.reason ?? "not planned"]));
    this.version++;
    if (this.unnominatedCount() > 0) {
      this.futileVersion = this.version;
      this.retriggerAt = this.t + PROVISIONABLE_RETRIGGER_SECONDS;
    }
  }

  private nodeName(pool: string): string {
    return `${pool}-${++this.named}`;
  }

  /** A NodeClaim created now: a node that is ready `nodeReady` from now. */
  private launch(request: LaunchRequest): ReplayNode {
    const { simulation, timing } = this.input;
    const choice = chooseLaunch(request, simulation.zonesKnown);
    // Named as Karpenter names a NodeClaim, after its NodePool: the simulation's placeholder hostnames are not for people.
    const name = this.nodeName(request.template.pool.name);
    this.launched++;
    const launched = launchedNode(request, choice, simulation.region);
    const state = { ...launched, name, labels: { ...launched.labels, [LABEL.hostname]: name } };
    const how = { instanceType: choice.option.type.name, capacityType: choice.capacityType, hourlyUsd: choice.hourlyUsd, upperBound: choice.upperBound };
    const node = new ReplayNode(state, how, simulation.disruption.get(request.template.pool.name), this.t, this.t + timing.nodeReadySeconds, false);
    this.add(node);
    return node;
  }

  // --- disruption ---------------------------------------------------------------------------------------------

  private at(): Date {
    return new Date(this.input.start.getTime() + this.t * 1000);
  }

  private views(): ClusterNode[] {
    return this.nodes.map((n) => n.viewAt(this.t)).sort((a, b) => (a.state.name < b.state.name ? -1 : a.state.name > b.state.name ? 1 : 0));
  }

  private pendingPods(): PendingPods[] {
    return [...this.pending.entries()].filter(([, pods]) => pods.size > 0).map(([group, pods]) => ({ group, count: pods.size }));
  }

  private disruptionInputs() {
    const nodes = this.views();
    const pdbs = podDisruptionBudgets(
      this.input.pdbs,
      nodes.flatMap((n) => n.state.pods),
    );
    // The replay reports commands, not why nodes stay: simulations that totals rule out are skipped.
    const ctx = { ...disruptionContext(this.input.simulation, { nodes, pending: this.pendingPods(), spotToSpot: false }), screen: true };
    const candidates = nodes.map((n) => newCandidate(n, pdbs)).filter(isCandidate);
    return { nodes, ctx, candidates };
  }

  /** The cluster as consolidation last found it: unchanged and consolidated, a pass has nothing to look at. */
  private signature(): string {
    let consolidatable = 0;
    for (const node of this.nodes) if (node.consolidatableAt(this.t)) consolidatable++;
    return `${this.version}/${consolidatable}/${this.scheduleState(this.t)}`;
  }

  /** Which budget schedules are active at `t`: budgets turning on or off change what a pass may do. */
  private scheduleState(t: number): string {
    const when = new Date(this.input.start.getTime() + t * 1000);
    return this.schedules.map((s) => (budgetScheduleActive(s.cron, s.minutes, when) ? "1" : "0")).join("");
  }

  /** The next whole minute within a day at which a budget schedule turns on or off; undefined when none does. */
  private nextScheduleChange(): number | undefined {
    if (this.schedules.length === 0) return undefined;
    const now = this.scheduleState(this.t);
    const startMs = this.input.start.getTime();
    const firstMinute = Math.floor((startMs + this.t * 1000) / 60_000) * 60_000 + 60_000;
    for (let ms = firstMinute; ms <= startMs + (this.t + MAX_TAIL_SECONDS) * 1000; ms += 60_000) {
      const t = (ms - startMs) / 1000;
      if (this.scheduleState(t) !== now) return t;
    }
    return undefined;
  }

  /** One pass of the disruption controller: the first method with a command, which waits 15 s to be validated. */
  private disruptionPass(): void {
    const signature = this.signature();
    if (this.lastNoOp !== undefined && this.lastNoOp.signature === signature && this.t - this.lastNoOp.t < CONSOLIDATION_STATE_TTL_SECONDS) {
      this.nextPass = this.t + DISRUPTION_POLL_SECONDS;
      return;
    }
    const { nodes, ctx, candidates } = this.disruptionInputs();
    const step = candidates.length === 0 ? undefined : nextCommand(ctx, nodes, candidates, this.at());
    if (step?.command === undefined || step.method === undefined) {
      // Held by a budget, the pass is not a settled cluster: a schedule ending may let the command through.
      this.held =
        step !== undefined &&
        (emptiness(candidates, budgetMapping(nodes, "Empty", this.at())).heldByBudget.length > 0 ||
          [...step.refused.values()].some((b) => b.message === blockingBudget("Underutilized")));
      this.budgetChangeAt = this.held ? this.nextScheduleChange() : undefined;
      this.lastNoOp = { signature, t: this.t };
      this.nextPass = this.t + DISRUPTION_POLL_SECONDS;
      return;
    }
    const named = step.command.candidates.map((c) => this.byName.get(c.node.state.name) as ReplayNode);
    this.validating = { at: this.t + VALIDATION_SECONDS, method: step.method, command: step.command, candidates: named };
  }

  /**
   * 15 s on: the candidates must still be candidates the method would take (consolidatable, not nominated, within
   * budgets); emptiness keeps those that are, consolidation needs every one and the same decision from a new
   * simulation. Then the command starts; either way the next pass follows at once.
   * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/validation.go (EmptinessValidator, ConsolidationValidator)
   */
  private validate(pending: Validating): void {
    this.validating = undefined;
    this.nextPass = this.t;
    const { nodes, ctx, candidates } = this.disruptionInputs();
    const wanted = new Set(pending.candidates.filter((n) => n.live && n.deletingSince === undefined).map((n) => n.name));
    const still = candidates.filter((c) => wanted.has(c.node.state.name) && pending.method.shouldDisrupt(ctx, c) === undefined);
    const command = this.revalidated(pending, nodes, ctx, still);
    if (command === undefined) {
      this.abandoned++;
      return;
    }
    this.start(pending.method, command);
  }

  private revalidated(
    pending: Validating,
    nodes: readonly ClusterNode[],
    ctx: ReturnType<Replay["disruptionInputs"]>["ctx"],
    still: readonly Candidate[],
  ): Command | undefined {
    const budgets = budgetMapping(nodes, pending.method.reason, this.at());
    if (pending.method === EMPTINESS) {
      if (still.length === 0) return undefined;
      return EMPTINESS.computeCommand({ ctx, nodes, candidates: still, budgets, totals: poolTotals(nodes, still) }).command;
    }
    if (still.length !== pending.candidates.length) return undefined;
    const perPool = new Map<string, number>();
    for (const c of still) perPool.set(c.pool.pool, (perPool.get(c.pool.pool) ?? 0) + 1);
    for (const [pool, count] of perPool) if ((budgets.get(pool) ?? 0) < count) return undefined;
    const again = computeConsolidation(ctx, nodes, still);
    if (!isCommand(again) || (again.replacement === undefined) !== (pending.command.replacement === undefined)) return undefined;
    return again;
  }

  /** StartCommand: the candidates are tainted and marked for deletion, the replacements launch. */
  private start(method: DisruptionMethod, command: Command): void {
    const candidates = command.candidates.map((c) => this.byName.get(c.node.state.name) as ReplayNode);
    for (const node of candidates) {
      node.deletingSince = this.t;
      node.touched();
    }
    const replacements = launchesOf(command).map((request) => {
      const node = this.launch(request);
      node.reserved = new Map(request.pods.map(({ group, count }) => [group, count]));
      return node;
    });
    const kind = command.replacement === undefined ? "delete" : "replace";
    this.inFlight.push({ startedAt: this.t, method: method.name, kind, candidates, replacements });
    this.commands.push({ t: this.t, method: method.name, kind, nodes: candidates.map((n) => n.name), replacements: replacements.map((n) => n.name) });
    this.version++;
    this.carryOutCommands();
  }

  /** Once its replacements are initialized, a command deletes its candidates; after 10 minutes it is abandoned. */
  private carryOutCommands(): void {
    const waiting: InFlight[] = [];
    for (const command of this.inFlight) {
      if (command.replacements.every((n) => n.ready)) this.deleteCandidates(command);
      else if (this.t - command.startedAt >= COMMAND_TIMEOUT_SECONDS) {
        for (const node of command.candidates) {
          node.deletingSince = undefined;
          node.touched();
        }
        for (const node of command.replacements) node.reserved = undefined;
        this.abandoned++;
        this.version++;
      } else waiting.push(command);
    }
    this.inFlight = waiting;
  }

  /** The candidates' pods are evicted and created again: onto the replacements' reservations, or pending. */
  private deleteCandidates(command: InFlight): void {
    for (const node of command.candidates) {
      for (const { group, count } of node.state.pods) {
        this.evicted += count;
        let left = count;
        for (const replacement of command.replacements) {
          const held = Math.min(left, replacement.reserved?.get(group) ?? 0);
          if (held === 0) continue;
          replacement.reserved?.set(group, (replacement.reserved.get(group) ?? 0) - held);
          this.bind(replacement, group, [{ createdAt: this.t, count: held }]);
          left -= held;
        }
        if (left > 0) {
          this.pendingOf(group).add(this.t, left);
          this.untriggered = true;
          this.kubeDirty = true;
        }
      }
      node.state = { ...node.state, pods: [] };
      node.terminateAt = this.t + TERMINATION_SECONDS;
      if (command.kind === "delete") this.deleted++;
      else this.replaced++;
    }
    // What a reservation still holds was for pods that went meanwhile: the replacement's room is free again.
    for (const replacement of command.replacements) {
      const held = replacement.reserved;
      replacement.reserved = undefined;
      if (held === undefined) continue;
      replacement.state = {
        ...replacement.state,
        pods: replacement.state.pods.flatMap((p) => {
          const extra = held.get(p.group) ?? 0;
          return p.count > extra ? [{ group: p.group, count: p.count - extra }] : [];
        }),
      };
    }
    this.version++;
  }

  // --- the end ------------------------------------------------------------------------------------------------

  /** Nothing left to happen: no pod waits for room that could come, no node starts or goes, no command is due. */
  private quiet(): boolean {
    if (this.validating !== undefined || this.inFlight.length > 0) return false;
    if (this.nodes.some((n) => !n.ready || n.deletingSince !== undefined)) return false;
    if (this.unnominatedCount() > 0 && this.version !== this.futileVersion) return false;
    if (this.batcher.closesAt() !== undefined) return false;
    if (this.nodes.some((n) => n.consolidatableFrom() > this.t && n.consolidatableFrom() !== Number.POSITIVE_INFINITY)) return false;
    if (this.held && this.budgetChangeAt !== undefined) return false;
    return this.lastNoOp !== undefined && this.lastNoOp.signature === this.signature();
  }

  private hourlyNow(): number {
    let usd = 0;
    for (const node of this.nodes) usd += node.how.hourlyUsd ?? 0;
    for (const [group, pods] of this.fargatePods) usd += pods.size * (this.fargateRate.get(group) ?? 0);
    return usd;
  }

  private record(): void {
    const point = { t: this.t, nodes: this.nodes.length, pending: this.pendingCount(), hourlyUsd: this.hourlyNow() };
    if (point.nodes > this.atPeak.length) {
      this.atPeak = this.nodes.map((n) => ({
        name: n.name,
        instanceType: n.how.instanceType,
        capacityType: n.how.capacityType,
        pods: n.state.pods.reduce((sum, p) => sum + p.count, 0),
        hourlyUsd: n.how.hourlyUsd,
      }));
    }
    const last = this.timeline[this.timeline.length - 1];
    if (last !== undefined && last.nodes === point.nodes && last.pending === point.pending && Math.abs(last.hourlyUsd - point.hourlyUsd) < 1e-9) return;
    if (last !== undefined && last.t === point.t) this.timeline[this.timeline.length - 1] = point;
    else this.timeline.push(point);
  }

  private finish(settled: boolean): ReplayResult {
    const end = this.t;
    for (const node of this.nodes) this.ec2Usd += ((node.how.hourlyUsd ?? 0) * (end - node.launchedAt)) / 3600;
    for (const [group, pods] of this.fargatePods) for (const p of pods.list()) this.fargateUsd += fargateCost(p, end, this.fargateRate.get(group) ?? 0, false);
    return {
      seconds: end,
      settled,
      ec2Usd: this.ec2Usd,
      fargateUsd: this.fargateUsd,
      timeline: this.timeline,
      waits: this.waits.summary(),
      stillPending: this.pendingCount(),
      disruptions: { deleted: this.deleted, replaced: this.replaced, podsEvicted: this.evicted, commands: this.commands },
      abandoned: this.abandoned,
      launched: this.launched,
      atPeak: this.atPeak,
      final: this.views(),
      unschedulable: this.unnominatedCount() === 0 ? [] : [...this.unschedulable].map(([id, reason]) => ({ id, reason })),
    };
  }
}

/** Fargate pods from creation (or the start) until `end`; a pod that ends within the period is billed 60 s at least. */
function fargateCost(pods: CreatedPods, end: number, podHourlyUsd: number, ended: boolean): number {
  const from = Math.max(0, pods.createdAt);
  const seconds = ended && pods.createdAt >= 0 ? Math.max(FARGATE_MINIMUM_BILLED_SECONDS, end - from) : end - from;
  return (pods.count * podHourlyUsd * seconds) / 3600;
}

/**
 * The same run billed on to a later end: a run ends once its cluster is quiet, so nothing changes after it and
 * what runs at its end runs on. What-ifs compare dollars over one period, the longest of theirs.
 */
export function extendedTo(result: ReplayResult, end: number): ReplayResult {
  const more = end - result.seconds;
  if (more <= 0 || !result.settled) return result;
  const ec2Hourly = result.final.reduce((sum, n) => sum + (n.hourlyUsd ?? 0), 0);
  const last = result.timeline[result.timeline.length - 1];
  const fargateHourly = last === undefined ? 0 : Math.max(0, last.hourlyUsd - ec2Hourly);
  return {
    ...result,
    seconds: end,
    ec2Usd: result.ec2Usd + (ec2Hourly * more) / 3600,
    fargateUsd: result.fargateUsd + (fargateHourly * more) / 3600,
  };
}

/** Plays the curve through the cluster's controllers; see the top of this file for the model and where it stops. */
export function replay(input: ReplayInput): ReplayResult {
  return new Replay(input).run();
}
