import { readWorkload } from "../../../src/planner/workload/read-workload";
import { problemsOf } from "../../helpers/problems";
import { nodesOf, planOf, scenario, workloadFile } from "../helpers";

// What the API server refuses in a container's resources is a problem of the workload, not a plan: every one at
// once, each naming the document, the field, the value and the rule (pkg/apis/core/validation
// ValidateResourceRequirements). Each refused case has a valid neighbour that plans.

/** A GPU Deployment whose one container has this resources block (YAML flow mapping). */
const gpuJob = (name: string, resources: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name} }
spec:
  template:
    spec:
      nodeSelector: { karpenter.k8s.aws/instance-family: g5 }
      tolerations: [{ key: nvidia.com/gpu, operator: Exists }]
      containers: [{ name: train, resources: ${resources} }]
---
`;

/** A GPU pool, for the neighbours that plan. */
const GPU_CLUSTER = {
  name: "demo",
  nodePools: [{ name: "gpu", instanceFamilies: ["g5"], capacityTypes: ["on-demand"], taints: [{ key: "nvidia.com/gpu", effect: "NoSchedule" }] }],
};

describe("container resources the API server refuses", () => {
  it("a request above its limit; an extended resource that is a fraction, has no limit, or whose request differs from its limit", () => {
    const file = workloadFile(
      [
        gpuJob("over-limit", "{ requests: { cpu: 2, memory: 1Gi }, limits: { cpu: 1, memory: 1Gi } }"),
        gpuJob("half-a-gpu", "{ limits: { nvidia.com/gpu: 0.5 } }"),
        gpuJob("no-gpu-limit", "{ requests: { cpu: 1, nvidia.com/gpu: 1 } }"),
        gpuJob("two-of-one", "{ requests: { nvidia.com/gpu: 1 }, limits: { nvidia.com/gpu: 2 } }"),
      ].join(""),
    );
    const at = (n: number, name: string) => `${file}: document ${n} (Deployment ${name}): spec.template.spec.containers[0].resources`;
    expect(problemsOf(() => readWorkload(file))).toEqual([
      `${at(1, "over-limit")}.requests.cpu: got 2; must be at most its limit (1): the API server refuses a request above its limit`,
      `${at(2, "half-a-gpu")}.limits.nvidia.com/gpu: got 0.5; must be a whole number: the API server refuses a fraction of an extended resource`,
      `${at(3, "no-gpu-limit")}.requests.nvidia.com/gpu: got 1; needs a limit too: the API server refuses nvidia.com/gpu requested without a limit (set the limit; the request may then be left out)`,
      `${at(4, "two-of-one")}.requests.nvidia.com/gpu: got 1; must equal its limit (2): nvidia.com/gpu cannot be overcommitted`,
    ]);
  });

  it("their valid neighbours plan: a request at its limit, a GPU by its limit alone, a GPU whose request equals its limit", () => {
    const plan = planOf(
      GPU_CLUSTER,
      [
        gpuJob("at-limit", "{ requests: { cpu: 1, memory: 1Gi }, limits: { cpu: 1, memory: 2Gi } }"),
        gpuJob("one-gpu", "{ limits: { nvidia.com/gpu: 1 } }"),
        gpuJob("matched", "{ requests: { nvidia.com/gpu: 1 }, limits: { nvidia.com/gpu: 1 } }"),
      ].join(""),
    );
    const asConfigured = scenario(plan, "as-configured");
    // The 1-CPU pod opens a NodeClaim of every g5; each GPU pod joins it while a type still holds them all: two
    // GPUs leave the types with four or more (g5.12xlarge, 24xlarge, 48xlarge), of which g5.12xlarge is the cheapest.
    expect(nodesOf(asConfigured)).toEqual(["g5.12xlarge on-demand 3 pods"]);
    expect(asConfigured.unschedulable).toEqual([]);
  });

  it("checks pod-level resources (spec.resources) against the containers: no request below theirs, no limit below one of theirs", () => {
    const pod = {
      resources: { requests: { cpu: "500m", "nvidia.com/gpu": 1 }, limits: { memory: "256Mi" } },
      containers: [
        { name: "app", resources: { requests: { cpu: "400m" }, limits: { memory: "512Mi" } } },
        { name: "proxy", resources: { requests: { cpu: "200m" } } },
      ],
    };
    const file = workloadFile(
      `${JSON.stringify({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { template: { spec: pod } } })}\n`,
    );
    const at = `${file}: document 1 (Deployment web): spec.template.spec.resources`;
    expect(problemsOf(() => readWorkload(file))).toEqual([
      `${at}.requests.nvidia.com/gpu: got 1; needs a limit too: the API server refuses nvidia.com/gpu requested without a limit (set the limit; the request may then be left out)`,
      `${at}.requests.nvidia.com/gpu: got 1; is not a pod-level resource: spec.resources takes cpu, memory and hugepages-* only`,
      `${at}.requests.cpu: got "500m"; must be at least what the containers request together (600m): the API server refuses a pod-level request below it`,
      `${at}.limits.memory: got "256Mi"; must be at least each container's limit (one has 512 MiB): the API server refuses a pod-level limit below it`,
    ]);
  });
});
