import { type InstanceCatalogue, loadInstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { InputError } from "../../shared/input-error";
import type { PendingPods } from "../consolidation/simulate-scheduling";
import { loadInputs } from "../make-plan";
import type { ClusterModel, ConsolidationPolicy, PoolModel } from "../model";
import { defaultPoolDisruption } from "../node-pool-model";
import { convergedNodes } from "../plan/converge";
import { fargateSize } from "../plan/fargate";
import { podDestinations } from "../plan/pod-destinations";
import { clusterSimulation } from "../plan/simulate";
import { provision } from "../simulation/provisioner";
import type { PodGroup, Workload } from "../workload/workload-model";
import { workloadName } from "../workload/workload-name";
import { replay } from "./replay-simulation";
import type { ReplayTiming } from "./replay-timing";
import { extendedTo, type FargateWorkload, type ReplayResult } from "./replay-types";
import { type CurveRow, parseReplicaCurve, type ReplicaCurve } from "./replica-curve";

// A replay from paths and flags: the cluster and the workload as `npm run plan` reads them, the curve checked
// against the workload, then one replay per what-if (each NodePool's consolidateAfter or policy rewritten), each
// beside the static figures a plan would have claimed for the same period.

/** A what-if: every NodePool's consolidateAfter and policy rewritten; undefined keeps the config's. */
export interface WhatIf {
  /** "0s", "1m", "Never". */
  readonly consolidateAfter?: string;
  readonly consolidateAfterSeconds?: number;
  readonly policy?: ConsolidationPolicy;
}

export interface ReplayOptions {
  readonly workload: readonly string[];
  readonly config?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: () => Buffer;
  /** The curve: a CSV's text, or one read from Prometheus (of every workload it knows); and where it came from. */
  readonly curve: { readonly text: string; readonly source: string } | { readonly read: ReplicaCurve; readonly source: string };
  readonly timing: ReplayTiming;
  readonly whatIfs: readonly WhatIf[];
  /** The time t = 0 stands for where the curve gives seconds (budgets' schedules are read against it). */
  readonly start?: Date;
  readonly catalogue?: InstanceCatalogue;
}

/** One replay beside what a plan would have said of the same period. */
export interface ReplayRun {
  readonly whatIf: WhatIf;
  readonly result: ReplayResult;
  /** USD an hour of the launch plan for the replicas at the curve's peak, and of the end's replicas settled. */
  readonly peakLaunchHourlyUsd: number;
  readonly settledHourlyUsd: number;
}

export interface Replay {
  readonly cluster: { readonly name: string; readonly region: string; readonly configSource: string };
  readonly curveSource: string;
  readonly start: Date;
  /** Whether the curve gave wall-clock times (else seconds from a start). */
  readonly startFromCurve: boolean;
  readonly runs: readonly ReplayRun[];
  readonly timing: ReplayTiming;
  readonly priceSource: string;
  readonly spotKnown: boolean;
  readonly warnings: readonly string[];
}

/** Workloads Prometheus knows and the workload does not have: said once, in a warning. */
const notInWorkload = new WeakMap<ReplicaCurve, readonly string[]>();

/** A curve read from Prometheus, cut to the workload's own workloads; none of them in it is a mistake of the input. */
function known(curve: ReplicaCurve, names: ReadonlyMap<string, PodGroup>): ReplicaCurve {
  const rows = curve.rows.filter((r) => names.has(r.workload));
  if (rows.length === 0) {
    const seen = [...new Set(curve.rows.map((r) => r.workload))].sort();
    throw new InputError("--replicas-from", [
      `Prometheus has replicas of ${seen.slice(0, 5).join(", ")}${seen.length > 5 ? `, ... (${seen.length})` : ""}, none of them in the workload (${[...names.keys()].sort().slice(0, 5).join(", ")}${names.size > 5 ? ", ..." : ""}): give the manifests of the workloads the cluster runs`,
    ]);
  }
  const cut = { start: curve.start, rows };
  notInWorkload.set(cut, [...new Set(curve.rows.filter((r) => !names.has(r.workload)).map((r) => r.workload))].sort());
  return cut;
}

/** Seconds-from-the-start curves are read against this instant: a Thursday, midnight UTC. */
export const DEFAULT_START = new Date("1970-01-01T00:00:00Z");

/** The workloads a curve may name: those Karpenter's nodes run, and those Fargate runs. */
function replayable(workload: Workload, cluster: ClusterModel) {
  const destinations = podDestinations(workload.groups, cluster.fargateProfiles);
  return { nodes: destinations.steady.nodes, fargate: destinations.fargate, held: destinations.steady.held };
}

/** The pools with every NodePool's consolidation rewritten as the what-if says. */
function poolsFor(pools: readonly PoolModel[], whatIf: WhatIf): PoolModel[] {
  if (whatIf.consolidateAfter === undefined && whatIf.policy === undefined) return [...pools];
  return pools.map((pool) => {
    const disruption = pool.disruption ?? defaultPoolDisruption(pool.name);
    return {
      ...pool,
      disruption: {
        ...disruption,
        ...(whatIf.policy === undefined ? {} : { policy: whatIf.policy }),
        ...(whatIf.consolidateAfter === undefined
          ? {}
          : { consolidateAfterNever: whatIf.consolidateAfter === "Never", consolidateAfterSeconds: whatIf.consolidateAfterSeconds ?? 0 }),
      },
    };
  });
}

/** Each workload's replicas over the curve: at the start (its row at 0, else its manifest's), at the peak instant, at the end. */
function replicaPoints(rows: readonly CurveRow[], byName: ReadonlyMap<string, PodGroup>, all: readonly PodGroup[]) {
  const now = new Map(all.map((g) => [g, g.replicas]));
  for (const row of rows) if (row.t === 0) now.set(byName.get(row.workload) as PodGroup, row.replicas);
  const start = new Map(now);
  const total = (m: ReadonlyMap<PodGroup, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  let peak = new Map(now);
  let peakTotal = total(now);
  for (let i = 0; i < rows.length; i++) {
    now.set(byName.get(rows[i].workload) as PodGroup, rows[i].replicas);
    // The instant is whole once every row of its time is read.
    if (rows[i + 1]?.t === rows[i].t) continue;
    const sum = total(now);
    if (sum > peakTotal) {
      peak = new Map(now);
      peakTotal = sum;
    }
  }
  return { start, peak, end: now };
}

const withReplicas = (groups: readonly PodGroup[], replicas: ReadonlyMap<PodGroup, number>) => groups.map((g) => ({ ...g, replicas: replicas.get(g) ?? 0 }));

function fargateHourly(fargate: readonly FargateWorkload[], replicas: ReadonlyMap<PodGroup, number>): number {
  return fargate.reduce((sum, f) => sum + f.podHourlyUsd * (replicas.get(f.group) ?? 0), 0);
}

function runOne(
  whatIf: WhatIf,
  cluster: ClusterModel,
  workload: Workload,
  catalogue: InstanceCatalogue,
  inputs: {
    curve: ReplicaCurve;
    nodes: readonly PodGroup[];
    fargate: readonly FargateWorkload[];
    byName: ReadonlyMap<string, PodGroup>;
    start: Date;
    timing: ReplayTiming;
  },
): ReplayRun {
  const simulation = clusterSimulation({ ...cluster, pools: poolsFor(cluster.pools, whatIf) }, catalogue, workload.daemonSets);
  const all = [...inputs.nodes, ...inputs.fargate.map((f) => f.group)];
  const points = replicaPoints(inputs.curve.rows, inputs.byName, all);
  // One object per workload for the whole replay, its replicas those of the start.
  const groups = withReplicas(inputs.nodes, points.start);
  const replayGroup = new Map(inputs.nodes.map((g, i) => [g, groups[i]]));
  const pdbs = workload.pdbs;
  const launched = provision(simulation, { groups });
  const initial = convergedNodes({ simulation, result: launched, pdbs });
  const byId = new Map(groups.map((g) => [g.id, g]));
  const initialPending: PendingPods[] = launched.unschedulable.flatMap((u) => {
    const group = byId.get(u.id);
    return group === undefined ? [] : [{ group, count: u.count }];
  });
  const fargateGroups = new Set(inputs.fargate.map((f) => f.group));
  const result = replay({
    simulation,
    groups,
    fargate: inputs.fargate,
    pdbs,
    initialNodes: initial.nodes,
    initialPending,
    initialReplicas: new Map([...points.start].map(([g, n]) => [replayGroup.get(g) ?? g, n])),
    changes: inputs.curve.rows.map((row) => {
      const named = inputs.byName.get(row.workload) as PodGroup;
      return { t: row.t, group: fargateGroups.has(named) ? named : (replayGroup.get(named) as PodGroup), replicas: row.replicas };
    }),
    start: inputs.start,
    timing: inputs.timing,
  });
  const peakPlan = provision(simulation, { groups: withReplicas(inputs.nodes, points.peak) });
  const endPlan = provision(simulation, { groups: withReplicas(inputs.nodes, points.end) });
  const settled = convergedNodes({ simulation, result: endPlan, pdbs });
  return {
    whatIf,
    result,
    peakLaunchHourlyUsd: peakPlan.nodes.reduce((s, n) => s + n.hourlyUsd, 0) + fargateHourly(inputs.fargate, points.peak),
    settledHourlyUsd: settled.nodes.reduce((s, n) => s + (n.hourlyUsd ?? 0), 0) + fargateHourly(inputs.fargate, points.end),
  };
}

/** Reads the config, the workload and the curve (every problem of the three at once), then replays each what-if. */
export function makeReplay(options: ReplayOptions): Replay {
  let input: Buffer | undefined;
  const stdin = options.stdin;
  const read = stdin === undefined ? options : { ...options, stdin: () => (input ??= stdin()) };
  const {
    loaded,
    workload,
    more: checked,
  } = loadInputs(read, undefined, (w) => {
    // The workloads are read the same way whatever the cluster's Fargate profiles: a curve names any of them.
    const names = new Map(w.groups.filter((g) => g.boundTo === undefined).map((g) => [workloadName(g), g]));
    const curve =
      "text" in options.curve ? parseReplicaCurve(options.curve.text, options.curve.source, new Set(names.keys())) : known(options.curve.read, names);
    if (options.start !== undefined && curve.start !== undefined)
      throw new InputError("--start", ["the curve gives RFC 3339 times, which say when it starts; --start is for curves in seconds"]);
    return { curve, names };
  });
  const cluster = loaded.model;
  const catalogue = options.catalogue ?? loadInstanceCatalogue();
  const { nodes, fargate, held } = replayable(workload, cluster);
  const fargateWorkloads: FargateWorkload[] = fargate.flatMap((group) => {
    const size = fargateSize({ cpuMillis: group.pod.cpuMillis, memoryBytes: group.pod.memoryBytes });
    return size === undefined ? [] : [{ group, podHourlyUsd: size.hourlyUsd }];
  });
  const startFromCurve = checked.curve.start !== undefined;
  const start = checked.curve.start ?? options.start ?? DEFAULT_START;
  const runnable = new Set<PodGroup>([...nodes, ...fargateWorkloads.map((f) => f.group)]);
  const ignored = notInWorkload.get(checked.curve) ?? [];
  const warnings = [
    ...(ignored.length === 0
      ? []
      : [
          `${ignored.length} workload${ignored.length === 1 ? "" : "s"} Prometheus has replicas of ${ignored.length === 1 ? "is" : "are"} not in the workload, and not replayed: ${ignored.slice(0, 5).join(", ")}${ignored.length > 5 ? ", ..." : ""}`,
        ]),
    ...workload.warnings,
    ...held.map((h) => `${workloadName(h.group)} is not replayed: ${h.reason}`),
    ...[...checked.names.values()]
      .filter((g) => !runnable.has(g) && checked.curve.rows.some((r) => r.workload === workloadName(g)))
      .map((g) => `${workloadName(g)} is in the curve but runs on no node Karpenter launches (a Job, or held): its rows are left out`),
  ];
  const curve = { ...checked.curve, rows: checked.curve.rows.filter((r) => runnable.has(checked.names.get(r.workload) as PodGroup)) };
  const byName = new Map([...runnable].map((g) => [workloadName(g), g]));
  // The batch window is the chart's, as the config sets it; Karpenter's defaults otherwise.
  const batch = cluster.provisioningBatch;
  const timing = {
    ...options.timing,
    batchIdleSeconds: batch?.idleSeconds ?? options.timing.batchIdleSeconds,
    batchMaxSeconds: batch?.maxSeconds ?? options.timing.batchMaxSeconds,
  };
  const alone = options.whatIfs.map((whatIf) =>
    runOne(whatIf, cluster, workload, catalogue, { curve, nodes, fargate: fargateWorkloads, byName, start, timing }),
  );
  // Each run ends when its cluster is quiet; compared side by side, every run is billed to the latest end.
  const end = Math.max(...alone.map((r) => r.result.seconds));
  const runs = alone.map((r) => ({ ...r, result: extendedTo(r.result, end) }));
  return {
    cluster: { name: cluster.name, region: cluster.region, configSource: loaded.source },
    curveSource: options.curve.source,
    start,
    startFromCurve,
    runs,
    timing,
    priceSource: `${catalogue.source}, ${catalogue.asOf}`,
    spotKnown: catalogue.spot !== undefined,
    warnings,
  };
}
