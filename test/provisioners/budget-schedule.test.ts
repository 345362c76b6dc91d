import { budgetScheduleActive } from "../../src/provisioners/cron-schedule";

// Budget.IsActive (kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/nodepool.go): active when the schedule fired
// within the last `duration`, robfig's Next counting from now - duration, strictly after it.

const at = (iso: string) => new Date(iso);

describe("a disruption budget's schedule", () => {
  it("is active from the minute it fires until its duration has passed, and not at the duration's end", () => {
    const nineToFive = (iso: string) => budgetScheduleActive("0 9 * * *", 8 * 60, at(iso));
    expect(nineToFive("2026-11-26T08:59:59Z")).toBe(false);
    expect(nineToFive("2026-11-26T09:00:00Z")).toBe(true);
    expect(nineToFive("2026-11-26T16:59:59Z")).toBe(true);
    expect(nineToFive("2026-11-26T17:00:00Z")).toBe(false);
  });

  it("reads day names and ranges, in UTC", () => {
    // 2026-11-28 is a Saturday.
    expect(budgetScheduleActive("0 9 * * mon-fri", 60, at("2026-11-27T09:30:00Z"))).toBe(true);
    expect(budgetScheduleActive("0 9 * * mon-fri", 60, at("2026-11-28T09:30:00Z"))).toBe(false);
  });

  it("matches either day field when both are restricted, as cron does", () => {
    // The 1st of a month, or any Sunday: 2026-11-29 is a Sunday, 2026-12-01 a Tuesday, 2026-11-30 a Monday.
    const firstOrSunday = (iso: string) => budgetScheduleActive("0 0 1 * sun", 60, at(iso));
    expect(firstOrSunday("2026-11-29T00:30:00Z")).toBe(true);
    expect(firstOrSunday("2026-12-01T00:30:00Z")).toBe(true);
    expect(firstOrSunday("2026-11-30T00:30:00Z")).toBe(false);
  });

  it("takes macros and steps", () => {
    expect(budgetScheduleActive("@daily", 30, at("2026-11-26T00:10:00Z"))).toBe(true);
    expect(budgetScheduleActive("@daily", 30, at("2026-11-26T00:40:00Z"))).toBe(false);
    expect(budgetScheduleActive("*/15 * * * *", 1, at("2026-11-26T10:45:20Z"))).toBe(true);
    expect(budgetScheduleActive("*/15 * * * *", 1, at("2026-11-26T10:46:20Z"))).toBe(false);
  });
});
