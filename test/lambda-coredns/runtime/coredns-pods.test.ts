import { corednsPodsPath, describePod, isRunningOnFargate, type PodState, readPodList } from "../../../src/lambda-coredns/runtime/coredns-pods";
import { podList } from "./fake-kube-api";

describe("corednsPodsPath", () => {
  it("selects the pods by the Deployment's matchLabels, sorted by key and URL-encoded", () => {
    expect(corednsPodsPath({ "k8s-app": "kube-dns", "eks.amazonaws.com/component": "coredns" })).toBe(
      "/api/v1/namespaces/kube-system/pods?labelSelector=eks.amazonaws.com%2Fcomponent%3Dcoredns%2Ck8s-app%3Dkube-dns",
    );
  });

  it("sends no selector when the Deployment has no matchLabels", () => {
    expect(corednsPodsPath({})).toBe("/api/v1/namespaces/kube-system/pods");
  });
});

describe("readPodList", () => {
  it("reads each pod's name, phase, node, Fargate profile and whether it is terminating", () => {
    const json = podList([
      { name: "coredns-a", phase: "Running", nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal", fargateProfile: "kube-system" },
      { name: "coredns-b", terminating: true },
    ]);
    expect(readPodList(json)).toEqual([
      { name: "coredns-a", phase: "Running", nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal", fargateProfile: "kube-system", terminating: false },
      { name: "coredns-b", phase: "Pending", nodeName: undefined, fargateProfile: undefined, terminating: true },
    ]);
  });

  it("reads a pod with no status or spec as unscheduled, phase Unknown", () => {
    expect(readPodList({ kind: "PodList", items: [{ metadata: { name: "coredns-x" } }, {}] })).toEqual([
      { name: "coredns-x", phase: "Unknown", nodeName: undefined, fargateProfile: undefined, terminating: false },
      { name: "(unnamed)", phase: "Unknown", nodeName: undefined, fargateProfile: undefined, terminating: false },
    ]);
  });

  it("rejects an answer that is not a PodList", () => {
    expect(() => readPodList({ kind: "Status" })).toThrow("expected a PodList, got kind Status");
    expect(() => readPodList({ kind: "PodList" })).toThrow("expected a PodList, got kind PodList");
    expect(() => readPodList(null)).toThrow("expected a PodList, got something else");
  });
});

describe("isRunningOnFargate", () => {
  const onFargate: PodState = {
    name: "coredns-a",
    phase: "Running",
    nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal",
    fargateProfile: "kube-system",
    terminating: false,
  };

  it("is true for a running pod on a fargate-* node with the profile label", () => {
    expect(isRunningOnFargate(onFargate)).toBe(true);
  });

  it.each<[string, Partial<PodState>]>([
    ["it is still Pending (handed to Fargate, not started)", { phase: "Pending", nodeName: undefined }],
    ["it runs on an EC2 node", { nodeName: "ip-10-0-3-7.eu-west-1.compute.internal", fargateProfile: undefined }],
    ["it carries the profile label but runs on an EC2 node (the label can be set by hand)", { nodeName: "ip-10-0-3-7.eu-west-1.compute.internal" }],
    ["its node is named fargate-* but it has no profile label", { fargateProfile: undefined }],
    ["it has failed", { phase: "Failed" }],
  ])("is false when %s", (_, change) => {
    expect(isRunningOnFargate({ ...onFargate, ...change })).toBe(false);
  });
});

describe("describePod", () => {
  it("names the pod, its phase, node and profile in one line", () => {
    expect(
      describePod({
        name: "coredns-a",
        phase: "Running",
        nodeName: "fargate-ip-10-0-1-5.eu-west-1.compute.internal",
        fargateProfile: "kube-system",
        terminating: false,
      }),
    ).toBe("coredns-a Running on fargate-ip-10-0-1-5.eu-west-1.compute.internal, Fargate profile kube-system");
    expect(describePod({ name: "coredns-b", phase: "Pending", nodeName: undefined, fargateProfile: undefined, terminating: true })).toBe(
      "coredns-b Pending on no node, no Fargate profile, terminating",
    );
  });
});
