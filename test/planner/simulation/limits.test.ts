import type { PoolModel } from "../../../src/planner/model";
import { RemainingResources } from "../../../src/planner/simulation/limits";
import { MIB, newFitCache, offeringsOf, pool, typeNames } from "./fixtures";

// A NodePool's limits through one provisioning loop, worked out from the test catalogue's capacities: CPU is
// vCPUs x 1000 (small 2000m, large 4000m); memory is Karpenter's, after the VM overhead (ceil 7.5%, and 64 MiB
// less on Graviton first): m.small 4096 - 308 = 3788 MiB, g.small 4032 - 303 = 3729 MiB. Candidates in name
// order: g.large, g.small, m.large, m.small. Upstream tests named below are in kubernetes-sigs/karpenter v1.14.1
// pkg/controllers/provisioning/suite_test.go (Context "Limits").

function remainingOf(limits: PoolModel["limits"]) {
  const limited = pool("limited", { limits });
  const [offerings] = offeringsOf([limited], newFitCache());
  return { remaining: new RemainingResources(limited, offerings.options), candidates: offerings.options };
}

describe("RemainingResources: the types a new NodeClaim may take", () => {
  it("follows 'should not schedule if limits would be exceeded': only types whose capacity fits in what is left", () => {
    expect(typeNames(remainingOf({ cpu: 2000 }).remaining.instanceTypes())).toEqual(["g.small", "m.small"]);
    expect(typeNames(remainingOf({ cpu: 1999 }).remaining.instanceTypes())).toEqual([]);
  });

  it("counts memory after the VM overhead, the last MiB allowed and the first refused", () => {
    expect(typeNames(remainingOf({ memory: 3788 * MIB }).remaining.instanceTypes())).toEqual(["g.small", "m.small"]);
    expect(typeNames(remainingOf({ memory: 3787 * MIB }).remaining.instanceTypes())).toEqual(["g.small"]);
    expect(typeNames(remainingOf({ memory: 3728 * MIB }).remaining.instanceTypes())).toEqual([]);
  });

  it("leaves every type to a pool without limits, and never runs out of nodes", () => {
    const { remaining } = remainingOf({});
    expect(typeNames(remaining.instanceTypes())).toEqual(["g.large", "g.small", "m.large", "m.small"]);
    remaining.reserveLargest(remaining.instanceTypes());
    expect(remaining.nodesLeft).toBe(true);
  });
});

describe("RemainingResources: what NodeClaims and nodes take from the limits", () => {
  it("reserves the largest option of a new NodeClaim (scheduler.go subtractMax)", () => {
    // A NodeClaim that may be small or large reserves 4000m: of 6000m, 2000m are left, for a small type only.
    const { remaining, candidates } = remainingOf({ cpu: 6000 });
    remaining.reserveLargest(candidates.filter((c) => c.type.name.startsWith("m.")));
    expect(remaining.of("cpu")).toBe(2000);
    expect(typeNames(remaining.instanceTypes())).toEqual(["g.small", "m.small"]);
  });

  it("follows 'should not schedule to a nodepool after a scheduling round if limits would be exceeded': a running node counts at its capacity", () => {
    // cpu 2: a 2-vCPU node of the pool runs; nothing is left for another.
    const { remaining, candidates } = remainingOf({ cpu: 2000 });
    expect(typeNames(remaining.instanceTypes())).toEqual(["g.small", "m.small"]);
    remaining.subtract(candidates[3].capacity);
    expect(remaining.of("cpu")).toBe(0);
    expect(remaining.instanceTypes()).toEqual([]);
    expect(remaining.reached).toBe("its limits are reached (cpu 2)");
  });

  it("counts NodeClaims and nodes against a nodes limit", () => {
    const { remaining, candidates } = remainingOf({ nodes: 2 });
    remaining.subtract(candidates[0].capacity);
    expect(remaining.nodesLeft).toBe(true);
    remaining.reserveLargest([candidates[1]]);
    expect(remaining.nodesLeft).toBe(false);
    expect(remaining.of("nodes")).toBe(0);
  });

  it("says the limits in the units people write them", () => {
    expect(remainingOf({ cpu: 1000_000, memory: 1000 * 1024 * MIB }).remaining.reached).toBe("its limits are reached (cpu 1000, memory 1000 GiB)");
    expect(remainingOf({ cpu: 500 }).remaining.reached).toBe("its limits are reached (cpu 500m)");
  });
});
