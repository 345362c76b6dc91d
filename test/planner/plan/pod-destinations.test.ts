import * as path from "node:path";
import { renderPlanTable } from "../../../src/planner/render/render-table";
import { deployment, FIXTURES, nodesOf, planOf, scenario } from "../helpers";

// Where pods go before Karpenter sees them: Jobs run to completion (the steady scenarios leave them out,
// jobs-burst adds them), a pod that names its node is there already, and Fargate refuses hostNetwork, hostPort
// and privileged pods in the namespaces it owns (they stay Pending).

const REAL = path.join(FIXTURES, "real-workloads");
const DEFAULT = { name: "demo" };

describe("where pods go", () => {
  it("ingress-nginx: the controller is the steady state; its two admission Jobs run in jobs-burst, onto the same node", () => {
    const plan = planOf(DEFAULT, path.join(REAL, "ingress-nginx-aws.yaml"));
    // The controller requests 100m / 90Mi: one c6g.medium; the Jobs' pods request nothing and join it.
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.medium spot 1 pods"]);
    expect(nodesOf(scenario(plan, "jobs-burst"))).toEqual(["c6g.medium spot 3 pods"]);
    expect(plan.json.scenarios.map((s) => s.name)).toEqual(["as-configured", "amd64-only", "multiarch", "on-demand-only", "jobs-burst"]);
    expect(renderPlanTable(plan).split("\n")[1]).toBe("1 pod: 1 on Karpenter nodes, 0 on Fargate; Jobs and CronJobs add 2 while they run (jobs-burst)");
    expect(plan.json.warnings).toContain(
      "Jobs and CronJobs run to completion: the steady scenarios leave their pods out, and jobs-burst adds them at their parallelism onto the as-configured nodes: ingress-nginx/ingress-nginx-admission-create (1 pod), ingress-nginx/ingress-nginx-admission-patch (1 pod)",
    );
  });

  it("a CronJob's parallelism launches a node of its own beside the steady one while it runs", () => {
    const plan = planOf(
      DEFAULT,
      `${deployment("web", 2, "250m", "512Mi")}apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly-report }
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      parallelism: 3
      completions: 6
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{ name: report, resources: { requests: { cpu: "1", memory: 2Gi } } }]
`,
    );
    // web: 2 x 250m on a c6g.medium (940m allocatable less 150m of DaemonSets); the report's 3 x 1 CPU do not
    // fit beside them, and take a c6g.xlarge (3920m, 6.4 GiB allocatable).
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.medium spot 2 pods"]);
    expect(nodesOf(scenario(plan, "jobs-burst"))).toEqual(["c6g.medium spot 2 pods", "c6g.xlarge spot 3 pods"]);
  });

  it("a pod that names its node (kubectl debug node/...) is bound there: Karpenter provisions nothing for it", () => {
    const plan = planOf(
      DEFAULT,
      `apiVersion: v1
kind: Pod
metadata: { name: node-debugger, namespace: kube-system }
spec:
  nodeName: ip-10-0-12-34.ec2.internal
  hostPID: true
  containers: [{ name: debugger, image: busybox, resources: { requests: { cpu: 100m } } }]
`,
    );
    expect(scenario(plan, "as-configured").nodeCount).toBe(0);
    expect(renderPlanTable(plan).split("\n")[1]).toBe("1 pod: 0 on Karpenter nodes, 0 on Fargate, 1 bound to named nodes");
    expect(plan.json.warnings).toContain(
      "pods that name their node (spec.nodeName) are bound to it already: Karpenter provisions nothing for them, and the plan launches no node for them: kube-system/node-debugger (1 pod on ip-10-0-12-34.ec2.internal)",
    );
  });

  it("a pod that selects its node by name (matchFields) is one Karpenter ignores: not provisioned, in Karpenter's words, beside the rest", () => {
    // Karpenter's Provisioner.Validate refuses a node selector term with matchFields, required or preferred; the
    // pod stays Pending. The file is planned: web still gets its node.
    const plan = planOf(
      DEFAULT,
      `${deployment("web", 1, "250m", "512Mi")}apiVersion: v1
kind: Pod
metadata: { name: pinned, namespace: default }
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchFields: [{ key: metadata.name, operator: In, values: [ip-10-0-12-34.ec2.internal] }]
  containers: [{ name: main, image: busybox, resources: { requests: { cpu: 100m } } }]
`,
    );
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.medium spot 1 pods"]);
    expect(scenario(plan, "as-configured").unschedulable).toEqual([
      { pod: "default/pinned", reason: "ignoring pod, node selector term with matchFields is not supported" },
    ]);
  });

  it("podinfo in a Fargate namespace: its frontend's host ports keep it Pending; its backend runs on Fargate", () => {
    const config = { name: "demo", fargate: { profiles: [{ name: "secure", namespaces: ["secure"] }] } };
    const plan = planOf(config, path.join(REAL, "podinfo-secure"));
    const reason =
      "Fargate profile secure selects it, and Fargate admits no pod with hostNetwork, hostPort or privileged containers (it has hostPort 80): it stays Pending, and Karpenter does not provision for a pod Fargate's scheduler owns";
    // Both HPAs start at 1 replica; with no pod for Karpenter's nodes, there is no autoscaled-max to plan.
    expect(plan.json.scenarios.map((s) => [s.name, s.nodeCount, s.unschedulable])).toEqual([
      ["as-configured", 0, [{ pod: "secure/frontend", reason }]],
      ["amd64-only", 0, [{ pod: "secure/frontend", reason }]],
      ["multiarch", 0, [{ pod: "secure/frontend", reason }]],
      ["on-demand-only", 0, [{ pod: "secure/frontend", reason }]],
    ]);
    expect(plan.json.fargateWorkload.items.map((i) => i.what)).toEqual(["Fargate: namespace secure, 1 pod"]);
    expect(renderPlanTable(plan).split("\n")[1]).toBe("2 pods: 0 on Karpenter nodes, 1 on Fargate, 1 unschedulable");
  });
});
