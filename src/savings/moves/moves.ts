import { DEFAULT_CLUSTER } from "../../config/default-cluster";
import type { Requirement } from "../../instance-catalogue/requirements";
import { clusterModelFromDocument } from "../../planner/cluster-model";
import type { ClusterNode } from "../../planner/consolidation/cluster-node";
import type { PoolModel } from "../../planner/model";
import { HOURS_PER_MONTH, roundUsd } from "../../planner/plan/plan-types";
import { setIn } from "../../planner/plan/scenarios";
import type { ClusterState } from "../../planner/state/cluster-state";
import type { PodGroup } from "../../planner/workload/workload-model";
import { workloadName } from "../../planner/workload/workload-name";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import { type HeldBack, keptOnDemand, moveRules, type Unverified } from "./held-back";
import { type ReplanContext, replan } from "./replan";

// The talk's two moves, priced on the cluster's own pods: Graviton (arm64 allowed beside amd64 in every NodePool)
// and spot (spot allowed beside on-demand), and both. Each is a re-plan of the pods on Karpenter's nodes from
// scratch, settled; so is the fresh start they are measured against (the NodePools as they are), so a move's saving
// is the move's alone, not the repacking any fresh start gets. A cluster with no NodePool is re-planned on
// autonomous-eks's default NodePool, limited to amd64 on-demand for the fresh start: the nodes no NodePool owns move.

export type MoveName = "arm64" | "spot" | "arm64+spot" | "rightsize" | "rightsize+arm64+spot";

/** What a settled what-if costs, on how many nodes. */
interface Figures {
  readonly hourlyUsd: number;
  readonly monthlyUsd: number;
  readonly nodeCount: number;
}

export interface MoveJson extends Figures {
  readonly name: MoveName;
  /**
   * False when the figures hold a price the report does not know: offline, spot is priced at the on-demand rate
   * (an upper bound), so a spot move shows its packing saving only; --live prices it.
   */
  readonly priced: boolean;
  /** Against the fresh start: what the move alone saves. */
  readonly savingHourlyUsd: number;
  readonly savingMonthlyUsd: number;
  /** Workloads the move leaves where they are, and why. */
  readonly heldBack: readonly HeldBack[];
  /** Workloads moved to arm64 in the figures whose images were never seen on an arm64 node. */
  readonly unverified: readonly Unverified[];
  /** Why the move cannot move anything (the NodePools admit no arm64 type), when that is so. */
  readonly cannotMove?: string;
  readonly unschedulable: readonly { readonly workload: string; readonly count: number; readonly reason: string }[];
}

/** The pods that move, re-planned from scratch on the NodePools as they are, settled: what the moves are measured against. */
export type FreshStartJson = Figures & { readonly pools: string; readonly podCount: number };

export interface MovesJson {
  readonly freshStart: FreshStartJson;
  readonly moves: readonly MoveJson[];
  /** What the reader of the moves must know; the report puts them among its warnings. */
  readonly notes: readonly string[];
}

interface Variant {
  readonly name: MoveName;
  readonly arm64: boolean;
  readonly spot: boolean;
  /** The pods with the requests their usage recommends (--prometheus). */
  readonly rightsized: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: "arm64", arm64: true, spot: false, rightsized: false },
  { name: "spot", arm64: false, spot: true, rightsized: false },
  { name: "arm64+spot", arm64: true, spot: true, rightsized: false },
  { name: "rightsize", arm64: false, spot: false, rightsized: true },
  { name: "rightsize+arm64+spot", arm64: true, spot: true, rightsized: true },
];

/** Why allowing arm64 moves nothing on NodePools whose other requirements pin x86 types. */
const NO_ARM64_TYPE =
  "the NodePools' requirements admit no arm64 instance type even with arm64 allowed (their instance types, families or categories are x86 ones): nothing can move to Graviton until they list arm64 types";

/** autonomous-eks's default NodePools, as synth renders them for the embedded default cluster. */
const projectDefaultPools = (): readonly PoolModel[] => clusterModelFromDocument(DEFAULT_CLUSTER, "embedded default cluster").pools;

const total = (nodes: readonly ClusterNode[]) => nodes.reduce((sum, n) => sum + (n.hourlyUsd ?? 0), 0);

/** Which rule held each workload back, once per workload. */
function heldBackOf(rules: ReadonlyMap<PodGroup, string>, groups: readonly PodGroup[]): HeldBack[] {
  const byWorkload = new Map<string, string>();
  for (const g of groups) {
    const reason = rules.get(g);
    if (reason !== undefined && !byWorkload.has(workloadName(g))) byWorkload.set(workloadName(g), reason);
  }
  return [...byWorkload.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([workload, reason]) => ({ workload, reason }));
}

function unverifiedOf(rules: ReadonlyMap<PodGroup, readonly string[]>, groups: readonly PodGroup[]): Unverified[] {
  const byWorkload = new Map<string, Set<string>>();
  for (const g of groups) {
    const images = rules.get(g);
    if (images !== undefined) byWorkload.set(workloadName(g), new Set([...(byWorkload.get(workloadName(g)) ?? []), ...images]));
  }
  return [...byWorkload.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([workload, images]) => ({ workload, images: [...images].sort() }));
}

