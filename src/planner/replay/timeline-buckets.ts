import type { TimelinePoint } from "./replay-types";

// A replay's timeline, a step function of time, cut into equal intervals for a chart: each interval shows the
// most nodes and the most pending pods it saw, so a burst shorter than an interval still shows.

export interface Buckets {
  /** The interval's length, in seconds. */
  readonly seconds: number;
  /** Each interval's start, in seconds from the start of the replay. */
  readonly starts: readonly number[];
  readonly nodes: readonly number[];
  readonly pending: readonly number[];
}

/** At most `count` intervals over [0, end]: whole seconds, and at least one second each. */
export function timelineBuckets(timeline: readonly TimelinePoint[], end: number, count: number): Buckets {
  const seconds = Math.max(1, Math.ceil(Math.max(end, 1) / count));
  const n = Math.max(1, Math.ceil(Math.max(end, 1) / seconds));
  const nodes = new Array<number>(n).fill(0);
  const pending = new Array<number>(n).fill(0);
  let current: TimelinePoint | undefined;
  let i = 0;
  for (let b = 0; b < n; b++) {
    const from = b * seconds;
    const to = from + seconds;
    // The value holding at the interval's start, then every change within it.
    while (i < timeline.length && timeline[i].t <= from) current = timeline[i++];
    let maxNodes = current?.nodes ?? 0;
    let maxPending = current?.pending ?? 0;
    while (i < timeline.length && timeline[i].t < to) {
      current = timeline[i++];
      maxNodes = Math.max(maxNodes, current.nodes);
      maxPending = Math.max(maxPending, current.pending);
    }
    nodes[b] = maxNodes;
    pending[b] = maxPending;
  }
  return { seconds, starts: Array.from({ length: n }, (_, b) => b * seconds), nodes, pending };
}

const BARS = "▁▂▃▄▅▆▇█";

/** A compact text chart of the values: one block character each, scaled to the largest. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  if (max === 0) return " ".repeat(values.length);
  return values.map((v) => (v === 0 ? " " : BARS[Math.min(BARS.length - 1, Math.ceil((v / max) * BARS.length) - 1)])).join("");
}

/** A duration as people read it: "45 s", "12 min 5 s", "3 h 20 min". */
export function humanDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 === 0 ? "" : ` ${s % 60} s`}`;
  const minutes = Math.round((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes === 0 ? "" : ` ${minutes} min`}`;
}
