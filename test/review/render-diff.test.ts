import type { PlanJson } from "../../src/planner/plan/plan-types";
import { renderReviewDiff } from "../../src/review/render-diff";

// The review's cost table: settled figures first when both sides have them; a base planned before plans settled
// (an older checkout of this project) is compared as launched, and the comment says so.

function plan(launchedHourly: number, settledHourly?: number): PlanJson {
  const scenario = {
    name: "as-configured" as const,
    nodes: [],
    nodeCount: 3,
    hourlyUsd: launchedHourly,
    monthlyUsd: launchedHourly * 730,
    unschedulable: [],
    ...(settledHourly === undefined ? {} : { converged: { nodeCount: 2, hourlyUsd: settledHourly, monthlyUsd: settledHourly * 730, nodes: [], actions: [] } }),
  };
  return {
    prices: { source: "test", region: "us-east-1", asOf: "2026-11-27" },
    scenarios: [scenario as PlanJson["scenarios"][number]],
    base: { items: [], hourlyUsd: 0.1 },
    fargateWorkload: { items: [], hourlyUsd: 0 },
    daemonSets: [],
    floorHourlyUsd: 0,
    warnings: [],
  };
}

const diff = (before: PlanJson, after: PlanJson) =>
  renderReviewDiff({
    base: { ref: "main", sha: "abc" },
    config: "clusters/dev.yaml",
    clusters: [],
    cost: { workload: "k8s/", before: { plan: before }, after: { plan: after } },
  });

describe("the review's cost table", () => {
  it("leads with the settled cost, then the launch", () => {
    // Settled: (0.3 + 0.1) x 730 = $292.00 before, (0.2 + 0.1) x 730 = $219.00 after: -$73.00 (-25.0%).
    const text = diff(plan(0.5, 0.3), plan(0.4, 0.2));
    expect(text).toContain("| as configured, settled by consolidation (what it costs to run) | $292.00 | $219.00 | **-$73.00** (-25.0%) |");
    expect(text).toContain("| nodes, as-configured, settled | 2 | 2 | no change |");
    expect(text).toContain("| as configured, as launched (nodes, control plane, Fargate, NAT) | $438.00 | $365.00 | **-$73.00** (-16.7%) |");
    expect(text).not.toContain("no settled figures");
  });

  it("compares as launched when the base's planner did not settle its plans", () => {
    const text = diff(plan(0.5), plan(0.4, 0.2));
    expect(text).not.toContain("settled by consolidation (what it costs to run) |");
    expect(text).toContain("| as configured, as launched (nodes, control plane, Fargate, NAT) | $438.00 | $365.00 | **-$73.00** (-16.7%) |");
    expect(text).toContain("The base's planner has no settled figures: compare as launched.");
  });
});
