import { allowedWithEveryPodHealthy, readPodDisruptionBudget } from "../../../src/planner/workload/pod-disruption-budgets";
import type { PodDisruptionBudgetSpec } from "../../../src/planner/workload/workload-model";

// PodDisruptionBudgets as the disruption controller counts them (kubernetes pkg/controller/disruption/disruption.go
// getExpectedPodCount), with every pod healthy: a workload has no status.

const spec = (fields: Partial<PodDisruptionBudgetSpec>): PodDisruptionBudgetSpec => ({
  namespace: "shop",
  name: "web",
  selector: { matchLabels: { app: "web" }, matchExpressions: [] },
  ...fields,
});

describe("PodDisruptionBudget arithmetic", () => {
  it("minAvailable: a count leaves the rest; a percentage of the pods selected rounds up", () => {
    expect(allowedWithEveryPodHealthy(spec({ minAvailable: 2 }), 3)).toBe(1);
    expect(allowedWithEveryPodHealthy(spec({ minAvailable: 3 }), 3)).toBe(0);
    // 50% of 3 is 1.5, rounded up to 2 that must stay: 1 may go.
    expect(allowedWithEveryPodHealthy(spec({ minAvailable: "50%" }), 3)).toBe(1);
    expect(allowedWithEveryPodHealthy(spec({ minAvailable: "100%" }), 3)).toBe(0);
    expect(allowedWithEveryPodHealthy(spec({ minAvailable: 5 }), 3)).toBe(0);
  });

  it("maxUnavailable: a count, or a percentage rounded up", () => {
    expect(allowedWithEveryPodHealthy(spec({ maxUnavailable: 1 }), 4)).toBe(1);
    // 10% of 4 is 0.4, rounded up to 1.
    expect(allowedWithEveryPodHealthy(spec({ maxUnavailable: "10%" }), 4)).toBe(1);
    expect(allowedWithEveryPodHealthy(spec({ maxUnavailable: 0 }), 4)).toBe(0);
  });

  it("neither written: policy/v1 has no default, so every pod may go", () => {
    expect(allowedWithEveryPodHealthy(spec({}), 4)).toBe(4);
  });

  it("reads a budget as written, its status where the cluster wrote one, and none without a selector", () => {
    const problems: string[] = [];
    const report = (path: string, _value: unknown, message: string) => problems.push(`${path}: ${message}`);
    const object = {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: "web", namespace: "shop" },
      spec: { minAvailable: "50%", selector: { matchLabels: { app: "web" } }, unhealthyPodEvictionPolicy: "AlwaysAllow" },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2, expectedPods: 3 },
    };
    expect(readPodDisruptionBudget(object, report)).toEqual({
      ...spec({ minAvailable: "50%" }),
      maxUnavailable: undefined,
      unhealthyPodEvictionPolicy: "AlwaysAllow",
      statusAllowed: 0,
    });
    expect(readPodDisruptionBudget({ ...object, spec: { minAvailable: 1 } }, report)).toBeUndefined();
    expect(readPodDisruptionBudget({ ...object, spec: { ...object.spec, minAvailable: "half" } }, report)?.minAvailable).toBeUndefined();
    expect(problems).toEqual(["spec.minAvailable: must be a count or a percentage such as 50%"]);
  });
});
