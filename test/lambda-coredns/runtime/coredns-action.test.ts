import { decideCorednsAction } from "../../../src/lambda-coredns/runtime/coredns-action";
import type { DeploymentState } from "../../../src/lambda-coredns/runtime/coredns-deployment";
import type { PodState } from "../../../src/lambda-coredns/runtime/coredns-pods";
import { ROLLED_OUT } from "./deployment-fixtures";

const FIXED: DeploymentState = ROLLED_OUT;
const ON_FARGATE: readonly PodState[] = [
  { name: "coredns-a", phase: "Running", nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal", fargateProfile: "kube-system", terminating: false },
  { name: "coredns-b", phase: "Running", nodeName: "fargate-ip-10-0-2-9.eu-west-1.compute.internal", fargateProfile: "kube-system", terminating: false },
];
const PENDING: PodState = { name: "coredns-p", phase: "Pending", nodeName: undefined, fargateProfile: undefined, terminating: false };
const NO_ANNOTATION = "the pod template has no eks.amazonaws.com/compute-type annotation";

describe("decideCorednsAction", () => {
  it("does nothing when the annotation is gone, every pod runs on Fargate and every replica is available", () => {
    expect(decideCorednsAction(FIXED, ON_FARGATE)).toEqual({
      action: "none",
      reason: `${NO_ANNOTATION}, all 2 coredns pods run on Fargate and 2 of 2 replicas are available`,
    });
  });

  it("removes the annotation and restarts while the annotation is there, whatever its value and wherever the pods run", () => {
    for (const value of ["ec2", "fargate", ""]) {
      expect(decideCorednsAction({ ...FIXED, computeType: value }, ON_FARGATE)).toEqual({
        action: "restart",
        removeComputeType: true,
        reason: `the pod template has eks.amazonaws.com/compute-type=${value}`,
      });
    }
  });

  it("only restarts when the annotation is gone but the pods are Pending (created before the profile existed)", () => {
    const pending = [PENDING, { ...PENDING, name: "coredns-q" }];
    const deployment = { ...FIXED, availableReplicas: 0 };
    expect(decideCorednsAction(deployment, pending)).toEqual({
      action: "restart",
      removeComputeType: false,
      reason:
        `${NO_ANNOTATION}, but 2 of 2 coredns pods not running on Fargate: ` +
        "coredns-p Pending on no node, no Fargate profile; coredns-q Pending on no node, no Fargate profile",
    });
  });

  it("only restarts when one pod of an otherwise complete rollout runs on an EC2 node", () => {
    const onEc2: PodState = { ...ON_FARGATE[1], nodeName: "ip-10-0-3-7.eu-west-1.compute.internal", fargateProfile: undefined };
    expect(decideCorednsAction(FIXED, [ON_FARGATE[0], onEc2])).toEqual({
      action: "restart",
      removeComputeType: false,
      reason: `${NO_ANNOTATION}, but 1 of 2 coredns pods not running on Fargate: coredns-b Running on ip-10-0-3-7.eu-west-1.compute.internal, no Fargate profile`,
    });
  });

  it("only restarts when the pods run on Fargate but the rollout is not complete", () => {
    expect(decideCorednsAction({ ...FIXED, availableReplicas: 1 }, ON_FARGATE)).toEqual({
      action: "restart",
      removeComputeType: false,
      reason:
        `${NO_ANNOTATION}, but the rollout is not complete: ` +
        "availableReplicas=1 updatedReplicas=2 replicas=2 observedGeneration=2 generation=2 totalReplicas=2",
    });
  });

  it("only restarts when no coredns pod is found, although the Deployment counts them available", () => {
    expect(decideCorednsAction(FIXED, [])).toEqual({
      action: "restart",
      removeComputeType: false,
      reason: `${NO_ANNOTATION}, but no coredns pod was found, terminating ones aside`,
    });
  });

  it("ignores a terminating pod that is not on Fargate", () => {
    expect(decideCorednsAction(FIXED, [...ON_FARGATE, { ...PENDING, terminating: true }])).toMatchObject({ action: "none" });
  });

  it("restarts when every pod is terminating", () => {
    const leaving = ON_FARGATE.map((pod) => ({ ...pod, terminating: true }));
    expect(decideCorednsAction(FIXED, leaving)).toMatchObject({
      action: "restart",
      reason: `${NO_ANNOTATION}, but no coredns pod was found, terminating ones aside`,
    });
  });
});
