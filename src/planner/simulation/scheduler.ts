import type { Requirement } from "../../instance-catalogue/requirements";
import { formatBytes, formatCpu } from "../../shared/quantity";
import type { PodGroup } from "../workload/workload-model";
import { EmptiestFirst } from "./emptiest-first";
import { chooseLaunch, type PlannedNode, plannedNode } from "./launch";
import { countLaunched, nodesLeft, type Remaining, remainingOf, reserveLargest, withinLimits } from "./limits";
import { NodeClaim, type PodRequest } from "./node-claim";
import type { FitCache } from "./pod-fit";
import type { PoolOfferings } from "./pool-offerings";
import { type SchedulingForm, schedulingForms } from "./preferences";
import { type DomainUniverse, TopologyRegistry } from "./topology";

// Karpenter's provisioning scheduler, for the pods of a plan. Pods are queued by decreasing CPU, then memory
// (queue.go); each pod goes to the first node that takes it: a node launched by an earlier batch, else an
// in-flight NodeClaim, emptiest first, else a new NodeClaim of the first NodePool, by weight, that can hold
// it (scheduler.go add). A pod that fits nowhere is relaxed one preference at a time and tried again
// (preferences.go); one that still fits nowhere goes to the back of the queue, and the batch ends when a
// whole pass places nothing. New NodeClaims reserve their largest option against the pool's limits; the
// pods that held back are planned in a next batch against the nodes as launched, as Karpenter's next
// provisioning loop would.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go (Solve, add)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/queue.go

export interface ScheduleInput {
  /** In Karpenter's order: weight, then name. */
  readonly pools: readonly PoolOfferings[];
  /** Node-bound pod groups, with the replicas to plan. */
  readonly groups: readonly PodGroup[];
  readonly fits: FitCache;
  readonly universe: DomainUniverse;
  readonly spotKnown: boolean;
  readonly zonesKnown: boolean;
  /** Replicas each group adds once the first plan is launched (an autoscaler scaling up); none when undefined. */
  readonly scaleUp?: readonly number[];
}

export interface Unschedulable {
  readonly id: string;
  readonly count: number;
  readonly reason: string;
}

export interface ScheduleResult {
  readonly nodes: readonly PlannedNode[];
  readonly unschedulable: readonly Unschedulable[];
  /** Pods that were placed only after giving up preferences, by group and what was given up. */
  readonly relaxed: readonly { readonly id: string; readonly count: number; readonly gaveUp: string }[];
}

interface QueueEntry {
  readonly group: number;
  readonly count: number;
  /** Pods placed in all when this entry went to the back of the queue; unchanged when it comes round again: a stall. */
  readonly progressAtPush: number;
  readonly reason?: string;
}

const BATCHES = 10;

