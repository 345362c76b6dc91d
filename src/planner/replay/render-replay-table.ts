import { columns } from "../../shared/text-columns";
import type { Replay } from "./make-replay";
import { figureRows, runLabels, runsOf } from "./replay-figures";
import { humanDuration, sparkline, timelineBuckets } from "./timeline-buckets";

// The replay for a terminal: the figures of each run side by side, then each run's nodes and pending pods over
// time as a line of block characters. Its warnings go to stderr (the CLI prints them).

/** Characters of a sparkline: fits an 80-column terminal beside its label. */
const SPARK_WIDTH = 60;

export function renderReplayTable(replay: Replay): string {
  const runs = runsOf(replay);
  const labels = runLabels(replay);
  const lines = [
    `Replay: ${replay.curveSource} on ${replay.cluster.name} (${replay.cluster.region}), config: ${replay.cluster.configSource}`,
    `Prices: ${replay.priceSource}. Node ready after ${replay.timing.nodeReadySeconds} s (an assumption: --node-ready). Estimates, not a quote.`,
    "",
    ...columns(
      ["", ...labels],
      new Set(),
      figureRows(runs).map((r) => [r.label, ...r.values]),
    ),
  ];
  replay.runs.forEach((run, i) => {
    const b = timelineBuckets(run.result.timeline, run.result.seconds, SPARK_WIDTH);
    lines.push(
      "",
      `${labels[i]}: over ${humanDuration(run.result.seconds)}, one character per ${humanDuration(b.seconds)} (the most in it)`,
      `  nodes    ${sparkline(b.nodes)}  peak ${Math.max(...b.nodes)}`,
      `  pending  ${sparkline(b.pending)}  peak ${Math.max(...b.pending)}`,
    );
  });
  lines.push("", "Where the model stops: docs/planner.md, Replay; the JSON output lists every assumption.");
  return `${lines.join("\n")}\n`;
}
