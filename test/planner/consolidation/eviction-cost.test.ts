import { evictionCost, rescheduleCost } from "../../../src/planner/consolidation/eviction-cost";
import { podGroup, podShape } from "../simulation/fixtures";

// EvictionCost (kubernetes-sigs/karpenter v1.14.1 pkg/utils/disruption/disruption.go): 1, plus the deletion cost
// over 2^27, plus the priority over 2^25, kept within [-10, 10].

const withDisruption = (deletionCost: number, priority: number) => ({
  ...podGroup("p", 1, podShape(100, 100)),
  disruption: { doNotDisrupt: false, deletionCost, priority },
});

describe("what evicting a pod costs", () => {
  it("is 1 for an ordinary pod, and moves with its deletion cost and priority", () => {
    expect(evictionCost(podGroup("p", 1, podShape(100, 100)))).toBe(1);
    expect(evictionCost(withDisruption(2 ** 27, 0))).toBe(2);
    expect(evictionCost(withDisruption(0, 2 ** 25))).toBe(2);
    expect(evictionCost(withDisruption(-(2 ** 27), 0))).toBe(0);
  });

  it("stays within -10 and 10: a system-cluster-critical pod (priority 2,000,000,000) costs 10", () => {
    expect(evictionCost(withDisruption(0, 2_000_000_000))).toBe(10);
    expect(evictionCost(withDisruption(-(2 ** 31), 0))).toBe(-10);
  });

  it("adds up per node from 1, counting only positive pod costs: a node of free-to-evict pods is empty", () => {
    expect(rescheduleCost([])).toBe(1);
    expect(rescheduleCost([{ group: podGroup("p", 3, podShape(100, 100)), count: 3 }])).toBe(4);
    expect(rescheduleCost([{ group: withDisruption(-(2 ** 28), 0), count: 5 }])).toBe(1);
  });
});
