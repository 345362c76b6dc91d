import { ReplayCluster } from "./replay-cluster";
import { ReplayDisruption } from "./replay-disruption";
import { ReplayProvisioner } from "./replay-provisioner";
import type { CurveChange, PeakNode, ReplayInput, ReplayResult, TimelinePoint } from "./replay-types";

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

/** How long past the curve's last change the replay waits for the cluster to go quiet. */
const MAX_TAIL_SECONDS = 24 * 3600;

class Replay {
  private readonly cluster: ReplayCluster;
  private readonly provisioner: ReplayProvisioner;
  private readonly disruption: ReplayDisruption;
  private readonly timeline: TimelinePoint[] = [];
  private atPeak: PeakNode[] = [];
  private changeIndex = 0;

  constructor(private readonly input: ReplayInput) {
    this.cluster = new ReplayCluster(input);
    this.provisioner = new ReplayProvisioner(this.cluster, input.simulation, input.timing);
    this.disruption = new ReplayDisruption(this.cluster, input, MAX_TAIL_SECONDS);
  }

  run(): ReplayResult {
    const changes = this.input.changes;
    const lastChange = changes.length === 0 ? 0 : changes[changes.length - 1].t;
    let next = 0;
    let settled = true;
    let sameTime = 0;
    for (;;) {
      sameTime = next === this.cluster.t ? sameTime + 1 : 0;
      if (sameTime > 100_000) throw new Error(`bug: the replay makes no progress at t=${next}`);
      this.cluster.t = next;
      this.step(changes);
      this.record();
      if (next >= lastChange && this.quiet()) break;
      if (next > lastChange + MAX_TAIL_SECONDS) {
        settled = false;
        break;
      }
      next = this.nextEventTime(changes);
    }
    return this.finish(settled);
  }

  /** Everything that happens at the cluster's time, in the order the controllers would see it. */
  private step(changes: readonly CurveChange[]): void {
    const t = this.cluster.t;
    const due: CurveChange[] = [];
    while (this.changeIndex < changes.length && changes[this.changeIndex].t <= t) due.push(changes[this.changeIndex++]);
    this.cluster.applyChanges(due);
    this.cluster.readyNodes();
    this.disruption.carryOutCommands();
    this.cluster.terminateDue();
    this.provisioner.step();
    this.disruption.step();
  }

  private nextEventTime(changes: readonly CurveChange[]): number {
    let next = Number.POSITIVE_INFINITY;
    const consider = (time: number | undefined) => {
      if (time !== undefined && time < next) next = time;
    };
    if (this.changeIndex < changes.length) consider(changes[this.changeIndex].t);
    for (const time of this.provisioner.nextTimes()) consider(time);
    for (const node of this.cluster.nodes) {
      if (!node.ready) consider(node.readyAt);
      consider(node.terminateAt);
    }
    for (const time of this.disruption.nextTimes()) consider(time);
    return Math.max(this.cluster.t, next);
  }

  /** Nothing left to happen: no pod waits for room that could come, no node starts or goes, no command is due. */
  private quiet(): boolean {
    const t = this.cluster.t;
    if (this.cluster.nodes.some((n) => !n.ready || n.deletingSince !== undefined)) return false;
    if (!this.provisioner.quiet()) return false;
    if (this.cluster.nodes.some((n) => n.consolidatableFrom() > t && n.consolidatableFrom() !== Number.POSITIVE_INFINITY)) return false;
    return this.disruption.quiet();
  }

  private record(): void {
    const { cluster } = this;
    const point = { t: cluster.t, nodes: cluster.nodes.length, pending: cluster.pendingCount(), hourlyUsd: cluster.hourlyNow() };
    if (point.nodes > this.atPeak.length) {
      this.atPeak = cluster.nodes.map((n) => ({
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
    const { cluster, disruption } = this;
    cluster.billUntilNow();
    return {
      seconds: cluster.t,
      settled,
      ec2Usd: cluster.ec2Usd,
      fargateUsd: cluster.fargateUsd,
      timeline: this.timeline,
      waits: cluster.waits.summary(),
      stillPending: cluster.pendingCount(),
      disruptions: { deleted: disruption.deleted, replaced: disruption.replaced, podsEvicted: disruption.evicted, commands: disruption.commands },
      abandoned: disruption.abandoned,
      launched: cluster.launched,
      atPeak: this.atPeak,
      final: disruption.views(),
      unschedulable: cluster.unnominatedCount() === 0 ? [] : [...this.provisioner.unschedulable].map(([id, reason]) => ({ id, reason })),
    };
  }
}

/** Plays the curve through the cluster's controllers; see the top of this file for the model and where it stops. */
export function replay(input: ReplayInput): ReplayResult {
  return new Replay(input).run();
}
