import { podsToDelete } from "../../../src/planner/replay/scale-down-order";

// The ReplicaSet's choice of pods to delete among running ones (ActivePodsWithRanks.Less): the pods on the node with
// the most of the workload's pods first, all of them before the next node's; between nodes as crowded, the pods
// ready for less time first.

describe("scale-down order", () => {
  const node = (name: string, count: number, readySince: number) => ({ node: name, name, count, readySince });

  it("takes every pod of the most crowded node before any of the next", () => {
    expect(podsToDelete([node("a", 2, 0), node("b", 5, 0), node("c", 3, 0)], 6)).toEqual([
      { node: "b", count: 5 },
      { node: "c", count: 1 },
    ]);
  });

  it("between nodes as crowded, deletes the pods that have been ready for less time first, then by name", () => {
    expect(podsToDelete([node("a", 3, 100), node("b", 3, 500), node("c", 3, 500)], 4)).toEqual([
      { node: "b", count: 3 },
      { node: "c", count: 1 },
    ]);
  });

  it("deletes no more than it has, and nothing for nothing", () => {
    expect(podsToDelete([node("a", 2, 0)], 5)).toEqual([{ node: "a", count: 2 }]);
    expect(podsToDelete([node("a", 2, 0)], 0)).toEqual([]);
  });
});
