import { roundUsd } from "../plan/plan-types";
import type { Replay, ReplayRun, WhatIf } from "./make-replay";
import { NODE_READY_SOURCE } from "./replay-timing";

// The replay as JSON (the interface scripts read): one run's figures at the top level, or, with several what-if
// values, `runs`, each the same figures with the value it ran with.

export interface ReplayRunJson {
  readonly consolidateAfter?: string;
  readonly policy?: string;
  readonly period: { readonly from: string | number; readonly to: string | number; readonly seconds: number };
  readonly settled: boolean;
  readonly costUsd: number;
  readonly costBreakdown: { readonly ec2Usd: number; readonly fargateUsd: number };
  readonly static: {
    readonly peakLaunchHourlyUsd: number;
    readonly settledHourlyUsd: number;
    readonly peakLaunchUsd: number;
    readonly settledUsd: number;
  };
  readonly nodes: {
    readonly max: number;
    readonly final: number;
    readonly finalHourlyUsd: number;
    readonly launched: number;
    /** The nodes at the peak, with their pods (bound, or nominated to a node still starting). */
    readonly atPeak: readonly { readonly instanceType: string; readonly capacityType: string; readonly pods: number; readonly hourlyUsd: number }[];
    readonly timeline: readonly { readonly t: number; readonly nodes: number; readonly pending: number; readonly hourlyUsd: number }[];
  };
  readonly pods: {
    readonly started: number;
    readonly waitSeconds: { readonly p50: number; readonly p95: number; readonly max: number };
    readonly stillPending: number;
    readonly unschedulable: readonly { readonly id: string; readonly reason: string }[];
  };
  readonly disruptions: {
    readonly deleted: number;
    readonly replaced: number;
    readonly podsEvicted: number;
    readonly abandoned: number;
    readonly commands: readonly {
      readonly t: number;
      readonly method: string;
      readonly kind: string;
      readonly nodes: readonly string[];
      readonly replacements: readonly string[];
    }[];
  };
}

export interface ReplayJson extends Partial<ReplayRunJson> {
  readonly cluster: { readonly name: string; readonly region: string; readonly config: string };
  readonly curve: string;
  readonly prices: string;
  readonly runs?: readonly ReplayRunJson[];
  readonly assumptions: readonly string[];
  readonly warnings: readonly string[];
}

const seconds = (value: number) => Math.round(value * 1000) / 1000;

/** A what-if's name as the output shows it: "consolidateAfter 5m", "as configured". */
export function whatIfLabel(whatIf: WhatIf): string {
  const parts = [
    ...(whatIf.consolidateAfter === undefined ? [] : [`consolidateAfter ${whatIf.consolidateAfter}`]),
    ...(whatIf.policy === undefined ? [] : [whatIf.policy]),
  ];
  return parts.length === 0 ? "as configured" : parts.join(", ");
}

function runJson(replay: Replay, run: ReplayRun): ReplayRunJson {
  const r = run.result;
  const hours = r.seconds / 3600;
  const at = (t: number) => (replay.startFromCurve ? new Date(replay.start.getTime() + t * 1000).toISOString() : t);
  const peak = r.timeline.reduce((max, p) => Math.max(max, p.nodes), 0);
  const finalHourly = r.final.reduce((s, n) => s + (n.hourlyUsd ?? 0), 0);
  return {
    ...(run.whatIf.consolidateAfter === undefined ? {} : { consolidateAfter: run.whatIf.consolidateAfter }),
    ...(run.whatIf.policy === undefined ? {} : { policy: run.whatIf.policy }),
    period: { from: at(0), to: at(r.seconds), seconds: seconds(r.seconds) },
    settled: r.settled,
    costUsd: roundUsd(r.ec2Usd + r.fargateUsd),
    costBreakdown: { ec2Usd: roundUsd(r.ec2Usd), fargateUsd: roundUsd(r.fargateUsd) },
    static: {
      peakLaunchHourlyUsd: roundUsd(run.peakLaunchHourlyUsd),
      settledHourlyUsd: roundUsd(run.settledHourlyUsd),
      peakLaunchUsd: roundUsd(run.peakLaunchHourlyUsd * hours),
      settledUsd: roundUsd(run.settledHourlyUsd * hours),
    },
    nodes: {
      max: peak,
      final: r.final.length,
      finalHourlyUsd: roundUsd(finalHourly),
      launched: r.launched,
      atPeak: r.atPeak.map((n) => ({ instanceType: n.instanceType, capacityType: n.capacityType, pods: n.pods, hourlyUsd: roundUsd(n.hourlyUsd ?? 0) })),
      timeline: r.timeline.map((p) => ({ t: seconds(p.t), nodes: p.nodes, pending: p.pending, hourlyUsd: roundUsd(p.hourlyUsd) })),
    },
    pods: {
      started: r.waits.pods,
      waitSeconds: { p50: seconds(r.waits.p50), p95: seconds(r.waits.p95), max: seconds(r.waits.max) },
      stillPending: r.stillPending,
      unschedulable: r.unschedulable,
    },
    disruptions: {
      deleted: r.disruptions.deleted,
      replaced: r.disruptions.replaced,
      podsEvicted: r.disruptions.podsEvicted,
      abandoned: r.abandoned,
      commands: r.disruptions.commands.map((c) => ({ ...c, t: seconds(c.t) })),
    },
  };
}

/** What the figures rest on, in the order a reader questions them. */
export function replayAssumptions(replay: Replay): string[] {
  const { timing } = replay;
  return [
    `a NodeClaim is a ready node ${timing.nodeReadySeconds} s after it is created (--node-ready): ${NODE_READY_SOURCE}`,
    `the provisioner's batch closes ${timing.batchIdleSeconds} s after the last new pending pod, or ${timing.batchMaxSeconds} s after the first (BATCH_IDLE_DURATION, BATCH_MAX_DURATION: the config's karpenter.batchIdleDuration and batchMaxDuration where set, Karpenter's 1s and 10s otherwise)`,
    "the disruption controller passes every 10 s, validates a command 15 s after computing it, and launches replacements before it deletes the nodes they replace (Karpenter 1.14.1)",
    "pods run the moment they bind: image pull and probes are the workload's time, not Karpenter's; the kube-scheduler's choice among ready nodes is taken as the planner's scheduler's",
    "a deleted node's instance is terminated 5 s later; its pods' controllers create them again at once",
    "EC2 is billed per second from NodeClaim creation to termination, 60 s at least; Fargate per pod for its lifetime, 60 s at least; the control plane, NAT and system pods are not in the figures",
    replay.startFromCurve
      ? "budgets' schedules are read at the curve's own times (UTC)"
      : `the curve's times are seconds from ${replay.start.toISOString()}, the instant budgets' schedules are read against (--start)`,
    "drift, expiration, spot interruption and node repair are not modelled",
    ...(replay.spotKnown ? [] : ["no spot prices offline: spot nodes are priced at the on-demand rate, an upper bound (--live reads spot prices)"]),
  ];
}

export function replayJson(replay: Replay): ReplayJson {
  const head = {
    cluster: { name: replay.cluster.name, region: replay.cluster.region, config: replay.cluster.configSource },
    curve: replay.curveSource,
    prices: replay.priceSource,
  };
  const tail = { assumptions: replayAssumptions(replay), warnings: replay.warnings };
  if (replay.runs.length === 1) return { ...head, ...runJson(replay, replay.runs[0]), ...tail };
  return { ...head, runs: replay.runs.map((run) => runJson(replay, run)), ...tail };
}