export function schedule(input: ScheduleInput): ScheduleResult {
  const { pools, groups, fits } = input;
  const preferNoSchedule = pools.some((p) => p.pool.taints.some((t) => t.effect === "PreferNoSchedule"));
  const forms = groups.map((g) => schedulingForms(g.pod, preferNoSchedule));
  const topology = new TopologyRegistry(groups, (g) => forms[g][0].constraints, input.universe);
  const requests = groups.map((g) => ({ cpu: g.pod.cpuMillis, memory: g.pod.memoryBytes, pods: 1, extended: g.pod.extended }));
  const minValues: Requirement[][] = pools.map((p) => p.pool.requirements.filter((r) => r.minValues !== undefined));
  const remaining: Remaining[] = pools.map((p) => remainingOf(p.pool));
  const minCpu = Math.min(...requests.map((r) => r.cpu));
  const minMemory = Math.min(...requests.map((r) => r.memory));
  // A pod without spread or affinity of its own meets the same refusal from a node as its twin before it.
  const monotone = forms.map((f) => f[0].constraints.every((c) => c.kind === "anti-affinity"));

  const launched: NodeClaim[] = [];
  const relaxed = new Map<string, number>();
  let inflight = new EmptiestFirst();
  let batchNodes: NodeClaim[] = [];
  let progress = 0;
  let nextId = 1;

  /** Tries one pod of a group in one form; `skip` holds what refused its twins of the same run. */
  const place = (g: number, form: SchedulingForm, skip: { nodes: Set<NodeClaim>; pools: Set<number> } | undefined, reasons: string[]): boolean => {
    const pod: PodRequest = { group: g, requests: requests[g], form };
    const r = requests[g];
    for (const nc of launched) {
      if (nc.cannotHold(r) || skip?.nodes.has(nc) || nc.closedTo(minCpu, minMemory)) continue;
      const fit = fits.fit(form, nc.offerings);
      if (fit.ok && nc.tryAdd(pod, fit.fit, topology, input.spotKnown, minValues[nc.pool]) === undefined) return true;
      skip?.nodes.add(nc);
    }
    const inFlight = inflight.nodeClaims;
    let closed = false;
    for (let i = 0; i < inFlight.length; i++) {
      const nc = inFlight[i];
      // The cheap refusal first: most NodeClaims a pod passes by are simply too full for it.
      if (nc.cannotHold(r)) {
        if (nc.closedTo(minCpu, minMemory)) closed = true;
        continue;
      }
      if (skip?.nodes.has(nc)) continue;
      const fit = fits.fit(form, nc.offerings);
      if (fit.ok && nc.tryAdd(pod, fit.fit, topology, input.spotKnown, minValues[nc.pool]) === undefined) {
        inflight.moved(i);
        return true;
      }
      skip?.nodes.add(nc);
    }
    if (closed) inflight.prune((nc) => nc.closedTo(minCpu, minMemory));

    for (const [p, offerings] of pools.entries()) {
      if (skip?.pools.has(p)) continue;
      const reason = openNodeClaim(p, offerings, pod);
      if (reason === undefined) return true;
      reasons.push(`NodePool ${offerings.pool.name}: ${reason}`);
      skip?.pools.add(p);
    }
    return false;
  };

  // The types within each pool's remaining limits, kept until a new NodeClaim reserves more of them.
  const withinCache = new Map<number, number[]>();
  const withinRemaining = (p: number): number[] => {
    let viable = withinCache.get(p);
    if (viable === undefined) {
      viable = pools[p].candidates.flatMap((c, i) => (withinLimits(c, remaining[p]) ? [i] : []));
      withinCache.set(p, viable);
    }
    return viable;
  };

  const openNodeClaim = (p: number, offerings: PoolOfferings, pod: PodRequest): string | undefined => {
    const fit = fits.fit(pod.form, offerings);
    if (!fit.ok) return fit.reason;
    if (!nodesLeft(remaining[p])) return `its limits are reached (${formatLimits(offerings)})`;
    const viable = withinRemaining(p);
    if (viable.length === 0) return `its limits are reached (${formatLimits(offerings)})`;
    const nc = new NodeClaim(nextId, offerings, p, viable, offerings.zones, offerings.capacityTypes);
    const refused = nc.tryAdd(pod, fit.fit, topology, input.spotKnown, minValues[p]);
    if (refused !== undefined)
      return nc.cannotHold(pod.requests) || refused.startsWith("no instance type")
        ? "no instance type it allows holds the pod and the DaemonSets beside it"
        : refused;
    nextId++;
    reserveLargest(
      remaining[p],
      nc.viable.map((i) => nc.candidate(i)),
    );
    withinCache.delete(p);
    batchNodes.push(nc);
    inflight.add(nc);
    return undefined;
  };

  /** Places up to `count` pods of a group; returns how many, and why the next one found no node. */
  const placeRun = (g: number, count: number): { placed: number; reason?: string } => {
    const skip = monotone[g] ? { nodes: new Set<NodeClaim>(), pools: new Set<number>() } : undefined;
    for (let k = 0; k < count; k++) {
      let reasons: string[] = [];
      let placed = false;
      for (const [level, form] of forms[g].entries()) {
        reasons = [];
        if (place(g, form, level === 0 ? skip : undefined, reasons)) {
          placed = true;
          if (level > 0) {
            const key = `${g}\0${form.relaxed.join(", ")}`;
            relaxed.set(key, (relaxed.get(key) ?? 0) + 1);
          }
          break;
        }
      }
      if (!placed) return { placed: k, reason: reasons.length === 0 ? "the cluster has no NodePool" : reasons.join("; ") };
      progress++;
    }
    return { placed: count };
  };

  const order = groups.map((_, g) => g).sort((a, b) => requests[b].cpu - requests[a].cpu || requests[b].memory - requests[a].memory || a - b);
  const entries = (counts: readonly number[]): QueueEntry[] =>
    order.filter((g) => counts[g] > 0).map((g) => ({ group: g, count: counts[g], progressAtPush: -1 }));

  /** Provisioning loops until one places nothing; returns what is still pending. */
  const runBatches = (queued: QueueEntry[]): QueueEntry[] => {
    let pending = queued;
    for (let batch = 0; batch < BATCHES && pending.length > 0; batch++) {
      const queue = pending.map((e) => ({ ...e, progressAtPush: -1 }));
      pending = [];
      const before = progress;
      // A head index, not shift(): the queue holds a run per group, up to every pod of a plan.
      for (let head = 0; head < queue.length; head++) {
        const entry = queue[head];
        if (entry.progressAtPush === progress) {
          // A whole pass placed nothing: every pod still queued stays pending in this batch.
          pending.push(...queue.slice(head));
          break;
        }
        const run = placeRun(entry.group, entry.count);
        if (run.placed === entry.count) continue;
        const left = { group: entry.group, count: entry.count - run.placed, progressAtPush: progress, reason: run.reason };
        // Only a pod with spread or affinity of its own can fit later in the batch (other pods may open the
        // domain it needs); for the rest, nodes only fill and limits only shrink: pending until the next batch.
        if (monotone[entry.group]) pending.push(left);
        else queue.push(left);
      }
      // The batch's NodeClaims launch; the next batch sees them as nodes, at their real capacity.
      for (const nc of batchNodes) {
        nc.settle(chooseLaunch(nc, input.spotKnown, input.zonesKnown, minValues[nc.pool]));
        launched.push(nc);
      }
      batchNodes = [];
      inflight = new EmptiestFirst();
      // The next loop counts topology on the nodes as launched: each in one zone, of one capacity type (an
      // anti-affinity pod blocked every zone its NodeClaim might have landed in; now it is in one).
      topology.reset();
      for (const nc of launched) {
        for (const { group, count } of nc.groups) for (let k = 0; k < count; k++) topology.record(group, nc);
      }
      withinCache.clear();
      pools.forEach((p, i) => {
        remaining[i] = remainingOf(p.pool);
        for (const nc of launched) if (nc.pool === i) countLaunched(remaining[i], nc.candidate(nc.viable[0]));
      });
      if (progress === before) break;
    }
    return pending;
  };

  let pending = runBatches(entries(groups.map((g) => g.replicas)));
  if (input.scaleUp !== undefined) {
    const more = entries(input.scaleUp);
    if (more.length > 0) pending = runBatches([...more, ...pending].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group)));
  }

  return {
    nodes: launched.map((nc) => plannedNode(nc, nc.launch as NonNullable<NodeClaim["launch"]>, (g) => groups[g].id)),
    unschedulable: pending.map((e) => ({ id: groups[e.group].id, count: e.count, reason: e.reason ?? "not planned" })),
    relaxed: [...relaxed.entries()].map(([key, count]) => {
      const [g, gaveUp] = key.split("\0");
      return { id: groups[Number(g)].id, count, gaveUp };
    }),
  };
}

const limitsText = new WeakMap<PoolOfferings, string>();

/** "cpu 1000, memory 1000 GiB": a pool's limits for people (said often, written once). */
function formatLimits(offerings: PoolOfferings): string {
  const known = limitsText.get(offerings);
  if (known !== undefined) return known;
  const text = Object.entries(offerings.pool.limits)
    .map(([key, value]) => `${key} ${key === "cpu" ? formatCpu(value) : key === "memory" ? formatBytes(value) : value}`)
    .join(", ");
  limitsText.set(offerings, text);
  return text;
}
