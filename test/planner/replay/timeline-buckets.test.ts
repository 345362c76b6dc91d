import { humanDuration, sparkline, timelineBuckets } from "../../../src/planner/replay/timeline-buckets";

describe("timeline buckets", () => {
  it("shows each interval's most nodes and pending pods, a burst shorter than an interval too", () => {
    const timeline = [
      { t: 0, nodes: 1, pending: 0, hourlyUsd: 0 },
      { t: 600, nodes: 1, pending: 10, hourlyUsd: 0 },
      { t: 601, nodes: 2, pending: 10, hourlyUsd: 0 },
      { t: 661, nodes: 2, pending: 0, hourlyUsd: 0 },
      { t: 2000, nodes: 1, pending: 0, hourlyUsd: 0 },
    ];
    const b = timelineBuckets(timeline, 2400, 4);
    expect(b).toEqual({ seconds: 600, starts: [0, 600, 1200, 1800], nodes: [1, 2, 2, 2], pending: [0, 10, 0, 0] });
  });

  it("draws values as block characters scaled to the largest, nothing for zero", () => {
    expect(sparkline([0, 1, 4, 8])).toBe(" ▁▄█");
    expect(sparkline([0, 0])).toBe("  ");
  });

  it("says durations as people read them", () => {
    expect([humanDuration(45), humanDuration(61), humanDuration(3600), humanDuration(12_300)]).toEqual(["45 s", "1 min 1 s", "1 h", "3 h 25 min"]);
  });
});
