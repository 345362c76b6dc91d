// Pods of one workload that do not run yet (pending, or nominated to a node still starting), by when each was
// created: the replay binds the oldest first and, scaling down, deletes the newest first.

export interface CreatedPods {
  /** Seconds from the start of the replay. */
  readonly createdAt: number;
  readonly count: number;
}

export class PodsByCreation {
  /** Oldest first; times never decrease, as the replay's clock does not. */
  private runs: { createdAt: number; count: number }[] = [];
  private total = 0;

  get size(): number {
    return this.total;
  }

  add(createdAt: number, count: number): void {
    if (count <= 0) return;
    const last = this.runs[this.runs.length - 1];
    if (last !== undefined && last.createdAt === createdAt) last.count += count;
    else this.runs.push({ createdAt, count });
    this.total += count;
  }

  /** Takes up to `count` of the oldest pods; returns them, oldest first. */
  takeOldest(count: number): CreatedPods[] {
    const taken: CreatedPods[] = [];
    let left = Math.min(count, this.total);
    while (left > 0) {
      const run = this.runs[0];
      const n = Math.min(left, run.count);
      taken.push({ createdAt: run.createdAt, count: n });
      run.count -= n;
      if (run.count === 0) this.runs.shift();
      left -= n;
      this.total -= n;
    }
    return taken;
  }

  /** Takes up to `count` of the newest pods; returns them, newest first. */
  takeNewest(count: number): CreatedPods[] {
    const taken: CreatedPods[] = [];
    let left = Math.min(count, this.total);
    while (left > 0) {
      const run = this.runs[this.runs.length - 1];
      const n = Math.min(left, run.count);
      taken.push({ createdAt: run.createdAt, count: n });
      run.count -= n;
      if (run.count === 0) this.runs.pop();
      left -= n;
      this.total -= n;
    }
    return taken;
  }

  /** Every pod, oldest first, without taking them. */
  list(): readonly CreatedPods[] {
    return this.runs;
  }
}

/** How many pods runs of created pods hold. */
export const countOf = (runs: readonly CreatedPods[]): number => runs.reduce((sum, r) => sum + r.count, 0);
