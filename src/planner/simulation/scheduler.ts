import { getOrAdd } from "../../shared/get-or-add";
import type { DaemonSetShape } from "../workload/workload-model";
import { EmptiestFirst } from "./emptiest-first";
import { ExistingNode } from "./existing-node";
import { FITS, type FitOrReason, refuse } from "./fit-or-reason";
import { RemainingResources } from "./limits";
import { NO_ROOM, NO_TYPE_HOLDS, NodeClaim } from "./node-claim";
import type { NodeClaimIds } from "./node-claim-ids";
import type { NodeClaimTemplate } from "./node-claim-template";
import type { PodData } from "./pod-data";
import type { FitCache } from "./pod-fit";
import type { SchedulingForm } from "./preferences";
import { Queue, type QueuedPods } from "./queue";
import { nodePoolOf, type StateNode } from "./state-node";
import type { Topology } from "./topology";

// One provisioning loop of Karpenter's scheduler. `solve` takes the pods from a queue; each goes to the first
// node that takes it (`add`): a node that exists, then an in-flight NodeClaim of this loop, emptiest first, then
// a new NodeClaim from the first NodePool, by weight, that can hold it. A pod that fits nowhere is relaxed one
// preference at a time and tried again (preferences.go); one that still fits nowhere goes to the back of the
// queue, and the loop ends when the queue has gone round without placing a pod. A new NodeClaim reserves its
// largest option against its pool's limits, which start from the limits less the pool's existing nodes.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go
//      (NewScheduler, Solve, add, addToExistingNode, addToInflightNode, addToNewNodeClaim, calculateExistingNodeClaims)

export interface SchedulerInput {
  /** The NodePools, in Karpenter's order: weight, then name. */
  readonly templates: readonly NodeClaimTemplate[];
  /** The nodes that exist, with the pods bound to them. */
  readonly existingNodes: readonly StateNode[];
  /** Every DaemonSet of the cluster: room is kept on an existing node for those missing from it. */
  readonly daemonSets: readonly DaemonSetShape[];
  /** Knows every pod group the loop may place or find on a node; its counts restart from the existing nodes. */
  readonly topology: Topology;
  readonly fits: FitCache;
  /** Numbers the NodeClaims this loop opens (their placeholder hostnames), on from those of every loop before it. */
  readonly nodeClaimIds: NodeClaimIds;
  /** The topology counts the existing nodes' pods already (a consolidation simulation prepared them): not recounted. */
  readonly topologyCounted?: boolean;
}

export interface Results {
  /** In the order they were opened. */
  readonly newNodeClaims: readonly NodeClaim[];
  /** In the order given, each with the pods this loop added. */
  readonly existingNodes: readonly ExistingNode[];
  /** The pods left pending, each run with why its next pod found no node. */
  readonly pending: readonly QueuedPods[];
  /** Pods placed in all. */
  readonly placed: number;
  /** Pods placed only after giving up preferences: what they gave up, in the order first seen. */
  readonly relaxed: readonly { readonly pod: PodData; readonly gaveUp: string; readonly count: number }[];
  /** Pods not pending before (moved ones) that this loop put on a node still initializing, by node. */
  readonly onUninitialized: ReadonlyMap<ExistingNode, readonly PodData[]>;
}

/** What refused a pod of a run: its twins meet the same refusal (PodData.monotone), so they skip it. */
interface Refused {
  readonly nodes: Set<ExistingNode | NodeClaim>;
  readonly templates: Set<NodeClaimTemplate>;
}

/** A NodeClaim's refusal for room, as a NodePool's reason: the pod and the DaemonSets fit no type the pool allows. */
const NO_TYPE_ALLOWED_HOLDS = "no instance type it allows holds the pod and the DaemonSets beside it";

