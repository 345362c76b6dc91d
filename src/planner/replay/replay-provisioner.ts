import { Scheduler } from "../simulation/scheduler";
import type { SimulationContext } from "../simulation/simulation-context";
import { nodePlacement } from "../simulation/state-node";
import { Batcher } from "./batcher";
import type { ReplayCluster } from "./replay-cluster";
import type { ReplayNode } from "./replay-node";
import { PROVISIONABLE_RETRIGGER_SECONDS, type ReplayTiming } from "./replay-timing";

// Who places pending pods, at the replay's clock: the kube-scheduler binds new pods to ready nodes with room at
// once; the rest open the provisioner's batch window, and when it closes Karpenter's scheduler (the planner's)
// places them onto the nodes that exist, NodeClaims still starting included, then onto new NodeClaims. Pods that
// stay provisionable trigger a new batch every 10 s, which the replay runs only once the cluster has changed.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/provisioner.go (Reconcile, Schedule)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/dynamic/trigger_controllers.go (PodTriggerController)

export class ReplayProvisioner {
  private readonly batcher: Batcher;
  private retriggerAt: number | undefined;
  /** The cluster's version when a batch last left pods with no node. */
  private futileVersion = -1;
  /** Why pods found no node, by workload, as the last batch said. */
  unschedulable = new Map<string, string>();

  constructor(
    private readonly cluster: ReplayCluster,
    private readonly simulation: SimulationContext,
    timing: ReplayTiming,
  ) {
    this.batcher = new Batcher(timing);
  }

  /** What the kube-scheduler and the provisioner do at the cluster's time. */
  step(): void {
    const { cluster } = this;
    const t = cluster.t;
    if (cluster.kubeDirty) this.bindToReadyNodes();
    if (cluster.untriggered && cluster.unnominatedCount() > 0) {
      this.batcher.trigger(t);
      cluster.untriggered = false;
    }
    if (this.retriggerAt !== undefined && this.retriggerAt <= t) {
      this.retriggerAt = undefined;
      if (cluster.unnominatedCount() > 0) {
        if (cluster.version !== this.futileVersion) this.batcher.trigger(t);
        else this.retriggerAt = t + PROVISIONABLE_RETRIGGER_SECONDS;
      }
    }
    const closes = this.batcher.closesAt();
    if (closes !== undefined && closes <= t) {
      this.batcher.close();
      this.provision();
    }
  }

  /** When it next acts by itself: the batch closing, or pods still provisionable triggering again. */
  nextTimes(): (number | undefined)[] {
    return [this.batcher.closesAt(), this.retriggerAt];
  }

  /** Nothing to do until the cluster changes: no batch open, and every pending pod failed a batch since the last change. */
  quiet(): boolean {
    if (this.batcher.closesAt() !== undefined) return false;
    return this.cluster.unnominatedCount() === 0 || this.cluster.version === this.futileVersion;
  }

  /**
   * A scheduler onto `nodes`, its topology counting the pods of every node of the cluster (a spread or an
   * anti-affinity counts pods wherever they run, on nodes starting or going too).
   */
  private scheduler(nodes: readonly ReplayNode[], withPools: boolean): Scheduler {
    const all = this.cluster.nodes.map((n) => n.state);
    const topology = this.simulation.topology(this.cluster.allPodData, all);
    topology.countPodsOn(all.map((state) => ({ placement: nodePlacement(state), pods: state.pods })));
    return new Scheduler({
      templates: withPools ? this.simulation.templates : [],
      existingNodes: nodes.map((n) => n.state),
      daemonSets: this.simulation.daemonSets,
      topology,
      fits: this.simulation.fits,
      nodeClaimIds: this.simulation.nodeClaimIds,
      topologyCounted: true,
    });
  }

  /** Pods that find room on a ready node bind at once: the kube-scheduler's work, done as the planner's scheduler places them. */
  private bindToReadyNodes(): void {
    const { cluster } = this;
    cluster.kubeDirty = false;
    const queued = cluster.queuedPending();
    if (queued.length === 0) return;
    const ready = cluster.nodes.filter((n) => n.ready && n.deletingSince === undefined);
    if (ready.length === 0) return;
    const results = this.scheduler(ready, false).solve(queued);
    results.existingNodes.forEach((existing, i) => {
      if (existing.added.length === 0) return;
      const node = ready[i];
      node.state = existing.toStateNode();
      for (const { group, count } of existing.added) cluster.bind(node, group, cluster.pendingOf(group).takeOldest(count));
      cluster.version++;
    });
  }

  /** The provisioner's batch: the pending pods onto the nodes that exist (starting ones too), then new NodeClaims. */
  private provision(): void {
    const { cluster } = this;
    const queued = cluster.queuedPending();
    if (queued.length === 0) return;
    const existing = cluster.nodes.filter((n) => n.deletingSince === undefined);
    const results = this.scheduler(existing, true).solve(queued);
    results.existingNodes.forEach((after, i) => {
      if (after.added.length === 0) return;
      const node = existing[i];
      node.state = after.toStateNode();
      for (const { group, count } of after.added) {
        const pods = cluster.pendingOf(group).takeOldest(count);
        if (node.ready) cluster.bind(node, group, pods);
        else for (const p of pods) node.nominatedOf(group).add(p.createdAt, p.count);
      }
    });
    for (const claim of results.newNodeClaims) {
      const node = cluster.launch(claim);
      for (const { group, count } of claim.pods) for (const p of cluster.pendingOf(group).takeOldest(count)) node.nominatedOf(group).add(p.createdAt, p.count);
    }
    this.unschedulable = new Map(results.pending.map((p) => [p.pod.group.id, p.reason ?? "not planned"]));
    cluster.version++;
    if (cluster.unnominatedCount() > 0) {
      this.futileVersion = cluster.version;
      this.retriggerAt = cluster.t + PROVISIONABLE_RETRIGGER_SECONDS;
    }
  }
}
