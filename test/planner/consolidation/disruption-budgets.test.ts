import { allowedDisruptions } from "../../../src/planner/consolidation/disruption-budgets";
import type { DisruptionReason, NodePoolBudget } from "../../../src/planner/model";
import { AT, DEFAULT_BUDGETS } from "./fixtures";

// allowedDisruptions: how many of a NodePool's nodes its budgets let be disrupted at once for a reason at a time.
// After kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/nodepool_budgets_test.go (Context "GetAllowedDisruptionsByReason",
// "AllowedDisruptions", "IsActive") and emptiness_test.go's budget cases; the code is nodepool.go
// (GetAllowedDisruptionsByReason, Budget.GetAllowedDisruptions, Budget.IsActive). Upstream returns MaxInt32 where
// no budget limits a reason; here that is Infinity. Dates are worked out by hand: 2026-11-25 is a Wednesday,
// 2026-11-28 a Saturday; a schedule is active from the minute it fires until its duration has passed.

const REASONS: readonly DisruptionReason[] = ["Empty", "Underutilized", "Drifted"];
const UNLIMITED = Number.POSITIVE_INFINITY;

/** What the budgets allow for each reason, as { Empty, Underutilized, Drifted }. */
const byReason = (budgets: readonly NodePoolBudget[], nodes: number, at = AT) =>
  Object.fromEntries(REASONS.map((reason) => [reason, allowedDisruptions(budgets, reason, nodes, at)]));

/** A budget of `nodes` that holds weekdays from 09:00 UTC for 8 hours. */
const weekdays = (nodes: string): NodePoolBudget => ({ nodes, schedule: { cron: "0 9 * * 1-5", minutes: 8 * 60 } });
const wednesday = (time: string) => new Date(`2026-11-25T${time}:00Z`);

describe("allowedDisruptions: percentages and counts (nodepool_budgets_test.go AllowedDisruptions)", () => {
  it("rounds a percentage of the pool's nodes up: 10% of 5 is 1, of 11 is 2, of 19 is 2, of 20 is 2", () => {
    // intstr.GetScaledValueFromIntOrPercent(roundUp=true): 0.5 -> 1, 1.1 -> 2, 1.9 -> 2, 2 -> 2.
    expect([5, 11, 19, 20].map((n) => allowedDisruptions(DEFAULT_BUDGETS, "Empty", n, AT))).toEqual([1, 2, 2, 2]);
  });

  it("rounds up a half as well: 50% of 3 is 2 (emptiness_test.go: should allow 2 nodes from each nodePool to be deleted)", () => {
    expect(allowedDisruptions([{ nodes: "50%" }], "Empty", 3, AT)).toBe(2);
  });

  it('allows none under "0%", and every node under "100%" (should allow no / all empty nodes to be disrupted)', () => {
    expect(allowedDisruptions([{ nodes: "0%" }], "Empty", 10, AT)).toBe(0);
    expect(allowedDisruptions([{ nodes: "100%" }], "Empty", 10, AT)).toBe(10);
    expect(allowedDisruptions([{ nodes: "100%" }], "Empty", 0, AT)).toBe(0);
  });

  it("allows an absolute count as it is, whatever the pool's size (should return the int value when a budget is active)", () => {
    expect([3, 100].map((n) => allowedDisruptions([{ nodes: "5" }], "Empty", n, AT))).toEqual([5, 5]);
    expect(allowedDisruptions([{ nodes: "0" }], "Empty", 100, AT)).toBe(0);
  });

  it("limits nothing when no budget applies", () => {
    expect(byReason([], 10)).toEqual({ Empty: UNLIMITED, Underutilized: UNLIMITED, Drifted: UNLIMITED });
  });
});

