import { budgetScheduleActive, cronScheduleProblem } from "../../provisioners/cron-schedule";
import type { PoolDisruption } from "../model";

// The NodePools' budget schedules as the replay's clock turns them on and off: which are active at a time, and when
// the next one changes. Schedules are cron in UTC, to the minute; one that does not parse is left to the budgets
// (it allows nothing, all the time) and never changes.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/nodepool.go (Budget.IsActive)

export class BudgetSchedules {
  private readonly schedules: readonly { readonly cron: string; readonly minutes: number }[];

  /** `start`: the wall-clock time of t = 0. */
  constructor(
    pools: Iterable<PoolDisruption>,
    private readonly start: Date,
  ) {
    this.schedules = [...pools].flatMap((pool) =>
      pool.budgets.flatMap((b) => (b.schedule !== undefined && cronScheduleProblem(b.schedule.cron) === undefined ? [b.schedule] : [])),
    );
  }

  /** Which schedules are active at `t` (seconds from the start), as a key that changes when one turns on or off. */
  state(t: number): string {
    const when = new Date(this.start.getTime() + t * 1000);
    return this.schedules.map((s) => (budgetScheduleActive(s.cron, s.minutes, when) ? "1" : "0")).join("");
  }

  /** The next whole minute after `t`, within `horizon` seconds, at which a schedule turns on or off; undefined when none does. */
  nextChange(t: number, horizon: number): number | undefined {
    if (this.schedules.length === 0) return undefined;
    const now = this.state(t);
    const startMs = this.start.getTime();
    const firstMinute = Math.floor((startMs + t * 1000) / 60_000) * 60_000 + 60_000;
    for (let ms = firstMinute; ms <= startMs + (t + horizon) * 1000; ms += 60_000) {
      const at = (ms - startMs) / 1000;
      if (this.state(at) !== now) return at;
    }
    return undefined;
  }
}
