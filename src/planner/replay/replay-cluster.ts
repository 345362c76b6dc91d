import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { chooseLaunch, type LaunchRequest, launchedNode } from "../simulation/launch";
import type { PodData } from "../simulation/pod-data";
import { byCpuAndMemoryDescending, type QueuedPods } from "../simulation/queue";
import type { PodGroup } from "../workload/workload-model";
import { PodWaits } from "./pod-waits";
import { type CreatedPods, countOf, PodsByCreation } from "./pods-by-creation";
import { ReplayNode } from "./replay-node";
import { EC2_MINIMUM_BILLED_SECONDS, FARGATE_MINIMUM_BILLED_SECONDS } from "./replay-timing";
import type { CurveChange, ReplayInput } from "./replay-types";
import { podsToDelete } from "./scale-down-order";

// The cluster at the replay's clock: its nodes (bound and nominated pods, times), the pods not running yet, the
// Fargate pods, and what has been billed. The controllers (replay-provisioner.ts, replay-disruption.ts) act on it;
// the pods' own life (the ReplicaSet creating and deleting them, a pod binding) and the nodes' (launch, ready,
// terminated) are here.
// @see kubernetes/kubernetes pkg/controller/replicaset/replica_set.go (manageReplicas, getPodsToDelete)

export class ReplayCluster {
  /** Seconds from the start of the replay. */
  t = 0;
  nodes: ReplayNode[] = [];
  readonly byName = new Map<string, ReplayNode>();
  /** Pods created and bound to no node nor nominated to one, by workload. */
  readonly pending = new Map<PodGroup, PodsByCreation>();
  readonly waits = new PodWaits();
  /** Counts every change the controllers can see: a pass or a batch that found nothing finds nothing again until it moves. */
  version = 0;
  /** New pending pods the provisioner's batcher has not been told of. */
  untriggered = false;
  /** Pending pods that may find room on a ready node now. */
  kubeDirty = false;
  ec2Usd = 0;
  fargateUsd = 0;
  launched = 0;
  readonly fargatePods = new Map<PodGroup, PodsByCreation>();
  private readonly fargateRate = new Map<PodGroup, number>();
  private readonly podData = new Map<PodGroup, PodData>();
  private named = 0;

