import { schedulingForms } from "../../../src/planner/simulation/preferences";
import { TOLERATE_PREFER_NO_SCHEDULE } from "../../../src/planner/simulation/taints";
import type { PodAffinityTerm, SpreadConstraint } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, podShape } from "./fixtures";

// The forms a pod is tried in, from the pod as written to the most relaxed, in preferences.go Relax's order:
// required node affinity terms one by one, then preferred pod affinity, preferred anti-affinity, preferred node
// affinity (heaviest first), ScheduleAnyway spreads, and last a toleration of PreferNoSchedule taints. Upstream
// tests named below are in kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/suite_test.go
// (Describe "Preferential Fallback"), topology_test.go and provisioning/suite_test.go.

const zoneIs = (...zones: string[]) => [inValues(LABEL.zone, ...zones)];
const term = (topologyKey: string, weight?: number): PodAffinityTerm => ({
  topologyKey,
  selector: { matchLabels: { app: "web" }, matchExpressions: [] },
  namespaces: { kind: "own" },
  matchLabelKeys: [],
  ...(weight === undefined ? {} : { weight }),
});
const spreadOn = (topologyKey: string, whenUnsatisfiable: SpreadConstraint["whenUnsatisfiable"]): SpreadConstraint => ({
  topologyKey,
  maxSkew: 1,
  whenUnsatisfiable,
  selector: { matchLabels: { app: "web" }, matchExpressions: [] },
  matchLabelKeys: [],
  nodeTaintsPolicy: "Ignore",
});

describe("preferences: required node affinity terms", () => {
  it("follows 'should relax multiple terms': each form uses the next term, in the order written", () => {
    const pod = podShape(100, 0, { affinityTerms: [zoneIs("invalid"), zoneIs("zone-a"), zoneIs("zone-b")] });
    const forms = schedulingForms(pod, false);
    expect(forms.map((f) => f.strict)).toEqual([zoneIs("invalid"), zoneIs("zone-a"), zoneIs("zone-b")]);
    expect(forms.map((f) => f.relaxed)).toEqual([
      [],
      ["its first required node affinity term"],
      ["its first required node affinity term", "its first required node affinity term"],
    ]);
  });

  it("follows 'should not relax the final term': one term, one form", () => {
    expect(schedulingForms(podShape(100, 0, { affinityTerms: [zoneIs("invalid")] }), false)).toHaveLength(1);
  });

  it("keeps the node selector in every form", () => {
    const pod = podShape(100, 0, { nodeSelector: [inValues(LABEL.arch, "arm64")], affinityTerms: [zoneIs("zone-a"), zoneIs("zone-b")] });
    expect(schedulingForms(pod, false).map((f) => f.requirements)).toEqual([
      [inValues(LABEL.arch, "arm64"), ...zoneIs("zone-a")],
      [inValues(LABEL.arch, "arm64"), ...zoneIs("zone-b")],
    ]);
  });
});

describe("preferences: preferred node affinity", () => {
  const preferred = podShape(100, 0, {
    preferredAffinity: [
      { weight: 1, requirements: zoneIs("zone-a") },
      { weight: 100, requirements: zoneIs("zone-c") },
      { weight: 50, requirements: zoneIs("zone-b") },
    ],
  });

  it("follows 'should relax to use lighter weights': the heaviest term is a requirement first, then the next heaviest", () => {
    expect(schedulingForms(preferred, false).map((f) => f.requirements)).toEqual([zoneIs("zone-c"), zoneIs("zone-b"), zoneIs("zone-a"), []]);
  });

  it("follows 'should schedule even if preference is conflicting with requirement': a preference never narrows the pod's own domains", () => {
    const both = podShape(100, 0, { affinityTerms: [zoneIs("zone-c")], preferredAffinity: [{ weight: 1, requirements: zoneIs("zone-a") }] });
    const [first] = schedulingForms(both, false);
    expect(first.strict).toEqual(zoneIs("zone-c"));
    expect(first.requirements).toEqual([...zoneIs("zone-c"), ...zoneIs("zone-a")]);
  });
});

describe("preferences: the order of relaxation (preferences.go Relax)", () => {
  it("gives up preferred pod affinity, then anti-affinity, then node affinity, then ScheduleAnyway spreads, then tolerates PreferNoSchedule", () => {
    const pod = podShape(100, 0, {
      preferredPodAffinity: [term(LABEL.hostname, 10)],
      preferredPodAntiAffinity: [term(LABEL.zone, 10)],
      preferredAffinity: [{ weight: 1, requirements: zoneIs("zone-a") }],
      topologySpread: [spreadOn(LABEL.zone, "ScheduleAnyway")],
    });
    expect(schedulingForms(pod, true).map((f) => f.relaxed[f.relaxed.length - 1] ?? "as written")).toEqual([
      "as written",
      "preferred pod affinity on kubernetes.io/hostname",
      "preferred pod anti-affinity on topology.kubernetes.io/zone",
      "a preferred node affinity term",
      "the ScheduleAnyway spread on topology.kubernetes.io/zone",
      "PreferNoSchedule taints",
    ]);
  });

  it("follows provisioning/suite_test.go 'should tolerate PreferNoSchedule taint only after trying to relax Affinity terms'", () => {
    const pod = podShape(100, 0, { preferredAffinity: [{ weight: 1, requirements: zoneIs("invalid") }] });
    const forms = schedulingForms(pod, true);
    expect(forms.map((f) => f.tolerations)).toEqual([[], [], [TOLERATE_PREFER_NO_SCHEDULE]]);
    // Without a PreferNoSchedule taint in any pool there is nothing to tolerate.
    expect(schedulingForms(pod, false)).toHaveLength(2);
  });

  it("follows topology_test.go 'should violate max-skew when unsat = schedule anyway': only ScheduleAnyway spreads are given up", () => {
    const pod = podShape(100, 0, {
      topologySpread: [spreadOn(LABEL.zone, "ScheduleAnyway"), spreadOn(LABEL.hostname, "DoNotSchedule"), spreadOn(LABEL.capacityType, "ScheduleAnyway")],
    });
    // The first ScheduleAnyway spread is swapped with the last and dropped: [capacity type, hostname], then [hostname].
    const keys = schedulingForms(pod, false).map((f) => f.constraints.map((c) => (c.kind === "spread" ? c.spread.topologyKey : c.kind)));
    expect(keys).toEqual([[LABEL.zone, LABEL.hostname, LABEL.capacityType], [LABEL.capacityType, LABEL.hostname], [LABEL.hostname]]);
  });

  it("keeps required pod affinity and anti-affinity in every form", () => {
    const pod = podShape(100, 0, {
      podAffinity: [term(LABEL.hostname)],
      podAntiAffinity: [term(LABEL.zone)],
      preferredAffinity: [{ weight: 1, requirements: [] }],
    });
    const kinds = schedulingForms(pod, false).map((f) => f.constraints.map((c) => `${c.kind}${c.kind !== "spread" && c.preferred ? " (preferred)" : ""}`));
    expect(kinds).toEqual([
      ["affinity", "anti-affinity"],
      ["affinity", "anti-affinity"],
    ]);
  });
});
