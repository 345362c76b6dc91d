import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { chooseLaunch, type LaunchRequest, launchedNode } from "../simulation/launch";
import type { NodeClaim } from "../simulation/node-claim";
import type { Results } from "../simulation/scheduler";
import type { PodDisruptionBudget } from "../workload/workload-model";
import { poolTotals } from "./balanced";
import { budgetMapping } from "./budget-mapping";
import { type Blocker, type Candidate, consolidatable, isCandidate, newCandidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import type { Command } from "./compute-consolidation";
import { emptiness } from "./emptiness";
import { multiNodeConsolidation } from "./multi-node-consolidation";
import { runningNode } from "./running-node";
import { type DisruptionContext, type PendingPods, simulateScheduling } from "./simulate-scheduling";
import { singleNodeConsolidation } from "./single-node-consolidation";

// Karpenter's disruption controller, run until it settles: each pass builds the candidates, then tries emptiness,
// multi-node and single-node consolidation in that order; the first that yields a command wins, the command is
// carried out at once (its candidates go, its replacement runs, its pods are where the simulation put them), and
// the next pass starts from the new state. The end state is where the cluster settles once every consolidateAfter
// window has passed and every command has run: no timing, validation delay, or pod arriving meanwhile is modelled.
// Drift, expiration, interruption and repair are not disruption by consolidation, and are left out.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/controller.go (NewMethods, Reconcile, disrupt)

export type DisruptionMethod = "emptiness" | "multi-node" | "single-node";

export interface ConsolidationAction {
  readonly method: DisruptionMethod;
  readonly kind: "delete" | "replace";
  readonly nodes: readonly ClusterNode[];
  readonly replacement?: ClusterNode;
  /** USD per hour: the nodes' prices less the replacement's. */
  readonly savingHourlyUsd: number;
}

export interface ConsolidationResult {
  /** The nodes the cluster settles into. */
  readonly nodes: readonly ClusterNode[];
  /** The pods still pending once it has settled (those Karpenter provisions for). */
  readonly pending: readonly PendingPods[];
  readonly actions: readonly ConsolidationAction[];
  /** Why each node that stays stays, in Karpenter's words. */
  readonly blockers: readonly { readonly node: ClusterNode; readonly blocker: Blocker }[];
  /** True when the loop stopped at its cap with commands still coming (a bug, or a cluster that never settles). */
  readonly unsettled: boolean;
}

export interface ConsolidationInput {
  readonly nodes: readonly ClusterNode[];
  readonly pdbs: readonly PodDisruptionBudget[];
  /** When budgets' schedules are evaluated. */
  readonly at: Date;
}

/** The node a NodeClaim launches as, settled and named: a replacement runs like any node. */
function launch(ctx: DisruptionContext, request: LaunchRequest, name: string): ClusterNode {
  const choice = chooseLaunch(request, ctx.zonesKnown);
  const launched = launchedNode(request, choice, ctx.region);
  const how = { instanceType: choice.option.type.name, capacityType: choice.capacityType, hourlyUsd: choice.hourlyUsd, upperBound: choice.upperBound };
  return runningNode({ ...launched, name, labels: { ...launched.labels, [LABEL.hostname]: name } }, how, ctx.pools);
}

/** The cluster once the command ran: candidates and deleting nodes gone, pods where the simulation put them. */
function carryOut(
  ctx: DisruptionContext,
  nodes: readonly ClusterNode[],
  leaving: ReadonlySet<ClusterNode>,
  results: Results,
  launches: readonly LaunchRequest[],
) {
  const staying = nodes.filter((n) => !leaving.has(n) && !n.deleting);
  const after: ClusterNode[] = staying.map((n, i) => {
    const state = results.existingNodes[i].toStateNode();
    // The same node where nothing moved onto it: what the controller learnt of it stays valid.
    return state === n.state ? n : { ...n, state };
  });
  const launched = launches.map((request) => launch(ctx, request, `replacement-${++ctx.launched}`));
  return { nodes: [...after, ...launched], launched };
}

/** A replace launches its one NodeClaim among the cheaper options only, on the capacity type it was priced at. */
function narrowed(claim: NodeClaim, command: Command): LaunchRequest {
  const replacement = command.replacement;
  if (replacement === undefined) return claim;
  return {
    template: claim.template,
    instanceTypeOptions: replacement.options,
    zones: claim.zones,
    capacityTypes: replacement.capacityTypes,
    hostname: claim.hostname,
    pods: claim.pods,
  };
}

const sum = (nodes: readonly ClusterNode[]) => nodes.reduce((total, n) => total + (n.hourlyUsd ?? 0), 0);

/** Runs the disruption controller until no method yields a command. */
export function consolidate(ctx: DisruptionContext, input: ConsolidationInput): ConsolidationResult {
  let nodes: readonly ClusterNode[] = [...input.nodes].sort((a, b) => (a.state.name < b.state.name ? -1 : a.state.name > b.state.name ? 1 : 0));
  const actions: ConsolidationAction[] = [];
  // Every command removes a node, or replaces nodes by a cheaper one: a settled cluster is reached well before.
  const cap = 2 * nodes.length + 10;
  // A node no command touched is the same candidate, or blocked for the same reason, on the next pass.
  const seen = new WeakMap<ClusterNode, Candidate | Blocker>();
  const candidateOf = (node: ClusterNode) => getOrAdd(seen, node, () => newCandidate(node, input.pdbs));
  for (let pass = 0; pass < cap; pass++) {
    const all = nodes.map(candidateOf);
    const candidates = all.filter(isCandidate);
    const action = nextAction(ctx, nodes, candidates, input.at);
    if ("refused" in action) {
      return { nodes, pending: ctx.pending, actions, blockers: explain(ctx, nodes, all, action.refused, input.at), unsettled: false };
    }
    actions.push(action.action);
    nodes = action.nodes;
  }
  return { nodes, pending: ctx.pending, actions, blockers: [], unsettled: true };
}

/** The next command carried out, or, when there is none, why single-node consolidation refused each candidate. */
type NextStep = { readonly nodes: readonly ClusterNode[]; readonly action: ConsolidationAction } | { readonly refused: ReadonlyMap<Candidate, Blocker> };

function nextAction(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[], at: Date): NextStep {
  const empty = emptiness(candidates, budgetMapping(nodes, "Empty", at)).empty;
  if (empty.length > 0) {
    // Empty nodes may still hold pods of no eviction cost: they come back and the provisioner places them.
    const { results } = simulateScheduling(ctx, nodes, empty);
    const gone = empty.map((c) => c.node);
    const after = carryOut(ctx, nodes, new Set(gone), results, results.newNodeClaims);
    return {
      nodes: after.nodes,
      action: { method: "emptiness" as const, kind: "delete" as const, nodes: gone, savingHourlyUsd: sum(gone) - sum(after.launched) },
    };
  }
  const consolidating = candidates.filter((c) => consolidatable(c, ctx.typeKnown(c.node.instanceType)) === true);
  const totals = poolTotals(nodes, candidates);
  const multi = multiNodeConsolidation(ctx, nodes, consolidating, budgetMapping(nodes, "Underutilized", at), totals);
  const single = multi === undefined ? singleNodeConsolidation(ctx, nodes, consolidating, budgetMapping(nodes, "Underutilized", at), totals) : undefined;
  const command = multi ?? single?.command;
  if (command === undefined) return { refused: single?.refused ?? new Map<Candidate, Blocker>() };
  const gone = command.candidates.map((c) => c.node);
  const claim = command.results.newNodeClaims[0];
  const after = carryOut(ctx, nodes, new Set(gone), command.results, claim === undefined ? [] : [narrowed(claim, command)]);
  // The pending pods the simulation placed now run where it put them; the others still wait.
  ctx.pending = command.results.pending.filter((p) => p.pending === true).map((p) => ({ group: p.pod.group, count: p.count }));
  return {
    nodes: after.nodes,
    action: {
      method: multi === undefined ? ("single-node" as const) : ("multi-node" as const),
      kind: after.launched.length > 0 ? ("replace" as const) : ("delete" as const),
      nodes: gone,
      replacement: after.launched[0],
      savingHourlyUsd: sum(gone) - sum(after.launched),
    },
  };
}

/**
 * Why each node of a settled cluster stays: the first reason Karpenter would give for it. `tried`: why the last
 * pass's single-node consolidation refused each candidate it tried.
 */
function explain(
  ctx: DisruptionContext,
  nodes: readonly ClusterNode[],
  all: readonly (Candidate | Blocker)[],
  tried: ReadonlyMap<Candidate, Blocker>,
  at: Date,
) {
  const candidates = all.filter(isCandidate);
  const empty = emptiness(candidates, budgetMapping(nodes, "Empty", at));
  const heldEmpty = new Map(empty.heldByBudget.map((h) => [h.candidate, h.message]));
  return nodes.map((node, i) => {
    const candidate = all[i];
    if (!isCandidate(candidate)) return { node, blocker: candidate };
    const held = heldEmpty.get(candidate);
    if (held !== undefined) return { node, blocker: { event: "DisruptionBlocked" as const, message: held } };
    const filter = consolidatable(candidate, ctx.typeKnown(candidate.node.instanceType));
    if (filter !== true && filter !== false) return { node, blocker: filter };
    return { node, blocker: tried.get(candidate) ?? { event: "Unconsolidatable" as const, message: "Not consolidated" } };
  });
}
