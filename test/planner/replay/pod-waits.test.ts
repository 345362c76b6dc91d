import { PodWaits } from "../../../src/planner/replay/pod-waits";

describe("pod waits", () => {
  it("reads p50, p95 and max by nearest rank from counts of pods by wait", () => {
    const waits = new PodWaits();
    waits.add(0, 90);
    waits.add(61, 9);
    waits.add(120, 1);
    // 100 pods: the 50th waited 0 s, the 95th 61 s, the last 120 s.
    expect(waits.summary()).toEqual({ pods: 100, p50: 0, p95: 61, max: 120 });
  });

  it("says zero for no pods", () => {
    expect(new PodWaits().summary()).toEqual({ pods: 0, p50: 0, p95: 0, max: 0 });
  });
});
