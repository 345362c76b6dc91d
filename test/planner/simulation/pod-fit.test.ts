import type { PoolModel } from "../../../src/planner/model";
import type { PodForm } from "../../../src/planner/simulation/pod-fit";
import { schedulingForms } from "../../../src/planner/simulation/preferences";
import type { PodShape } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, newFitCache, offeringsOf, podShape, pool, typeNames } from "./fixtures";

// Whether a pod, in one of its forms, can run on a node of a NodePool, and on which of its types: the pool's
// taints, then each requirement against the type labels, the offerings (capacity type, zone) or the pool's own
// labels. Upstream tests named below are in kubernetes-sigs/karpenter v1.14.1
// pkg/controllers/provisioning/scheduling/suite_test.go, Describe "Custom Constraints".

function fitOf(pod: PodShape, poolModel: PoolModel = pool("default")) {
  const fits = newFitCache();
  const [offerings] = offeringsOf([poolModel], fits);
  const form: PodForm = schedulingForms(pod, false)[0];
  const result = fits.fit(form, offerings);
  return {
    result,
    accepted: result.ok ? typeNames(offerings.options.filter((c) => result.value.accepts[c.index] === 1)) : [],
  };
}

describe("FitCache: a pod's requirements against a pool (Context 'NodePool with Labels')", () => {
  const labelled = pool("labelled", { labels: { "test-key": "test-value" } });

  it("follows 'should schedule unconstrained pods that don't have matching node selectors'", () => {
    expect(fitOf(podShape(10, 0), labelled).result.ok).toBe(true);
  });

  it("follows 'should not schedule pods that have conflicting node selectors'", () => {
    expect(fitOf(podShape(10, 0, { nodeSelector: [inValues("test-key", "different-value")] }), labelled).result).toEqual({
      ok: false,
      reason: "requires test-key In [different-value], which the pool's labels and requirements do not provide",
    });
  });

  it("follows 'should not schedule pods that have node selectors with undefined key'", () => {
    expect(fitOf(podShape(10, 0, { nodeSelector: [inValues("test-key", "test-value")] })).result.ok).toBe(false);
  });

  it("follows 'should schedule pods that have matching requirements'", () => {
    expect(fitOf(podShape(10, 0, { affinityTerms: [[inValues("test-key", "test-value", "another-value")]] }), labelled).result.ok).toBe(true);
  });

  it("matches the pool's own name (karpenter.sh/nodepool) and nothing else", () => {
    expect(fitOf(podShape(10, 0, { nodeSelector: [inValues(LABEL.nodePool, "default")] })).result.ok).toBe(true);
    expect(fitOf(podShape(10, 0, { nodeSelector: [inValues(LABEL.nodePool, "other")] })).result.ok).toBe(false);
  });
});

describe("FitCache: well-known labels (Context 'Well Known Labels')", () => {
  const zoneA = pool("zone-a", { requirements: [inValues(LABEL.zone, "zone-a")] });

  it("follows 'should not schedule if node selector outside of NodePool constraints'", () => {
    expect(fitOf(podShape(10, 0, { nodeSelector: [inValues(LABEL.zone, "zone-b")] }), zoneA).result).toEqual({
      ok: false,
      reason: "requires a zone the pool cannot launch in (zone-a)",
    });
  });

  it("follows 'should schedule compatible requirements with Operator=NotIn': the zones left", () => {
    const notIn = podShape(10, 0, { affinityTerms: [[{ key: LABEL.zone, operator: "NotIn", values: ["zone-a", "zone-b", "unknown"] }]] });
    const { result } = fitOf(notIn);
    expect(result.ok && result.value.zones).toEqual(["zone-c"]);
  });

  it("follows 'should exclude instance types that are not supported by the pod constraints (node affinity/instance type)'", () => {
    const amd = pool("amd", { requirements: [inValues(LABEL.arch, "amd64")] });
    expect(fitOf(podShape(10, 0, { affinityTerms: [[inValues(LABEL.instanceType, "g.small")]] }), amd).result).toEqual({
      ok: false,
      reason: "requires node.kubernetes.io/instance-type In [g.small], which none of the pool's instance types has",
    });
  });

  it("accepts the types whose labels meet the pod's type requirements", () => {
    expect(fitOf(podShape(10, 0, { nodeSelector: [inValues(LABEL.instanceSize, "large")] })).accepted).toEqual(["g.large", "m.large"]);
  });

  it("narrows the capacity types to the pod's", () => {
    const { result } = fitOf(podShape(10, 0, { nodeSelector: [inValues(LABEL.capacityType, "on-demand")] }));
    expect(result.ok && result.value.capacityTypes).toEqual(["on-demand"]);
  });
});

describe("FitCache: caching", () => {
  it("answers the same form on the same pool once, and shares a mask between forms with the same type requirements", () => {
    const fits = newFitCache();
    const [offerings] = offeringsOf([pool("default")], fits);
    const arm = schedulingForms(podShape(10, 0, { nodeSelector: [inValues(LABEL.arch, "arm64")] }), false)[0];
    const armTolerant = schedulingForms(podShape(10, 0, { nodeSelector: [inValues(LABEL.arch, "arm64")], tolerations: [{ operator: "Exists" }] }), false)[0];
    const first = fits.fit(arm, offerings);
    expect(fits.fit(arm, offerings)).toBe(first);
    const second = fits.fit(armTolerant, offerings);
    expect(second).not.toBe(first);
    expect(first.ok && second.ok && first.value.accepts === second.value.accepts).toBe(true);
  });
});