  constructor(private readonly input: ReplayInput) {
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

  /** Each workload's pods, as the scheduler reads them. */
  podDataOf(group: PodGroup): PodData {
    return this.podData.get(group) as PodData;
  }

  get allPodData(): readonly PodData[] {
    return [...this.podData.values()];
  }

  pendingOf(group: PodGroup): PodsByCreation {
    return getOrAdd(this.pending, group, () => new PodsByCreation());
  }

  unnominatedCount(): number {
    let n = 0;
    for (const pods of this.pending.values()) n += pods.size;
    return n;
  }

  /** Pods created and not running: pending, or nominated to a node still starting. */
  pendingCount(): number {
    let n = this.unnominatedCount();
    for (const node of this.nodes) n += node.nominatedCount();
    return n;
  }

  /**
   * The pending pods in the queue's order: by CPU and memory, ties by creation (the oldest pod of each workload),
   * then by workload name where upstream breaks them by UID.
   * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/queue.go (byCPUAndMemoryDescending)
   */
  queuedPending(): QueuedPods[] {
    const oldest = (pods: PodsByCreation) => pods.list()[0]?.createdAt ?? 0;
    const groups = [...this.pending.entries()]
      .filter(([, pods]) => pods.size > 0)
      .sort(([a, pa], [b, pb]) => oldest(pa) - oldest(pb) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const counts = new Map(groups.map(([group, pods]) => [this.podDataOf(group), pods.size]));
    return byCpuAndMemoryDescending([...counts.keys()]).map((pod) => ({ pod, count: counts.get(pod) ?? 0 }));
  }

  /** The curve's changes due now, each workload counted before any change touches it (one row per workload and time). */
  applyChanges(changes: readonly CurveChange[]): void {
    if (changes.length === 0) return;
    const counts = this.podsNow();
    for (const change of changes) this.apply(change, counts.get(change.group) ?? 0);
  }

  /**
   * Each workload's pods now: pending, and on nodes (those nominated to a node included); a replacement's reservation
   * holds the candidates' pods, counted where they run now.
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
    if (change.replicas > current) this.createPods(change.group, change.replicas - current);
    else if (change.replicas < current) this.scaleDown(change.group, current - change.replicas);
  }

  /** Pods created now (by their controller), pending until something binds them. */
  createPods(group: PodGroup, count: number): void {
    this.pendingOf(group).add(this.t, count);
    this.untriggered = true;
    this.kubeDirty = true;
    this.version++;
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

  /** Pods start running on the node now: their wait ends, and the node has a pod event. */
  bind(node: ReplayNode, group: PodGroup, pods: readonly CreatedPods[]): void {
    for (const p of pods) this.waits.add(this.t - p.createdAt, p.count);
    if (pods.length > 0) {
      node.podEventAt = this.t;
      node.podsSince.set(group, this.t);
    }
  }

  private add(node: ReplayNode): void {
    this.nodes.push(node);
    this.byName.set(node.name, node);
    this.version++;
  }

  private nodeName(pool: string): string {
    return `${pool}-${++this.named}`;
  }

  /** A NodeClaim created now: a node that is ready `nodeReady` from now. */
  launch(request: LaunchRequest): ReplayNode {
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

  /** Nodes whose start time has come are ready: the pods nominated to them bind. */
  readyNodes(): void {
    for (const node of this.nodes) {
      if (node.ready || node.readyAt > this.t) continue;
      node.ready = true;
      node.state = { ...node.state, initialized: true };
      for (const [group, pods] of node.nominated) this.bind(node, group, pods.takeOldest(pods.size));
      node.nominated.clear();
      this.kubeDirty = this.unnominatedCount() > 0;
      this.version++;
    }
  }

  /** Instances whose termination time has come are gone, billed from their NodeClaim (60 s at least). */
  terminateDue(): void {
    for (const node of this.nodes) {
      if (node.terminateAt === undefined || node.terminateAt > this.t) continue;
      node.terminated = true;
      this.byName.delete(node.name);
      this.ec2Usd += ((node.how.hourlyUsd ?? 0) * Math.max(EC2_MINIMUM_BILLED_SECONDS, this.t - node.launchedAt)) / 3600;
      this.version++;
    }
    if (this.nodes.some((n) => n.terminated)) this.nodes = this.nodes.filter((n) => !n.terminated);
  }

  /** What runs now costs an hour: the EC2 nodes, and Fargate's pods. */
  hourlyNow(): number {
    let usd = 0;
    for (const node of this.nodes) usd += node.how.hourlyUsd ?? 0;
    for (const [group, pods] of this.fargatePods) usd += pods.size * (this.fargateRate.get(group) ?? 0);
    return usd;
  }

  /** Bills what still runs at the end, from its launch (or the start), with no minimum: it runs on. */
  billUntilNow(): void {
    for (const node of this.nodes) this.ec2Usd += ((node.how.hourlyUsd ?? 0) * (this.t - node.launchedAt)) / 3600;
    for (const [group, pods] of this.fargatePods)
      for (const p of pods.list()) this.fargateUsd += fargateCost(p, this.t, this.fargateRate.get(group) ?? 0, false);
  }
}

/** Fargate pods from creation (or the start) until `end`; a pod that ends within the period is billed 60 s at least. */
function fargateCost(pods: CreatedPods, end: number, podHourlyUsd: number, ended: boolean): number {
  const from = Math.max(0, pods.createdAt);
  const seconds = ended && pods.createdAt >= 0 ? Math.max(FARGATE_MINIMUM_BILLED_SECONDS, end - from) : end - from;
  return (pods.count * podHourlyUsd * seconds) / 3600;
}
