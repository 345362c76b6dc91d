import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { Requirement } from "../../instance-catalogue/requirements";
import type { ClusterNode } from "../../planner/consolidation/cluster-node";
import type { ConsolidationResult } from "../../planner/consolidation/disruption-controller";
import { launchedRunning } from "../../planner/consolidation/running-node";
import { settleNodes } from "../../planner/consolidation/settle-nodes";
import type { PoolModel } from "../../planner/model";
import { provision } from "../../planner/simulation/provisioner";
import { simulationContext } from "../../planner/simulation/simulation-context";
import type { StateNode } from "../../planner/simulation/state-node";
import type { ClusterState } from "../../planner/state/cluster-state";
import type { PodGroup } from "../../planner/workload/workload-model";

// One what-if for a running cluster: the pods of the nodes that move, planned from scratch by Karpenter's
// provisioner on the NodePools as rewritten (beside the nodes that stay, which keep their pods and take new ones
// where they have room), then settled by the disruption controller. What Karpenter would reach after a rollout
// that replaced every moving node; the cost of getting there (the rollout itself) is not in it.

export interface Replan {
  readonly pools: readonly PoolModel[];
  readonly rewrite: (pool: PoolModel) => readonly Requirement[];
  /** The pod groups to plan, each with the replicas to plan. */
  readonly groups: readonly PodGroup[];
  /** The nodes that stay as they run. */
  readonly staying: readonly ClusterNode[];
}

export interface ReplanOutcome {
  readonly settled: ConsolidationResult;
  /** The architectures of the instance types the rewritten NodePools offer: a move to arm64 needs arm64 among them. */
  readonly architectures: ReadonlySet<string>;
  /** Pods no node was found for, by group. */
  readonly unschedulable: readonly { readonly id: string; readonly count: number; readonly reason: string }[];
}

export interface ReplanContext {
  readonly state: ClusterState;
  readonly catalogue: InstanceCatalogue;
  readonly region: string;
  readonly at: Date;
  readonly spotToSpot: boolean;
}

/** The node as the provisioning run left it. */
function after(existingAfter: ReadonlyMap<StateNode, StateNode>, node: StateNode): StateNode {
  const found = existingAfter.get(node);
  if (found === undefined) throw new Error(`bug: node ${node.name} was given to the provisioner but is not in its result`);
  return found;
}

export function replan(what: Replan, context: ReplanContext): ReplanOutcome {
  const { state, catalogue, region } = context;
  const simulation = simulationContext({ pools: what.pools, rewrite: what.rewrite, daemonSets: state.daemonSets, catalogue, region, zones: state.zones });
  const result = provision(simulation, { groups: what.groups, existingNodes: what.staying.map((n) => n.state) });
  const staying = what.staying.map((n) => ({ ...n, state: after(result.existingAfter, n.state) }));
  const nodes = [...staying, ...launchedRunning(result, simulation.disruption)];
  const settled = settleNodes(simulation, { nodes, pdbs: state.pdbs, at: context.at, spotToSpot: context.spotToSpot });
  const architectures = new Set(simulation.pools.flatMap((p) => p.options.map((c) => c.type.arch)));
  return { settled, architectures, unschedulable: result.unschedulable };
}
