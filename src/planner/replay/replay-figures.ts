import { plural } from "../../shared/plural";
import type { Replay } from "./make-replay";
import { type ReplayRunJson, replayJson, whatIfLabel } from "./replay-json";
import { humanDuration } from "./timeline-buckets";

// The figures a person reads of each run, one row each, the same for the table and the Markdown.

const usd = (v: number) => `$${v.toFixed(2)}`;
const usdHour = (v: number) => `$${v.toFixed(4)}/hour`;

export interface FigureRow {
  readonly label: string;
  readonly values: readonly string[];
}

/** Each run's JSON figures, in the order of the runs. */
export function runsOf(replay: Replay): readonly ReplayRunJson[] {
  const json = replayJson(replay);
  return json.runs ?? [json as ReplayRunJson];
}

export function runLabels(replay: Replay): string[] {
  return replay.runs.map((r) => whatIfLabel(r.whatIf));
}

export function figureRows(runs: readonly ReplayRunJson[]): FigureRow[] {
  const row = (label: string, value: (r: ReplayRunJson) => string) => ({ label, values: runs.map(value) });
  return [
    row("period", (r) => `${humanDuration(r.period.seconds)}${r.settled ? "" : " (still changing when stopped)"}`),
    row("cost of the period", (r) => `${usd(r.costUsd)} (EC2 ${usd(r.costBreakdown.ec2Usd)}, Fargate ${usd(r.costBreakdown.fargateUsd)})`),
    row("static: peak launch plan x period", (r) => `${usd(r.static.peakLaunchUsd)} (${usdHour(r.static.peakLaunchHourlyUsd)})`),
    row("static: settled plan x period", (r) => `${usd(r.static.settledUsd)} (${usdHour(r.static.settledHourlyUsd)})`),
    row("nodes: peak, final", (r) => `${r.nodes.max}, ${r.nodes.final} (${usdHour(r.nodes.finalHourlyUsd)})`),
    row("nodes launched", (r) => String(r.nodes.launched)),
    row(
      "pod wait p50 / p95 / max",
      (r) => `${humanDuration(r.pods.waitSeconds.p50)} / ${humanDuration(r.pods.waitSeconds.p95)} / ${humanDuration(r.pods.waitSeconds.max)}`,
    ),
    row("pods started", (r) => `${r.pods.started}${r.pods.stillPending > 0 ? `, ${r.pods.stillPending} still pending at the end` : ""}`),
    row(
      "consolidation",
      (r) => `${plural(r.disruptions.deleted, "node")} deleted, ${r.disruptions.replaced} replaced, ${plural(r.disruptions.podsEvicted, "pod")} evicted`,
    ),
    row("commands abandoned at validation", (r) => String(r.disruptions.abandoned)),
  ];
}