export class Scheduler {
  private readonly existing: readonly ExistingNode[];
  /** Initialized nodes first, as Karpenter orders them; otherwise in the order given. */
  private readonly existingInOrder: readonly ExistingNode[];
  /** Each NodePool with what is left of its limits. */
  private readonly pools: readonly { readonly template: NodeClaimTemplate; readonly remaining: RemainingResources }[];
  /** The existing nodes, in order, that may still take a pod of this solve: a full node only gets fuller. */
  private open: ExistingNode[] = [];
  private readonly inflight = new EmptiestFirst<NodeClaim>();
  private readonly newNodeClaims: NodeClaim[] = [];
  /** Whether the run being placed may land on a node still initializing: pending pods, and deleting nodes' pods. */
  private runMayWait = false;
  private readonly onUninitialized = new Map<ExistingNode, PodData[]>();
  /** The smallest requests of the pods being solved: a node with less room is closed to all of them. */
  private minCpu = 0;
  private minMemory = 0;

  constructor(private readonly input: SchedulerInput) {
    this.existing = input.existingNodes.map((node) => new ExistingNode(node, input.topology, input.daemonSets));
    // A partition, not a sort: the same order, linear for the thousands of nodes a consolidation simulation takes.
    this.existingInOrder = [...this.existing.filter((n) => n.state.initialized), ...this.existing.filter((n) => !n.state.initialized)];
    if (input.topologyCounted !== true) input.topology.countPodsOn(this.existing);
    this.pools = input.templates.map((template) => {
      const remaining = new RemainingResources(template.pool, template.offerings.options);
      for (const node of input.existingNodes) if (nodePoolOf(node) === template.pool.name) remaining.subtract(node.capacity);
      return { template, remaining };
    });
  }

  /** Schedules the queued pods, in the order given; a scheduler solves once. */
  solve(queued: readonly QueuedPods[]): Results {
    // A loop, not Math.min(...): a plan may queue a hundred thousand runs, beyond what a call takes as arguments.
    this.minCpu = Infinity;
    this.minMemory = Infinity;
    for (const { pod } of queued) {
      this.minCpu = Math.min(this.minCpu, pod.requests.cpu);
      this.minMemory = Math.min(this.minMemory, pod.requests.memory);
    }
    // Consolidation solves a candidate's few pods against thousands of packed nodes: leave out those closed to all.
    this.open = this.existingInOrder.filter((node) => !node.closedTo(this.minCpu, this.minMemory));
    const queue = new Queue(queued);
    const pending: QueuedPods[] = [];
    const relaxed = new Map<string, { pod: PodData; gaveUp: string; count: number }>();
    let placed = 0;
    for (let run = queue.pop(); run !== undefined; run = queue.pop()) {
      this.runMayWait = run.pending === true || run.fromDeleting === true;
      const outcome = this.addRun(run.pod, run.count, relaxed);
      queue.progress(outcome.placed);
      placed += outcome.placed;
      if (outcome.placed === run.count) continue;
      const left: QueuedPods = {
        pod: run.pod,
        count: run.count - outcome.placed,
        reason: outcome.reason,
        ...(run.pending ? { pending: true } : {}),
        ...(run.fromDeleting ? { fromDeleting: true } : {}),
      };
      // Only a pod with spread or affinity of its own can fit later in this loop (other pods may open the
      // domain it needs); for the rest, nodes only fill and limits only shrink: pending until the next loop.
      if (run.pod.monotone) pending.push(left);
      else queue.push(left);
    }
    pending.push(...queue.list());
    return {
      newNodeClaims: this.newNodeClaims,
      existingNodes: this.existing,
      pending,
      placed,
      relaxed: [...relaxed.values()],
      onUninitialized: this.onUninitialized,
    };
  }

