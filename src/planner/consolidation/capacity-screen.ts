import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { daemonRequests } from "../simulation/daemon-overhead";
import { requestsOfPods } from "../simulation/resources";
import type { PodGroup } from "../workload/workload-model";
import type { Candidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import { cheapestLaunchPrice } from "./offering-prices";
import { type DisruptionContext, simulateScheduling } from "./simulate-scheduling";

// A screen before a consolidation simulation, from totals alone: the candidates' pods can only go if the nodes that
// stay have room for them, or if what they lack fits on one new node cheaper than the candidates together. Free
// room is counted generously (all the staying initialized nodes' allocatable less their pods' and running DaemonSet
// pods' requests, every constraint ignored) and the new node's price at its cheapest offering in any NodePool, so a screen that
// refuses never refuses a command the simulation would have found: both are necessary for one. It tells no reason,
// so only a caller that reports none uses it (the replay, which runs the disruption controller every few seconds of
// a simulated day); a plan's settled nodes say why each stays, from the simulation.

interface Room {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
}

const ZERO: Room = { cpu: 0, memory: 0, pods: 0 };

/** What a node could still take: allocatable less its pods' and its running DaemonSet pods' requests; nothing for one starting or going. */
function freeOn(node: ClusterNode): Room {
  if (!node.state.initialized || node.deleting) return ZERO;
  const used = requestsOfPods(node.state.pods);
  const daemons = daemonRequests(node.state.daemonSetPods);
  const a = node.state.allocatable;
  return {
    cpu: Math.max(0, a.cpu - used.cpu - daemons.cpu),
    memory: Math.max(0, a.memory - used.memory - daemons.memory),
    pods: Math.max(0, a.pods - used.pods - daemons.pods),
  };
}

/** The cluster's free room, worked out once for each pass's node list. */
const freeByPass = new WeakMap<readonly ClusterNode[], { total: Room; byNode: Map<ClusterNode, Room> }>();

function freeRoom(nodes: readonly ClusterNode[]) {
  return getOrAdd(freeByPass, nodes, () => {
    const byNode = new Map<ClusterNode, Room>();
    let total = ZERO;
    for (const node of nodes) {
      const free = freeOn(node);
      byNode.set(node, free);
      total = { cpu: total.cpu + free.cpu, memory: total.memory + free.memory, pods: total.pods + free.pods };
    }
    return { total, byNode };
  });
}

/**
 * Whether some type of some NodePool, at its cheapest offering, costs less than `price` and has the room needed
 * beside its DaemonSets. `spotBarred`: no new node can replace these candidates (spotReplacementBarred).
 */
function cheaperTypeHolds(ctx: DisruptionContext, price: number, needed: Room, spotBarred: boolean): boolean {
  if (spotBarred) return false;
  const { spotKnown } = ctx.simulation;
  for (const offerings of ctx.simulation.pools) {
    const scope = { capacityTypes: offerings.capacityTypes, zones: undefined, spotKnown };
    for (const o of offerings.options) {
      const room = { cpu: o.allocatable.cpu - o.overhead.cpu, memory: o.allocatable.memory - o.overhead.memory, pods: o.allocatable.pods - o.overhead.pods };
      if (room.cpu >= needed.cpu && room.memory >= needed.memory && room.pods >= needed.pods && cheapestLaunchPrice(o, scope) < price) return true;
    }
  }
  return false;
}

/** Pods that say anything of the capacity type (a selector, an affinity, a spread) may narrow a new node to on-demand. */
const namesCapacityType = new WeakMap<PodGroup, boolean>();
const mentionsCapacityType = (group: PodGroup) => getOrAdd(namesCapacityType, group, () => JSON.stringify(group.pod).includes(LABEL.capacityType));

/** How many pods of at least `least` requests the room takes: a bound on what the node can take of them. */
function podsFitting(room: Room, least: { readonly cpu: number; readonly memory: number }): number {
  const byCpu = least.cpu > 0 ? Math.floor(room.cpu / least.cpu) : Number.POSITIVE_INFINITY;
  const byMemory = least.memory > 0 ? Math.floor(room.memory / least.memory) : Number.POSITIVE_INFINITY;
  return Math.min(byCpu, byMemory, room.pods);
}

/** The sum of the `n` smallest of the values, each given with how many pods ask it. */
function smallest(values: readonly { readonly value: number; readonly count: number }[], n: number): number {
  if (n <= 0) return 0;
  let left = n;
  let sum = 0;
  for (const { value, count } of [...values].sort((a, b) => a.value - b.value)) {
    if (left <= 0) break;
    const take = Math.min(left, count);
    sum += take * value;
    left -= take;
  }
  return sum;
}

/**
 * True when the candidates cannot go together, deleted or replaced by one cheaper node, whatever the simulation
 * says. The pods the other nodes can take at most: on each, as many as its free room holds of pods as small as
 * the smallest; the rest need the new node, which must then hold at least that many pods and the smallest of
 * their requests (or, in all, what the other nodes' free room cannot).
 */
export function cannotConsolidate(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[]): boolean {
  const { total, byNode } = freeRoom(nodes);
  const leaving = new Set(candidates.map((c) => c.node));
  let free = total;
  let price = 0;
  const moving: { group: Candidate["pods"][number]["group"]; count: number }[] = [];
  for (const c of candidates) {
    const own = byNode.get(c.node) ?? ZERO;
    free = { cpu: free.cpu - own.cpu, memory: free.memory - own.memory, pods: free.pods - own.pods };
    price += c.price;
    moving.push(...c.pods);
  }
  const needs = requestsOfPods(moving);
  if (needs.pods === 0) return false;
  const least = {
    cpu: Math.min(...moving.map((p) => p.group.pod.cpuMillis)),
    memory: Math.min(...moving.map((p) => p.group.pod.memoryBytes)),
  };
  let placeable = 0;
  for (const [node, room] of byNode) if (!leaving.has(node)) placeable += podsFitting(room, least);
  const leftOver = Math.max(0, needs.pods - placeable);
  const lacking = {
    cpu: Math.max(
      0,
      needs.cpu - free.cpu,
      smallest(
        moving.map((p) => ({ value: p.group.pod.cpuMillis, count: p.count })),
        leftOver,
      ),
    ),
    memory: Math.max(
      0,
      needs.memory - free.memory,
      smallest(
        moving.map((p) => ({ value: p.group.pod.memoryBytes, count: p.count })),
        leftOver,
      ),
    ),
    pods: Math.max(0, needs.pods - free.pods, leftOver),
  };
  const spotBarred = spotReplacementBarred(ctx, nodes, candidates);
  if (lacking.cpu <= 0 && lacking.memory <= 0 && lacking.pods <= 0) return spotBarred && needsNewNode(ctx, nodes, candidates);
  return !cheaperTypeHolds(ctx, price, lacking, spotBarred) || (spotBarred && needsNewNode(ctx, nodes, candidates));
}

/**
 * Spot candidates replaced by a node that may be spot: computeConsolidation refuses it while the SpotToSpot gate
 * is off. Every pool offers spot here and no pod that would join the new node says a word about capacity type.
 */
function spotReplacementBarred(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[]): boolean {
  if (ctx.spotToSpot || !candidates.every((c) => c.node.capacityType === "spot")) return false;
  if (!ctx.simulation.pools.every((p) => p.capacityTypes.includes("spot"))) return false;
  if (candidates.some((c) => c.pods.some((p) => mentionsCapacityType(p.group)))) return false;
  return !getOrAdd(othersNameCapacityType, nodes, () =>
    [...ctx.pending, ...nodes.filter((n) => n.deleting).flatMap((n) => n.state.pods)].some((p) => mentionsCapacityType(p.group)),
  );
}

/** Whether the pass's pending pods, or those of its deleting nodes, name a capacity type: the same for every candidate. */
const othersNameCapacityType = new WeakMap<readonly ClusterNode[], boolean>();

/**
 * Whether the candidates' pods need a new node: scheduled on the nodes that stay alone, one is left without a node
 * (or lands on one still starting). Then the full simulation either opens a NodeClaim for it or leaves it
 * unscheduled, because without any NodeClaim it is the same simulation: a refusal either way where a new node is
 * barred. Nodes without room for the smallest pod scheduled could take none, and are left out of it.
 */
function needsNewNode(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[]): boolean {
  const { byNode } = freeRoom(nodes);
  const leaving = new Set(candidates.map((c) => c.node));
  // Before simulating: a workload whose pods the other nodes' free room cannot hold, counted for it alone, leaves
  // one without a node (or on a node still starting) in the simulation too.
  for (const c of candidates) {
    for (const { group, count } of c.pods) {
      const each = { cpu: group.pod.cpuMillis, memory: group.pod.memoryBytes };
      let room = 0;
      for (const [node, free] of byNode) {
        if (leaving.has(node)) continue;
        room += podsFitting(free, each);
        if (room >= count) break;
      }
      if (room < count) return true;
    }
  }
  const deleting = nodes.filter((n) => n.deleting).flatMap((n) => n.state.pods);
  const scheduled = [...candidates.flatMap((c) => c.pods), ...ctx.pending, ...deleting];
  const least = {
    cpu: Math.min(...scheduled.map((p) => p.group.pod.cpuMillis)),
    memory: Math.min(...scheduled.map((p) => p.group.pod.memoryBytes)),
  };
  // A node still starting has no free room counted, but a pod landing there refuses the command: it stays in.
  const mayTake = (node: ClusterNode) => !node.state.initialized || podsFitting(byNode.get(node) ?? ZERO, least) > 0;
  return simulateScheduling(ctx, nodes, candidates, ctx.pending, { mayTake }).unscheduled.length > 0;
}
