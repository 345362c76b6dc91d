import { renderPlanMarkdown } from "../../../src/planner/render/render-markdown";
import { renderPlanTable } from "../../../src/planner/render/render-table";
import { planOf } from "../helpers";

// The output never contradicts itself: the header counts the pods as the as-configured plan places them, and the
// terminal table names each workload's unschedulable pods once, with the scenarios they fail in.

/** Two arm64-pinned pods (none in amd64-only) and one of 500 CPUs (larger than any type the default pool allows). */
const MIXED = `apiVersion: apps/v1
kind: Deployment
metadata: { name: arm }
spec:
  replicas: 2
  template:
    spec:
      nodeSelector: { kubernetes.io/arch: arm64 }
      containers: [{ name: c, resources: { requests: { cpu: 250m, memory: 512Mi } } }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: huge }
spec:
  template:
    spec:
      containers: [{ name: c, resources: { requests: { cpu: "500" } } }]
`;

describe("the plan's header and unschedulable pods", () => {
  const plan = planOf({ name: "demo" }, MIXED);

  it("counts scheduled and unschedulable pods as they are, in the table and in Markdown", () => {
    expect(renderPlanTable(plan).split("\n")[1]).toBe("3 pods: 2 on Karpenter nodes, 0 on Fargate, 1 unschedulable");
    expect(renderPlanMarkdown(plan).split("\n")[2]).toBe("3 pods: 2 on Karpenter nodes, 0 on Fargate, 1 unschedulable. Config: test.");
  });

  it("names each workload's unschedulable pods once, with every scenario they fail in and why", () => {
    expect(
      renderPlanTable(plan)
        .split("\n")
        .filter((line) => line.startsWith("unschedulable")),
    ).toEqual([
      "unschedulable: default/huge: 1 pod in as-configured, amd64-only, multiarch, on-demand-only: NodePool default: no instance type it allows holds the pod and the DaemonSets beside it",
      "unschedulable: default/arm: 2 pods in amd64-only: NodePool default: requires kubernetes.io/arch In [arm64], which none of the pool's instance types has",
    ]);
  });

  it("keeps the JSON's lists per scenario, in the queue's order (the most CPU first)", () => {
    expect(plan.json.scenarios.map((s) => [s.name, s.unschedulable.map((u) => u.pod)])).toEqual([
      ["as-configured", ["default/huge"]],
      ["amd64-only", ["default/huge", "default/arm (2 pods)"]],
      ["multiarch", ["default/huge"]],
      ["on-demand-only", ["default/huge"]],
    ]);
  });
});
