import {
  type DeploymentState,
  describeRollout,
  isFullyAvailable,
  isRolledOut,
  readDeploymentState,
  renderCorednsPatch,
} from "../../../src/lambda-coredns/runtime/coredns-deployment";
import { ROLLED_OUT } from "./deployment-fixtures";
import { corednsDeployment } from "./fake-kube-api";

describe("renderCorednsPatch", () => {
  it("deletes only the compute-type key with null and sets restartedAt", () => {
    expect(JSON.stringify(renderCorednsPatch({ removeComputeType: true, restartedAt: "2025-01-02T03:04:05.000Z" }))).toBe(
      '{"spec":{"template":{"metadata":{"annotations":{"eks.amazonaws.com/compute-type":null,"kubectl.kubernetes.io/restartedAt":"2025-01-02T03:04:05.000Z"}}}}}',
    );
  });

  it("only restarts when the annotation is absent", () => {
    expect(renderCorednsPatch({ removeComputeType: false, restartedAt: "2025-01-02T03:04:05.000Z" })).toEqual({
      spec: { template: { metadata: { annotations: { "kubectl.kubernetes.io/restartedAt": "2025-01-02T03:04:05.000Z" } } } },
    });
  });

  it("never uses the $patch directive, which would wipe every pod-template annotation", () => {
    expect(JSON.stringify(renderCorednsPatch({ removeComputeType: true, restartedAt: "x" }))).not.toContain("$patch");
  });
});

describe("readDeploymentState", () => {
  it("reads the annotation and the rollout counters", () => {
    const json = corednsDeployment({
      annotations: { "eks.amazonaws.com/compute-type": "ec2", "other/annotation": "kept" },
      generation: 3,
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 1,
      availableReplicas: 1,
      totalReplicas: 3,
    });
    expect(readDeploymentState(json)).toEqual({
      computeType: "ec2",
      generation: 3,
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 1,
      availableReplicas: 1,
      totalReplicas: 3,
      matchLabels: { "eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns" },
    });
  });

  it("keeps only the string values of the selector's matchLabels", () => {
    const json = { kind: "Deployment", spec: { selector: { matchLabels: { "k8s-app": "kube-dns", odd: 3 }, matchExpressions: [] } } };
    expect(readDeploymentState(json).matchLabels).toEqual({ "k8s-app": "kube-dns" });
  });

  it("treats omitted status counters as zero and an omitted replica count as one", () => {
    expect(readDeploymentState({ kind: "Deployment", metadata: { generation: 1 }, spec: { template: {} } })).toEqual({
      computeType: undefined,
      generation: 1,
      observedGeneration: 0,
      replicas: 1,
      updatedReplicas: 0,
      availableReplicas: 0,
      totalReplicas: 0,
      matchLabels: {},
    });
  });

  it("rejects an answer that is not a Deployment", () => {
    expect(() => readDeploymentState({ kind: "Status" })).toThrow("expected a Deployment, got kind Status");
    expect(() => readDeploymentState([])).toThrow("expected a Deployment, got something else");
  });
});

describe("isRolledOut", () => {
  const done: DeploymentState = {
    computeType: undefined,
    generation: 2,
    observedGeneration: 2,
    replicas: 2,
    updatedReplicas: 2,
    availableReplicas: 1,
    totalReplicas: 2,
    matchLabels: { "k8s-app": "kube-dns" },
  };

  it("is true once the new template is observed, fully rolled and one pod is available", () => {
    expect(isRolledOut(done)).toBe(true);
  });

  it.each<[string, Partial<DeploymentState>]>([
    ["the controller has not seen the patch yet", { observedGeneration: 1 }],
    ["some replicas still run the old template", { updatedReplicas: 1 }],
    ["no pod is available", { availableReplicas: 0 }],
    ["an old pod is still there (and may be the available one)", { totalReplicas: 3 }],
  ])("is false when %s", (_, change) => {
    expect(isRolledOut({ ...done, ...change })).toBe(false);
  });

  it("describes the counters for error messages", () => {
    expect(describeRollout(done)).toBe("availableReplicas=1 updatedReplicas=2 replicas=2 observedGeneration=2 generation=2 totalReplicas=2");
  });
});

describe("isFullyAvailable", () => {
  const complete: DeploymentState = ROLLED_OUT;

  it("is true when every desired replica is available on the latest template", () => {
    expect(isFullyAvailable(complete)).toBe(true);
  });

  it.each<[string, Partial<DeploymentState>]>([
    ["only one of two replicas is available (enough for isRolledOut)", { availableReplicas: 1 }],
    ["the controller has not seen the latest template", { observedGeneration: 1 }],
    ["a replica still runs an older template", { updatedReplicas: 1 }],
    ["an old pod is still there", { totalReplicas: 3 }],
    ["the Deployment is scaled to zero", { replicas: 0, updatedReplicas: 0, availableReplicas: 0, totalReplicas: 0 }],
  ])("is false when %s", (_, change) => {
    expect(isFullyAvailable({ ...complete, ...change })).toBe(false);
  });
});
