import type { ScenarioJson } from "../../../src/planner/plan/plan-types";
import { readWorkload } from "../../../src/planner/workload/read-workload";
import { problemsOf } from "../../helpers/problems";
import { deployment, planOf, scenario, workloadFile } from "../helpers";

const placedPods = (s: ScenarioJson) => s.nodes.reduce((n, node) => n + node.pods, 0);

// HorizontalPodAutoscalers and KEDA ScaledObjects the API server (or KEDA's admission webhook) refuses are
// problems, every field at once; their valid neighbours set their target's replicas.

const worker = deployment("worker", 1, "500m", "256Mi");

const hpa = (name: string, spec: string) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: ${name} }
spec: { scaleTargetRef: { kind: Deployment, name: worker }, ${spec} }
---
`;

const TRIGGER = "triggers: [{ type: cpu, metricType: Utilization, metadata: { value: '60' } }]";

describe("autoscalers the API server refuses", () => {
  it("an HPA whose minReplicas is below 1, or above its maxReplicas", () => {
    const file = workloadFile(worker + hpa("to-zero", "minReplicas: 0, maxReplicas: 5") + hpa("upside-down", "minReplicas: 6, maxReplicas: 3"));
    expect(problemsOf(() => readWorkload(file))).toEqual([
      `${file}: document 2 (HorizontalPodAutoscaler to-zero): spec.minReplicas: got 0; must be an integer of at least 1: the API server refuses 0 unless the HPAScaleToZero feature gate (alpha, off on EKS) is on`,
      `${file}: document 3 (HorizontalPodAutoscaler upside-down): spec.maxReplicas: got 3; must be at least the minimum (6)`,
    ]);
  });

  it("its valid neighbour, minReplicas 1 up to 3, runs the worker at 1 and scales it to 3, and plans", () => {
    const workload = readWorkload(workloadFile(worker + hpa("web", "minReplicas: 1, maxReplicas: 3")));
    expect(workload.groups[0]).toMatchObject({
      replicas: 1,
      autoscaling: { source: "HorizontalPodAutoscaler default/web", minReplicas: 1, maxReplicas: 3 },
    });
    const plan = planOf({ name: "demo" }, worker + hpa("web", "minReplicas: 1, maxReplicas: 3"));
    expect(["as-configured", "autoscaled-max"].map((name) => [placedPods(scenario(plan, name)), scenario(plan, name).unschedulable])).toEqual([
      [1, []],
      [3, []],
    ]);
  });

  it("a KEDA ScaledObject: every bad field at once, not only the first", () => {
    const file = workloadFile(`${worker}apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: { name: worker }
spec:
  scaleTargetRef: {}
  minReplicaCount: -1
  maxReplicaCount: two
  idleReplicaCount: 0.5
`);
    const at = `${file}: document 2 (ScaledObject worker)`;
    expect(problemsOf(() => readWorkload(file))).toEqual([
      `${at}: spec.scaleTargetRef: got {}; must name the workload it scales {kind, name}`,
      `${at}: spec.minReplicaCount: got -1; must be a non-negative integer`,
      `${at}: spec.maxReplicaCount: got "two"; must be a non-negative integer`,
      `${at}: spec.idleReplicaCount: got 0.5; must be a non-negative integer`,
      `${at}: spec.triggers: got nothing; must list at least one trigger (what KEDA scales on)`,
    ]);
  });

  it("KEDA refuses an idleReplicaCount not below minReplicaCount, and a maximum below the minimum", () => {
    const file = workloadFile(`${worker}apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: { name: worker }
spec: { scaleTargetRef: { name: worker }, minReplicaCount: 2, maxReplicaCount: 1, idleReplicaCount: 2, ${TRIGGER} }
`);
    const at = `${file}: document 2 (ScaledObject worker)`;
    expect(problemsOf(() => readWorkload(file))).toEqual([
      `${at}: spec.maxReplicaCount: got 1; must be at least the minimum (2)`,
      `${at}: spec.idleReplicaCount: got 2; must be below minReplicaCount (2): KEDA refuses the ScaledObject otherwise`,
    ]);
  });

  it("its valid neighbour, idle at 0 between 1 and 10, runs the worker at 1, and plans 10 at its maximum", () => {
    const yaml = `${worker}apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: { name: worker }
spec: { scaleTargetRef: { name: worker }, idleReplicaCount: 0, minReplicaCount: 1, maxReplicaCount: 10, ${TRIGGER} }
`;
    expect(readWorkload(workloadFile(yaml)).groups[0]).toMatchObject({
      replicas: 1,
      autoscaling: { source: "ScaledObject default/worker", minReplicas: 1, maxReplicas: 10 },
    });
    const plan = planOf({ name: "demo" }, yaml);
    expect(["as-configured", "autoscaled-max"].map((name) => placedPods(scenario(plan, name)))).toEqual([1, 10]);
  });
});
