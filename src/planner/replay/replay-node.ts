import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { ClusterNode } from "../consolidation/cluster-node";
import type { PoolDisruption } from "../model";
import type { StateNode } from "../simulation/state-node";
import type { PodGroup } from "../workload/workload-model";
import { PodsByCreation } from "./pods-by-creation";

// A node of the replay: the node as the scheduler and the disruption controller read it (its pods, bound or
// nominated), and the times Karpenter's controllers act on: when its NodeClaim was created (EC2 bills from there),
// when it is initialized, its last pod event (consolidateAfter counts from it), when its command marked it for
// deletion, and when its instance is terminated.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/nodeclaim/disruption/consolidation.go (the Consolidatable condition)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/nodeclaim/podevents/controller.go (lastPodEventTime)

export interface HowPriced {
  readonly instanceType: string;
  readonly capacityType: string;
  readonly hourlyUsd: number | undefined;
  readonly upperBound: boolean;
}

export class ReplayNode {
  /** Pods the provisioner nominated to it while it starts, by workload, by creation: they bind once it is ready. */
  readonly nominated = new Map<PodGroup, PodsByCreation>();
  /**
   * The pods a consolidation command's simulation put on this replacement, held for them until the candidates
   * are deleted: then they bind here, created again by their controllers.
   */
  reserved: Map<PodGroup, number> | undefined;
  ready: boolean;
  /** The last pod bound to it or gone from it; -Infinity for a node running long before the replay. */
  podEventAt: number | undefined;
  deletingSince: number | undefined;
  terminateAt: number | undefined;
  terminated = false;
  /** When each workload's pods last started here, for the ReplicaSet's scale-down order. */
  readonly podsSince = new Map<PodGroup, number>();
  private view: ClusterNode | undefined;
  private viewConsolidatable: boolean | undefined;

  constructor(
    private stateNow: StateNode,
    readonly how: HowPriced,
    readonly pool: PoolDisruption | undefined,
    readonly launchedAt: number,
    readonly readyAt: number,
    running: boolean,
  ) {
    this.ready = running;
    this.podEventAt = running ? Number.NEGATIVE_INFINITY : undefined;
  }

  get name(): string {
    return this.stateNow.name;
  }

  get state(): StateNode {
    return this.stateNow;
  }

  set state(state: StateNode) {
    this.stateNow = state;
    this.view = undefined;
  }

  /** Changes that the disruption controller reads (ready, deleting) also invalidate its view. */
  touched(): void {
    this.view = undefined;
  }

  get live(): boolean {
    return !this.terminated;
  }

  /** Its NodeClaim's Consolidatable condition at `t` (consolidateAfter past its last pod event, or its initialization). */
  consolidatableAt(t: number): boolean {
    if (!this.ready || this.pool === undefined || this.pool.consolidateAfterNever) return false;
    return t >= this.consolidatableFrom();
  }

  /** When it becomes consolidatable if nothing changes; Infinity when it never does. */
  consolidatableFrom(): number {
    if (!this.ready || this.pool === undefined || this.pool.consolidateAfterNever) return Number.POSITIVE_INFINITY;
    return (this.podEventAt ?? this.readyAt) + (this.pool.consolidateAfterSeconds ?? 0);
  }

  /** The node as the disruption controller reads it at `t`: kept while nothing it reads changes. */
  viewAt(t: number): ClusterNode {
    const consolidatable = this.consolidatableAt(t);
    if (this.view !== undefined && this.viewConsolidatable === consolidatable) return this.view;
    // A replacement's reserved pods are the candidates', still running there: the disruption controller sees the
    // replacement as the NodeClaim it is, with room for them (upstream nominates them, it does not bind them).
    const held = this.reserved;
    const pods =
      held === undefined
        ? this.stateNow.pods
        : this.stateNow.pods.flatMap((p) => {
            const extra = held.get(p.group) ?? 0;
            return p.count > extra ? [{ group: p.group, count: p.count - extra }] : [];
          });
    const state = this.stateNow.initialized === this.ready && held === undefined ? this.stateNow : { ...this.stateNow, initialized: this.ready, pods };
    this.view = {
      state,
      pool: this.pool,
      managed: this.pool !== undefined,
      ready: this.ready,
      instanceTerminating: false,
      instanceType: this.how.instanceType,
      capacityType: this.how.capacityType,
      zone: state.labels[LABEL.zone],
      hourlyUsd: this.how.hourlyUsd,
      priceIsUpperBound: this.how.upperBound,
      doNotDisrupt: false,
      deleting: this.deletingSince !== undefined,
      consolidatable,
    };
    this.viewConsolidatable = consolidatable;
    return this.view;
  }

  nominatedCount(): number {
    let n = 0;
    for (const pods of this.nominated.values()) n += pods.size;
    return n;
  }

  nominatedOf(group: PodGroup): PodsByCreation {
    let pods = this.nominated.get(group);
    if (pods === undefined) {
      pods = new PodsByCreation();
      this.nominated.set(group, pods);
    }
    return pods;
  }
}