/** The pods of a state that move (those on Karpenter's nodes, or on every node without NodePools), as groups to plan. */
function movingOf(state: ClusterState, catalogue: ReplanContext["catalogue"]) {
  const ownPools = state.pools.length > 0;
  const moving = ownPools ? state.nodes.filter((n) => n.state.labels[LABEL.nodePool] !== undefined) : state.nodes;
  const staying = ownPools ? state.nodes.filter((n) => n.state.labels[LABEL.nodePool] === undefined) : [];
  const counts = new Map<PodGroup, number>();
  for (const node of moving) for (const { group, count } of node.state.pods) counts.set(group, (counts.get(group) ?? 0) + count);
  const groups = [...counts.entries()].map(([group, count]) => ({ ...group, replicas: count }));
  const originals = [...counts.keys()];
  return { staying, groups, originals, rules: moveRules(originals, state, catalogue), copyOf: new Map(originals.map((g, i) => [groups[i], g])) };
}

/**
 * The moves, each against the fresh start; with `rightsized` (the state with the requests usage recommends), the
 * rightsize moves too.
 */
export function priceMoves(context: ReplanContext, fargateHourlyUsd: number, rightsized?: ClusterState): MovesJson {
  const { state, catalogue } = context;
  const ownPools = state.pools.length > 0;
  const asIs = movingOf(state, catalogue);
  const { staying, groups } = asIs;
  const pools = ownPools ? state.pools : projectDefaultPools();
  const base = (pool: PoolModel): readonly Requirement[] =>
    ownPools ? pool.requirements : setIn(setIn(pool.requirements, LABEL.arch, ["amd64"]), LABEL.capacityType, ["on-demand"]);
  const cost = (nodes: readonly ClusterNode[]) => total(nodes) + fargateHourlyUsd;

  const freshStart = replan({ pools, rewrite: base, groups, staying }, context);
  const freshStartUsd = cost(freshStart.settled.nodes);
  const spotKnown = catalogue.spot !== undefined;
  const notes: string[] = [
    ownPools
      ? "the pods on Karpenter's nodes are re-planned from scratch and settled, for the fresh start and for each move; nodes no NodePool owns stay as they run"
      : "the cluster has no NodePool: its nodes' pods are re-planned on autonomous-eks's default NodePool (amd64 on-demand for the fresh start)",
  ];
  if (!spotKnown)
    notes.push(
      "spot and arm64+spot are priced at the on-demand rate offline (priced: false), so they show what repacking alone saves and which workloads stay on-demand; --live prices spot",
    );
  if (rightsized !== undefined)
    notes.push(
      "rightsize re-plans the same pods with the requests their usage recommends (rightsizing), and rightsize+arm64+spot adds both moves; Fargate pods keep their size",
    );
  const variants = VARIANTS.filter((v) => !v.rightsized || rightsized !== undefined);
  const moves = variants.map((variant): MoveJson => {
    const rewrite = (pool: PoolModel) => {
      let requirements = base(pool);
      if (variant.arm64) requirements = setIn(requirements, LABEL.arch, ["amd64", "arm64"]);
      if (variant.spot) requirements = setIn(requirements, LABEL.capacityType, ["spot", "on-demand"]);
      return requirements;
    };
    const from = variant.rightsized && rightsized !== undefined ? rightsized : state;
    const { rules, copyOf, originals, groups: moved } = from === state ? asIs : movingOf(from, catalogue);
    const planned = variant.spot ? moved.map((g) => (rules.stayOnDemand.has(copyOf.get(g) as PodGroup) ? keptOnDemand(g) : g)) : moved;
    const outcome = replan({ pools, rewrite, groups: planned, staying }, { ...context, state: from });
    const usd = cost(outcome.settled.nodes);
    const noArm64 = variant.arm64 && !outcome.architectures.has("arm64");
    return {
      name: variant.name,
      priced: spotKnown || !variant.spot,
      hourlyUsd: roundUsd(usd),
      monthlyUsd: roundUsd(usd * HOURS_PER_MONTH, 2),
      nodeCount: outcome.settled.nodes.length,
      savingHourlyUsd: roundUsd(freshStartUsd - usd),
      savingMonthlyUsd: roundUsd((freshStartUsd - usd) * HOURS_PER_MONTH, 2),
      heldBack: [...(variant.arm64 ? heldBackOf(rules.stayAmd64, originals) : []), ...(variant.spot ? heldBackOf(rules.stayOnDemand, originals) : [])],
      unverified: variant.arm64 && !noArm64 ? unverifiedOf(rules.unverified, originals) : [],
      ...(noArm64 ? { cannotMove: NO_ARM64_TYPE } : {}),
      unschedulable: outcome.unschedulable.map((u) => ({ workload: u.id, count: u.count, reason: u.reason })),
    };
  });
  return {
    freshStart: {
      hourlyUsd: roundUsd(freshStartUsd),
      monthlyUsd: roundUsd(freshStartUsd * HOURS_PER_MONTH, 2),
      nodeCount: freshStart.settled.nodes.length,
      pools: ownPools ? "the cluster's NodePools as they are" : "autonomous-eks's default NodePool, amd64 on-demand",
      podCount: groups.reduce((sum, g) => sum + g.replicas, 0),
    },
    moves,
    notes,
  };
}
