import { EmptiestFirst } from "../../../src/planner/simulation/emptiest-first";

// The order in which in-flight NodeClaims are offered a pod: fewest pods first (scheduler.go add sorts
// newNodeClaims by len(Pods) before each pod), ties by age, the planner's choice where Go's unstable sort leaves
// the order open. No upstream test pins this order on its own; the effect is pinned by hand end to end in
// test/planner/plan/simulate.test.ts ("emptiest first: mixed sizes spread over the open NodeClaims").

/** A stand-in NodeClaim: its pods and its age. */
const claim = (id: number, podCount = 0) => ({ id, podCount });

const ids = (order: EmptiestFirst<{ id: number; podCount: number }>) => order.nodeClaims.map((nc) => nc.id);

describe("EmptiestFirst: follows scheduler.go add's sort of newNodeClaims by len(Pods) (no upstream test names the order)", () => {
  it("offers the NodeClaim with the fewest pods first, the oldest of equals first", () => {
    const order = new EmptiestFirst<{ id: number; podCount: number }>();
    order.add(claim(1, 3));
    order.add(claim(2, 1));
    order.add(claim(3, 1));
    order.add(claim(4, 0));
    expect(ids(order)).toEqual([4, 2, 3, 1]);
  });

  it("moves a NodeClaim that took a pod behind the others with as many pods", () => {
    const order = new EmptiestFirst<{ id: number; podCount: number }>();
    const [a, b, c] = [claim(1), claim(2), claim(3)];
    for (const nc of [a, b, c]) order.add(nc);
    a.podCount++;
    order.moved(0);
    expect(ids(order)).toEqual([2, 3, 1]);
    b.podCount++;
    order.moved(0);
    expect(ids(order)).toEqual([3, 1, 2]);
    c.podCount += 2;
    order.moved(0);
    expect(ids(order)).toEqual([1, 2, 3]);
  });

  it("drops the NodeClaims no pod can join any more, keeping the order of the rest", () => {
    const order = new EmptiestFirst<{ id: number; podCount: number }>();
    for (const nc of [claim(1, 0), claim(2, 5), claim(3, 1), claim(4, 5)]) order.add(nc);
    order.prune((nc) => nc.podCount >= 5);
    expect(ids(order)).toEqual([1, 3]);
  });
});
