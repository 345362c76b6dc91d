import type { Replay } from "./make-replay";
import { figureRows, runLabels, runsOf } from "./replay-figures";
import { replayAssumptions } from "./replay-json";
import { humanDuration, timelineBuckets } from "./timeline-buckets";

// The replay as Markdown for a pull request or a wiki: the figures side by side, a Mermaid xychart-beta of nodes
// and pending pods over time per run (GitHub renders it), the assumptions and the warnings.

/** Points of a chart: enough to see the curve's shape, few enough for Mermaid to draw legibly. */
const CHART_POINTS = 48;

const cell = (text: string) => text.replace(/\|/g, "\\|");

function chart(label: string, timeline: Parameters<typeof timelineBuckets>[0], end: number): string[] {
  const b = timelineBuckets(timeline, end, CHART_POINTS);
  const unit = end >= 3 * 3600 ? { name: "hours", div: 3600 } : { name: "minutes", div: 60 };
  const x = b.starts.map((s) => Number((s / unit.div).toFixed(2)));
  const top = Math.max(1, ...b.nodes, ...b.pending);
  return [
    "```mermaid",
    "xychart-beta",
    `  title "${label.replace(/"/g, "'")}: nodes (first line) and pending pods (second), most per ${humanDuration(b.seconds)}"`,
    `  x-axis "${unit.name} from the start" [${x.join(", ")}]`,
    `  y-axis "count" 0 --> ${top}`,
    `  line [${b.nodes.join(", ")}]`,
    `  line [${b.pending.join(", ")}]`,
    "```",
  ];
}

export function renderReplayMarkdown(replay: Replay): string {
  const runs = runsOf(replay);
  const labels = runLabels(replay);
  const lines = [
    `## Replay: ${replay.cluster.name} (${replay.cluster.region})`,
    "",
    `Curve \`${replay.curveSource}\`, config \`${replay.cluster.configSource}\`. Prices: ${replay.priceSource}. Estimates, not a quote.`,
    "",
    `| | ${labels.map(cell).join(" | ")} |`,
    `|---|${labels.map(() => "---").join("|")}|`,
    ...figureRows(runs).map((r) => `| ${cell(r.label)} | ${r.values.map(cell).join(" | ")} |`),
    "",
  ];
  replay.runs.forEach((run, i) => {
    lines.push(...chart(labels[i], run.result.timeline, run.result.seconds), "");
  });
  lines.push("### Assumptions", "", ...replayAssumptions(replay).map((a) => `- ${a}`), "");
  if (replay.warnings.length > 0) lines.push("### Warnings", "", ...replay.warnings.map((w) => `- ${w}`), "");
  return `${lines.join("\n")}\n`;
}
