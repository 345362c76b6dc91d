import { getOrAdd } from "../../shared/get-or-add";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { chooseLaunch, type LaunchRequest, launchedNode } from "../simulation/launch";
import type { Results } from "../simulation/scheduler";
import type { PodDisruptionBudget } from "../workload/workload-model";
import { poolTotals } from "./balanced";
import { budgetMapping } from "./budget-mapping";
import { type Blocker, type Candidate, isCandidate, newCandidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import type { Command } from "./compute-consolidation";
import type { DisruptionMethod, MethodName } from "./disruption-method";
import { EMPTINESS, emptiness } from "./emptiness";
import { MULTI_NODE_CONSOLIDATION } from "./multi-node-consolidation";
import { runningNode } from "./running-node";
import type { DisruptionContext, PendingPods } from "./simulate-scheduling";
import { SINGLE_NODE_CONSOLIDATION } from "./single-node-consolidation";

// Karpenter's disruption controller, run until it settles: each pass builds the candidates, then tries its methods
// (emptiness, multi-node and single-node consolidation) in that order; the first that yields a command wins, it is
// carried out at once (its candidates go, its replacement runs, its pods are where the simulation put them), and
// the next pass starts from the new state. The end state is where the cluster settles once every consolidateAfter
// window has passed and every command has run: no timing, validation delay, or pod arriving meanwhile is modelled.
// Drift, expiration, interruption and repair are not disruption by consolidation, and are left out.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/controller.go (NewMethods, Reconcile, disrupt)

/** The methods in Karpenter's order (NewMethods), less drift, which the planner does not model. */
export const METHODS: readonly DisruptionMethod[] = [EMPTINESS, MULTI_NODE_CONSOLIDATION, SINGLE_NODE_CONSOLIDATION];

export interface ConsolidationAction {
  readonly method: MethodName;
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
  const choice = chooseLaunch(request, ctx.simulation.zonesKnown);
  const launched = launchedNode(request, choice, ctx.simulation.region);
  const how = { instanceType: choice.option.type.name, capacityType: choice.capacityType, hourlyUsd: choice.hourlyUsd, upperBound: choice.upperBound };
  return runningNode({ ...launched, name, labels: { ...launched.labels, [LABEL.hostname]: name } }, how, ctx.simulation.disruption);
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
  // The simulation's node of each staying node, by the state it was built from.
  const simulated = new Map(results.existingNodes.map((node) => [node.state, node]));
  const after: ClusterNode[] = staying.map((n) => {
    const node = simulated.get(n.state);
    if (node === undefined) throw new Error(`bug: node ${n.state.name} stays but the simulation did not schedule against it`);
    const state = node.toStateNode();
    // The same node where nothing moved onto it: what the controller learnt of it stays valid.
    return state === n.state ? n : { ...n, state };
  });
  const launched = launches.map((request) => launch(ctx, request, `replacement-${++ctx.launched}`));
  return { nodes: [...after, ...launched], launched };
}

/**
 * What the command launches: a replace its one NodeClaim among the cheaper options only, on the capacity type it
 * was priced at; a delete, the NodeClaims its simulation opened for pods that come back (emptiness's only).
 */
export function launchesOf(command: Command): readonly LaunchRequest[] {
  const replacement = command.replacement;
  if (replacement === undefined) return command.results.newNodeClaims;
  const claim = replacement.claim;
  return [
    {
      template: claim.template,
      instanceTypeOptions: replacement.options,
      zones: claim.zones,
      capacityTypes: replacement.capacityTypes,
      hostname: claim.hostname,
      pods: claim.pods,
    },
  ];
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
    const step = nextCommand(ctx, nodes, all.filter(isCandidate), input.at);
    if (step.command === undefined) {
      return { nodes, pending: ctx.pending, actions, blockers: explain(ctx, nodes, all, step.refused, input.at), unsettled: false };
    }
    const after = carryOut(ctx, nodes, new Set(step.command.candidates.map((c) => c.node)), step.command.results, launchesOf(step.command));
    if (step.command.stillPending !== undefined) ctx.pending = step.command.stillPending;
    actions.push(actionOf(step.method, step.command, after.launched));
    nodes = after.nodes;
  }
  return { nodes, pending: ctx.pending, actions, blockers: [], unsettled: true };
}

/** The first command of the methods in order, or, when none has one, why each refused the candidates it tried. */
export function nextCommand(ctx: DisruptionContext, nodes: readonly ClusterNode[], candidates: readonly Candidate[], at: Date) {
  const totals = poolTotals(nodes, candidates);
  const refused = new Map<Candidate, Blocker>();
  for (const method of METHODS) {
    const considered = candidates.filter((c) => method.shouldDisrupt(ctx, c) === undefined);
    const outcome = method.computeCommand({ ctx, nodes, candidates: considered, budgets: budgetMapping(nodes, method.reason, at), totals });
    if (outcome.command !== undefined) return { method, command: outcome.command, refused };
    for (const [candidate, blocker] of outcome.refused) refused.set(candidate, blocker);
  }
  return { method: undefined, command: undefined, refused };
}

function actionOf(method: DisruptionMethod, command: Command, launched: readonly ClusterNode[]): ConsolidationAction {
  const gone = command.candidates.map((c) => c.node);
  return {
    method: method.name,
    // Upstream's Command.Decision: a replace when the command launches a replacement.
    kind: command.replacement === undefined ? "delete" : "replace",
    nodes: gone,
    replacement: launched[0],
    savingHourlyUsd: sum(gone) - sum(launched),
  };
}

/**
 * Why each node of a settled cluster stays: the first reason Karpenter would give for it. `tried`: why the last
 * pass's methods refused each candidate they tried (single-node consolidation's reasons).
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
    const left = SINGLE_NODE_CONSOLIDATION.shouldDisrupt(ctx, candidate);
    if (left !== undefined) return { node, blocker: left };
    return { node, blocker: tried.get(candidate) ?? { event: "Unconsolidatable" as const, message: "Not consolidated" } };
  });
}
