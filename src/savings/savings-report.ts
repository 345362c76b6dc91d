import type { InstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import type { ClusterNode } from "../planner/consolidation/cluster-node";
import type { ConsolidationResult } from "../planner/consolidation/disruption-controller";
import { HOURS_PER_MONTH, roundUsd } from "../planner/plan/plan-types";
import type { ClusterState } from "../planner/state/cluster-state";
import { regionOf } from "../planner/state/settle-state";
import { LABEL } from "../shared/vocabulary/well-known-labels";
import { baseCost } from "./base-cost";
import { allocateCost } from "./cost-allocation";
import { fargatePodCost } from "./fargate-cost";
import type { FreshStartJson, MoveJson, MovesJson } from "./moves/moves";
import { holdingSentence, type PendingJson, type PendingOutlook } from "./pending-pods";
import type { RightsizingJson } from "./usage/rightsizing";

// `npm run savings`: what a running cluster costs now, where Karpenter's consolidation settles it, each action on
// the way with its saving, and why every node that stays stays, in Karpenter's own words. This is the JSON
// (--format json); the table and Markdown render it.

/** Which disruption rules the simulation follows, and what it leaves out: said in every report. */
export const MODEL =
  "Karpenter 1.14.1's consolidation (emptiness, then multi-node, then single-node, until nothing moves), whatever Karpenter 1.x the cluster runs; drift, expiration, interruption and timing (consolidateAfter windows, pods arriving) are not simulated";

export interface NodeJson {
  readonly name: string;
  readonly instanceType: string;
  readonly capacityType: string;
  readonly zone: string | null;
  /** null for a node no NodePool owns. */
  readonly nodePool: string | null;
  /** null when not known: a type the catalogue lacks, or reserved capacity. */
  readonly hourlyUsd: number | null;
}

export interface SavingsJson {
  readonly source: string;
  readonly model: string;
  /** When budgets' schedules were evaluated (RFC 3339). */
  readonly at: string;
  readonly region: string;
  readonly prices: { readonly region: string; readonly asOf: string; readonly spot: "live" | "on-demand rate, an upper bound" };
  readonly now: {
    /** Everything priced: the EC2 nodes and the Fargate pods. */
    readonly hourlyUsd: number;
    readonly monthlyUsd: number;
    /** EC2 nodes, Karpenter's and others'; Fargate pods are not nodes here. */
    readonly nodeCount: number;
    readonly nodes: readonly NodeJson[];
    readonly fargateHourlyUsd: number;
    /** What no pod requests; with byNamespace it adds up to hourlyUsd. */
    readonly idleHourlyUsd: number;
    readonly byNamespace: readonly { readonly namespace: string; readonly hourlyUsd: number }[];
    /** The workloads ("Deployment/web") by cost, largest first (a Deployment from its ReplicaSets' pods). */
    readonly byWorkload: readonly { readonly namespace: string; readonly workload: string; readonly hourlyUsd: number }[];
    readonly unpriced: readonly { readonly node: string; readonly instanceType: string; readonly reason: string }[];
  };
  readonly converged: {
    readonly hourlyUsd: number;
    readonly monthlyUsd: number;
    readonly nodeCount: number;
    readonly nodes: readonly NodeJson[];
    readonly actions: readonly {
      readonly method: string;
      readonly kind: "delete" | "replace";
      readonly nodes: readonly string[];
      readonly replacement: NodeJson | null;
      readonly savingHourlyUsd: number;
    }[];
    /** `event`: Karpenter's event for it; null for a node Karpenter does not manage (it publishes none). */
    readonly blockers: readonly { readonly node: string; readonly event: string | null; readonly reason: string }[];
    /** True when the simulation stopped with commands still coming. */
    readonly unsettled: boolean;
  };
  readonly savingHourlyUsd: number;
  readonly savingMonthlyUsd: number;
  /** What the cluster costs whatever runs on it, never inside hourlyUsd. */
  readonly base: {
    readonly hourlyUsd: number;
    readonly items: readonly { readonly what: string; readonly hourlyUsd: number }[];
    readonly notes: readonly string[];
  };
  readonly fargate: { readonly podCount: number; readonly hourlyUsd: number; readonly note: string };
  /** The pods on Karpenter's nodes re-planned from scratch on the NodePools as they are, settled: what the moves are measured against. */
  readonly freshStart: FreshStartJson;
  /** What Graviton and spot would cost on these pods, each against the fresh start, and against now. */
  readonly moves: readonly (MoveJson & { readonly savingVsNowHourlyUsd: number; readonly savingVsNowMonthlyUsd: number })[];
  /** The pods bound to no node, as Karpenter's provisioner would take them next. */
  readonly pending: readonly PendingJson[];
  /** Requests against usage, with --prometheus only. */
  readonly rightsizing?: RightsizingJson;
  readonly unread: readonly { readonly kind: string; readonly reason: string }[];
  readonly warnings: readonly string[];
}

function nodeJson(node: ClusterNode): NodeJson {
  return {
    name: node.state.name,
    instanceType: node.instanceType,
    capacityType: node.capacityType,
    zone: node.zone ?? null,
    nodePool: node.state.labels[LABEL.nodePool] ?? null,
    hourlyUsd: node.hourlyUsd === undefined ? null : roundUsd(node.hourlyUsd),
  };
}

const total = (nodes: readonly ClusterNode[]) => nodes.reduce((sum, n) => sum + (n.hourlyUsd ?? 0), 0);

function unpricedReason(node: ClusterNode, catalogue: InstanceCatalogue): string {
  if (node.capacityType === "reserved") return "reserved capacity: paid for by its reservation, used or not";
  if (catalogue.type(node.instanceType) === undefined) return "an instance type the catalogue does not list (refresh it: npm run catalogue -- --live)";
  return "no price for it in the catalogue";
}

export interface ReportInputs {
  readonly state: ClusterState;
  readonly result: ConsolidationResult;
  readonly catalogue: InstanceCatalogue;
  readonly at: Date;
  readonly moves: MovesJson;
  readonly pending: PendingOutlook;
  /** The pending pods Karpenter could place hold consolidation still: it moves nothing with them, and would without them. */
  readonly heldByPending: boolean;
  /** Each workload container's requests against its usage (--prometheus). */
  readonly rightsizing?: RightsizingJson;
}

/** What the Fargate pods cost an hour: the same in every figure, consolidation and the moves leave them. */
export const fargateHourlyUsd = (state: ClusterState) => state.fargatePods.reduce((sum, p) => sum + (fargatePodCost(p).hourlyUsd ?? 0), 0);

export function savingsReport({ state, result, catalogue, at, moves, pending, heldByPending, rightsizing }: ReportInputs): SavingsJson {
  const fargatePods = state.fargatePods.map((p) => fargatePodCost(p));
  const fargate = fargatePods.reduce((sum, p) => sum + (p.hourlyUsd ?? 0), 0);
  const now = total(state.nodes) + fargate;
  const converged = total(result.nodes) + fargate;
  const allocation = allocateCost(state.nodes, fargatePods);
  const base = baseCost(state, at);
  const region = regionOf(state, catalogue);
  const warnings = [...state.warnings, ...moves.notes, ...(rightsizing?.warnings ?? [])];
  if (region !== catalogue.region) {
    warnings.push(`the cluster runs in ${region}, and the catalogue's prices are ${catalogue.region}'s: pass --live for ${region}'s`);
  }
  if (moves.freshStart.podCount > 0 && moves.freshStart.hourlyUsd > now + 1e-9) {
    warnings.push(
      `a fresh start on the NodePools as they are costs more than the cluster does now ($${moves.freshStart.hourlyUsd.toFixed(4)}/hour against $${now.toFixed(4)}/hour): they would launch dearer nodes than those running (their requirements leave out types that run now), so a move's saving against the fresh start is not a saving on the bill: read each move against now`,
    );
  }
  if (heldByPending) warnings.push(holdingSentence(pending));
  if (result.unsettled) warnings.push("the simulation stopped before the cluster settled (a cap on commands was reached): the converged figures are not final");
  return {
    source: state.source,
    model: MODEL,
    at: at.toISOString(),
    region,
    prices: { region: catalogue.region, asOf: catalogue.asOf, spot: catalogue.spot === undefined ? "on-demand rate, an upper bound" : "live" },
    now: {
      hourlyUsd: roundUsd(now),
      monthlyUsd: roundUsd(now * HOURS_PER_MONTH, 2),
      nodeCount: state.nodes.length,
      nodes: state.nodes.map(nodeJson),
      fargateHourlyUsd: roundUsd(fargate),
      idleHourlyUsd: roundUsd(allocation.idleHourlyUsd),
      byNamespace: allocation.byNamespace.map((n) => ({ namespace: n.namespace, hourlyUsd: roundUsd(n.hourlyUsd) })),
      byWorkload: allocation.byWorkload.map((w) => ({ ...w, hourlyUsd: roundUsd(w.hourlyUsd) })),
      unpriced: state.nodes
        .filter((n) => n.hourlyUsd === undefined)
        .map((n) => ({ node: n.state.name, instanceType: n.instanceType, reason: unpricedReason(n, catalogue) })),
    },
    converged: {
      hourlyUsd: roundUsd(converged),
      monthlyUsd: roundUsd(converged * HOURS_PER_MONTH, 2),
      nodeCount: result.nodes.length,
      nodes: result.nodes.map(nodeJson),
      actions: result.actions.map((a) => ({
        method: a.method,
        kind: a.kind,
        nodes: a.nodes.map((n) => n.state.name),
        replacement: a.replacement === undefined ? null : nodeJson(a.replacement),
        savingHourlyUsd: roundUsd(a.savingHourlyUsd),
      })),
      blockers: result.blockers.map((b) => ({ node: b.node.state.name, event: b.blocker.event ?? null, reason: b.blocker.message })),
      unsettled: result.unsettled,
    },
    savingHourlyUsd: roundUsd(now - converged),
    savingMonthlyUsd: roundUsd((now - converged) * HOURS_PER_MONTH, 2),
    base: { hourlyUsd: roundUsd(base.hourlyUsd), items: base.items.map((i) => ({ what: i.what, hourlyUsd: roundUsd(i.hourlyUsd) })), notes: base.notes },
    fargate: {
      podCount: fargatePods.length,
      hourlyUsd: roundUsd(fargate),
      note: "Fargate pods are priced at the size EKS provisioned (CapacityProvisioned), else their requests rounded up; consolidation leaves them as they run",
    },
    freshStart: moves.freshStart,
    moves: moves.moves.map((m) => ({
      ...m,
      savingVsNowHourlyUsd: roundUsd(now - m.hourlyUsd),
      savingVsNowMonthlyUsd: roundUsd((now - m.hourlyUsd) * HOURS_PER_MONTH, 2),
    })),
    pending: pending.pods,
    ...(rightsizing === undefined ? {} : { rightsizing }),
    unread: state.unread.map((u) => ({ kind: u.kind, reason: u.reason })),
    warnings,
  };
}
