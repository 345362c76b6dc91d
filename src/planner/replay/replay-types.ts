import type { ClusterNode } from "../consolidation/cluster-node";
import type { MethodName } from "../consolidation/disruption-method";
import type { PendingPods } from "../consolidation/simulate-scheduling";
import type { SimulationContext } from "../simulation/simulation-context";
import type { PodDisruptionBudgetSpec, PodGroup } from "../workload/workload-model";
import type { WaitSummary } from "./pod-waits";
import type { ReplayTiming } from "./replay-timing";

// What a replay takes (the cluster's simulation context, its workloads at the start, the curve's changes, the
// clocks) and what it gives (the period's cost, the timeline, the pods' waits, the disruption commands).

/** A workload's replicas from `t` on. */
export interface CurveChange {
  readonly t: number;
  readonly group: PodGroup;
  readonly replicas: number;
}

/** A workload Fargate runs: billed per pod for its lifetime. */
export interface FargateWorkload {
  readonly group: PodGroup;
  /** USD per pod per hour, at the Fargate size its requests round up to. */
  readonly podHourlyUsd: number;
}

export interface ReplayInput {
  readonly simulation: SimulationContext;
  /** Karpenter's workloads, the very objects the initial nodes' pods are of. */
  readonly groups: readonly PodGroup[];
  readonly fargate: readonly FargateWorkload[];
  readonly pdbs: readonly PodDisruptionBudgetSpec[];
  /** The nodes running at the start, with their pods: the cluster settled at the first replicas. */
  readonly initialNodes: readonly ClusterNode[];
  /** Pods of the start that found no node. */
  readonly initialPending: readonly PendingPods[];
  /** The replicas at the start, every workload's (Fargate's too). */
  readonly initialReplicas: ReadonlyMap<PodGroup, number>;
  /** In time order. */
  readonly changes: readonly CurveChange[];
  /** The wall-clock time of t = 0: budgets' schedules are read at start + t. */
  readonly start: Date;
  readonly timing: ReplayTiming;
}

export interface TimelinePoint {
  readonly t: number;
  /** EC2 nodes that exist (launching and terminating ones included). */
  readonly nodes: number;
  /** Pods created and not running: pending, or nominated to a node still starting. */
  readonly pending: number;
  /** What runs now costs an hour: the EC2 nodes, and Fargate's pods. */
  readonly hourlyUsd: number;
}

export interface PeakNode {
  readonly name: string;
  readonly instanceType: string;
  readonly capacityType: string;
  readonly pods: number;
  readonly hourlyUsd: number | undefined;
}

export interface DisruptionRecord {
  readonly t: number;
  readonly method: MethodName;
  readonly kind: "delete" | "replace";
  readonly nodes: readonly string[];
  readonly replacements: readonly string[];
}

export interface ReplayResult {
  /** From t = 0 to the end: the curve's last change, and then until the cluster is quiet. */
  readonly seconds: number;
  /** False when the cluster was still changing a day after the curve's last change, where the replay stopped. */
  readonly settled: boolean;
  readonly ec2Usd: number;
  readonly fargateUsd: number;
  readonly timeline: readonly TimelinePoint[];
  readonly waits: WaitSummary;
  /** Pods still not running at the end. */
  readonly stillPending: number;
  readonly disruptions: { readonly deleted: number; readonly replaced: number; readonly podsEvicted: number; readonly commands: readonly DisruptionRecord[] };
  /** Commands the 15 s validation abandoned (the cluster changed meanwhile). */
  readonly abandoned: number;
  readonly launched: number;
  /** The nodes when there were most (the first time), each with the pods bound or nominated to it. */
  readonly atPeak: readonly PeakNode[];
  readonly final: readonly ClusterNode[];
  /** Why pods found no node, by workload, as the last provisioning said. */
  readonly unschedulable: readonly { readonly id: string; readonly reason: string }[];
}

/**
 * The same run billed on to a later end: a run ends once its cluster is quiet, so nothing changes after it and
 * what runs at its end runs on. What-ifs compare dollars over one period, the longest of theirs.
 */
export function extendedTo(result: ReplayResult, end: number): ReplayResult {
  const more = end - result.seconds;
  if (more <= 0 || !result.settled) return result;
  const ec2Hourly = result.final.reduce((sum, n) => sum + (n.hourlyUsd ?? 0), 0);
  const last = result.timeline[result.timeline.length - 1];
  const fargateHourly = last === undefined ? 0 : Math.max(0, last.hourlyUsd - ec2Hourly);
  return {
    ...result,
    seconds: end,
    ec2Usd: result.ec2Usd + (ec2Hourly * more) / 3600,
    fargateUsd: result.fargateUsd + (fargateHourly * more) / 3600,
  };
}