describe("allowedDisruptions: several budgets and reasons (nodepool_budgets_test.go GetAllowedDisruptionsByReason)", () => {
  it('takes the smallest of the budgets: "10", "100" and "100%" of 100 nodes allow 10 (should return the budget for all disruption reasons when undefined)', () => {
    expect(byReason([{ nodes: "10" }, { nodes: "100" }, { nodes: "100%" }], 100)).toEqual({ Empty: 10, Underutilized: 10, Drifted: 10 });
  });

  it('takes whichever is smaller as the pool grows: "50%" and "3" allow 2 of 4 nodes, 3 of 10', () => {
    const budgets: NodePoolBudget[] = [{ nodes: "50%" }, { nodes: "3" }];
    expect([4, 10].map((n) => allowedDisruptions(budgets, "Underutilized", n, AT))).toEqual([2, 3]);
  });

  it("applies a budget only to the reasons it names: one for Drifted does not limit Empty or Underutilized", () => {
    expect(byReason([{ nodes: "0", reasons: ["Drifted"] }], 10)).toEqual({ Empty: UNLIMITED, Underutilized: UNLIMITED, Drifted: 0 });
  });

  it("should get the minimum budget for each reason: Empty 4, Drifted 5, Underutilized 10 of 100 nodes", () => {
    const budgets: NodePoolBudget[] = [
      { nodes: "10" },
      { nodes: "100" },
      { nodes: "100%" },
      { nodes: "15", reasons: ["Drifted", "Underutilized"] },
      { nodes: "5", reasons: ["Drifted"] },
      { nodes: "4", reasons: ["Empty"] },
    ];
    // The budget of no reason (10) is below the 15 for Underutilized.
    expect(byReason(budgets, 100)).toEqual({ Empty: 4, Underutilized: 10, Drifted: 5 });
  });
});

describe("allowedDisruptions: schedules (nodepool_budgets_test.go IsActive)", () => {
  const budgets = [{ nodes: "100%" }, weekdays("0")];

  it("applies a scheduled budget inside its window: Wednesday 12:00 is 3 hours into 09:00 + 8h (should return that a schedule is active)", () => {
    expect(allowedDisruptions(budgets, "Empty", 10, wednesday("12:00"))).toBe(0);
  });

  it("ignores a scheduled budget outside its window: Wednesday 20:00 is 3 hours after it closed (should return that a schedule is inactive)", () => {
    expect(allowedDisruptions(budgets, "Empty", 10, wednesday("20:00"))).toBe(10);
    expect(allowedDisruptions([weekdays("0")], "Empty", 10, wednesday("20:00"))).toBe(UNLIMITED);
  });

  it("opens the window at the minute the schedule fires and closes it when the duration has passed: 09:00 to 16:59 inclusive", () => {
    const at = ["08:59", "09:00", "16:59", "17:00"].map((time) => allowedDisruptions(budgets, "Empty", 10, wednesday(time)));
    expect(at).toEqual([10, 0, 0, 10]);
  });

  it("ignores it on a day its schedule does not fire: Saturday 12:00 under 1-5", () => {
    expect(allowedDisruptions(budgets, "Empty", 10, new Date("2026-11-28T12:00:00Z"))).toBe(10);
  });

  it("should return 0 for all reasons if a budget is active for all reasons", () => {
    const always: NodePoolBudget[] = [{ nodes: "10" }, { nodes: "0", schedule: { cron: "* * * * *", minutes: 60 } }];
    expect(byReason(always, 100)).toEqual({ Empty: 0, Underutilized: 0, Drifted: 0 });
  });

  it("should ignore reason-defined budgets when inactive: @yearly for an hour is over on 26 November", () => {
    const yearly: NodePoolBudget[] = [{ nodes: "10" }, { nodes: "0", reasons: ["Empty", "Drifted"], schedule: { cron: "@yearly", minutes: 60 } }];
    expect(byReason(yearly, 100)).toEqual({ Empty: 10, Underutilized: 10, Drifted: 10 });
    // The first hour of the year it holds.
    expect(byReason(yearly, 100, new Date("2027-01-01T00:30:00Z"))).toEqual({ Empty: 0, Underutilized: 10, Drifted: 0 });
  });

  it("should return MaxInt32 for all reasons when there are no active budgets (here Infinity)", () => {
    const inactive: NodePoolBudget[] = [weekdays("10"), weekdays("0%")];
    expect(byReason(inactive, 100, wednesday("20:00"))).toEqual({ Empty: UNLIMITED, Underutilized: UNLIMITED, Drifted: UNLIMITED });
  });

  it("should return 0 for all reasons when a budget's schedule does not parse, whatever reasons that budget names (MustGetAllowedDisruptions)", () => {
    // tue-mon: a range that runs backwards, which robfig/cron refuses; the CRD's pattern only counts the fields.
    const broken: NodePoolBudget[] = [{ nodes: "10" }, { nodes: "5", reasons: ["Drifted"], schedule: { cron: "0 0 * * tue-mon", minutes: 60 } }];
    expect(byReason(broken, 100)).toEqual({ Empty: 0, Underutilized: 0, Drifted: 0 });
  });
});