  /** Places up to `count` pods of a run; returns how many, and why the next one found no node. */
  private addRun(pod: PodData, count: number, relaxed: Map<string, { pod: PodData; gaveUp: string; count: number }>): { placed: number; reason?: string } {
    const refused: Refused | undefined = pod.monotone ? { nodes: new Set(), templates: new Set() } : undefined;
    for (let k = 0; k < count; k++) {
      let reasons: string[] = [];
      let placed = false;
      for (const [level, form] of pod.forms.entries()) {
        reasons = [];
        if (this.add(pod, form, level === 0 ? refused : undefined, reasons)) {
          placed = true;
          if (level > 0) {
            const gaveUp = form.relaxed.join(", ");
            const key = `${pod.group.id}\0${gaveUp}`;
            const seen = relaxed.get(key);
            if (seen === undefined) relaxed.set(key, { pod, gaveUp, count: 1 });
            else seen.count++;
          }
          break;
        }
      }
      if (!placed) return { placed: k, reason: reasons.length === 0 ? "the cluster has no NodePool" : reasons.join("; ") };
    }
    return { placed: count };
  }

  /** Tries one pod in one form: existing nodes, in-flight NodeClaims, then a new NodeClaim; each pool's refusal joins `reasons`. */
  private add(pod: PodData, form: SchedulingForm, refused: Refused | undefined, reasons: string[]): boolean {
    const r = pod.requests;
    for (let i = 0; i < this.open.length; i++) {
      const node = this.open[i];
      if (node.cannotHold(r) || refused?.nodes.has(node)) continue;
      if (node.add(pod, form).ok) {
        // A node now too full for every pod of this solve is not tried again.
        if (node.closedTo(this.minCpu, this.minMemory)) this.open.splice(i, 1);
        if (!node.state.initialized && !this.runMayWait) getOrAdd(this.onUninitialized, node, () => []).push(pod);
        return true;
      }
      refused?.nodes.add(node);
    }
    const inFlight = this.inflight.nodeClaims;
    let closed = false;
    for (let i = 0; i < inFlight.length; i++) {
      const nc = inFlight[i];
      // The cheap refusal first: most NodeClaims a pod passes by are simply too full for it.
      if (nc.cannotHold(r)) {
        if (nc.closedTo(this.minCpu, this.minMemory)) closed = true;
        continue;
      }
      if (refused?.nodes.has(nc)) continue;
      if (nc.add(pod, form).ok) {
        this.inflight.moved(i);
        return true;
      }
      refused?.nodes.add(nc);
    }
    if (closed) this.inflight.prune((nc) => nc.closedTo(this.minCpu, this.minMemory));
    for (const { template, remaining } of this.pools) {
      if (refused?.templates.has(template)) continue;
      const opened = this.addToNewNodeClaim(template, remaining, pod, form);
      if (opened.ok) return true;
      reasons.push(`NodePool ${template.pool.name}: ${opened.reason}`);
      refused?.templates.add(template);
    }
    return false;
  }

  private addToNewNodeClaim(template: NodeClaimTemplate, remaining: RemainingResources, pod: PodData, form: SchedulingForm): FitOrReason {
    const poolFit = this.input.fits.fit(form, template.offerings);
    if (!poolFit.ok) return poolFit;
    if (!remaining.nodesLeft) return refuse(remaining.reached);
    const instanceTypes = remaining.instanceTypes();
    if (instanceTypes.length === 0) return refuse(remaining.reached);
    const id = this.input.nodeClaimIds.next;
    const nc = new NodeClaim(template, this.input.topology, this.input.fits, id, instanceTypes);
    const added = nc.add(pod, form);
    if (!added.ok) {
      const forRoom = added.reason === NO_ROOM || added.reason === NO_TYPE_HOLDS;
      return refuse(forRoom ? (template.ephemeralStorageShortfall(pod.requests) ?? NO_TYPE_ALLOWED_HOLDS) : added.reason);
    }
    remaining.reserveLargest(nc.instanceTypeOptions);
    this.input.nodeClaimIds.opened();
    this.newNodeClaims.push(nc);
    this.inflight.add(nc);
    return FITS;
  }
}
