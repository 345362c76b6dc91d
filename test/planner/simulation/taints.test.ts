import type { Taint } from "../../../src/planner/model";
import { formatTaint, TOLERATE_PREFER_NO_SCHEDULE, untoleratedTaint } from "../../../src/planner/simulation/taints";
import type { Toleration } from "../../../src/planner/workload/workload-model";

// Upstream tests named below are kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/suite_test.go.
// Karpenter's taint check (pkg/scheduling/taints.go Taints.Tolerates, through corev1 Toleration.ToleratesTaint):
// a taint is tolerated by a toleration of its effect (or of none), matching its key with Exists or its key and
// value with Equal; an empty key with Exists matches every key.

const gpu: Taint = { key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" };

describe("taints: follows provisioning/suite_test.go Context('Taints') 'should schedule pods that tolerate taints'", () => {
  it.each<[string, Toleration]>([
    ["Equal on key, value and effect", { key: "nvidia.com/gpu", operator: "Equal", value: "true", effect: "NoSchedule" }],
    ["Exists on key and effect", { key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }],
    ["Exists on the key, any effect", { key: "nvidia.com/gpu", operator: "Exists" }],
    ["Exists with no key: every taint", { operator: "Exists" }],
    ["Exists with no key, of the taint's effect", { operator: "Exists", effect: "NoSchedule" }],
  ])("tolerated by %s", (_, toleration) => {
    expect(untoleratedTaint([toleration], [gpu])).toBeUndefined();
  });

  it.each<[string, readonly Toleration[]]>([
    ["no toleration", []],
    ["another key with Exists", [{ key: "invalid", operator: "Exists" }]],
    ["another value with Equal", [{ key: "nvidia.com/gpu", operator: "Equal", value: "false", effect: "NoSchedule" }]],
    ["the key with another effect (NoExecute)", [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoExecute" }]],
    [
      "Equal on key and value with another effect (PreferNoSchedule)",
      [{ key: "nvidia.com/gpu", operator: "Equal", value: "true", effect: "PreferNoSchedule" }],
    ],
    ["Exists with no key, of another effect", [{ operator: "Exists", effect: "NoExecute" }]],
  ])("not tolerated by %s", (_, tolerations) => {
    expect(untoleratedTaint(tolerations, [gpu])).toBe(gpu);
  });

  it("names the first taint of several that is not tolerated", () => {
    const team: Taint = { key: "example.com/team", value: "a", effect: "NoExecute" };
    expect(untoleratedTaint([{ key: "nvidia.com/gpu", operator: "Exists" }], [gpu, team])).toBe(team);
    expect(untoleratedTaint([], [])).toBeUndefined();
  });
});

describe("PreferNoSchedule: follows provisioning/suite_test.go 'should tolerate PreferNoSchedule taint only after trying to relax Affinity terms'", () => {
  const prefer: Taint = { key: "example.com/team", value: "a", effect: "PreferNoSchedule" };

  it("is a taint to tolerate until the last relaxation adds the toleration Karpenter adds", () => {
    expect(untoleratedTaint([], [prefer])).toBe(prefer);
    expect(untoleratedTaint([TOLERATE_PREFER_NO_SCHEDULE], [prefer])).toBeUndefined();
  });

  it("the added toleration tolerates no other effect", () => {
    expect(untoleratedTaint([TOLERATE_PREFER_NO_SCHEDULE], [gpu])).toBe(gpu);
  });
});

describe("formatTaint: kubectl's key=value:Effect", () => {
  it("leaves out a missing value", () => {
    expect(formatTaint(gpu)).toBe("nvidia.com/gpu=true:NoSchedule");
    expect(formatTaint({ key: "dedicated", effect: "NoExecute" })).toBe("dedicated:NoExecute");
  });
});
