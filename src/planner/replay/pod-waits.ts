// How long pods waited from creation to running, as counts by wait: the replay has thousands of pods start in the
// same second, and the percentiles are read from these counts, nearest rank as a person counts them.

export interface WaitSummary {
  /** Pods that started running in the period. */
  readonly pods: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

export class PodWaits {
  private readonly counts = new Map<number, number>();
  private total = 0;

  add(seconds: number, count: number): void {
    if (count <= 0) return;
    // Whole milliseconds: the clock's steps are whole seconds, batches end on them too; no float drift in keys.
    const key = Math.round(seconds * 1000) / 1000;
    this.counts.set(key, (this.counts.get(key) ?? 0) + count);
    this.total += count;
  }

  /** The smallest wait at least a fraction `q` of the pods waited no longer than (nearest rank); 0 with no pods. */
  private quantile(sorted: readonly [number, number][], q: number): number {
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (const [wait, count] of sorted) {
      seen += count;
      if (seen >= rank) return wait;
    }
    return 0;
  }

  summary(): WaitSummary {
    const sorted = [...this.counts.entries()].sort(([a], [b]) => a - b);
    if (sorted.length === 0) return { pods: 0, p50: 0, p95: 0, max: 0 };
    return { pods: this.total, p50: this.quantile(sorted, 0.5), p95: this.quantile(sorted, 0.95), max: sorted[sorted.length - 1][0] };
  }
}
