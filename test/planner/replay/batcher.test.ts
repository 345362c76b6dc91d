import { Batcher } from "../../../src/planner/replay/batcher";

// Karpenter's batch window (batcher.go Wait): opened by the first pod, closed after 1 s without a new pod or 10 s
// after it opened, whichever comes first. There is no batcher test upstream; these follow Wait's code.

describe("batcher", () => {
  const timing = { batchIdleSeconds: 1, batchMaxSeconds: 10 };

  it("has no window until a pod comes", () => {
    expect(new Batcher(timing).closesAt()).toBeUndefined();
  });

  it("closes 1 s after the last new pod while pods come less than a second apart", () => {
    const batcher = new Batcher(timing);
    batcher.trigger(100);
    batcher.trigger(100.5);
    batcher.trigger(101.2);
    expect(batcher.closesAt()).toBe(102.2);
  });

  it("closes 10 s after it opened however the pods keep coming", () => {
    const batcher = new Batcher(timing);
    for (let t = 100; t <= 112; t += 0.5) batcher.trigger(t);
    expect(batcher.closesAt()).toBe(110);
  });

  it("opens afresh after it closed", () => {
    const batcher = new Batcher({ batchIdleSeconds: 2, batchMaxSeconds: 30 });
    batcher.trigger(100);
    batcher.close();
    expect(batcher.closesAt()).toBeUndefined();
    batcher.trigger(200);
    expect(batcher.closesAt()).toBe(202);
  });
});
