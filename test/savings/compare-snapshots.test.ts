import { compareReports } from "../../src/savings/compare-snapshots";
import type { MoveName } from "../../src/savings/moves/moves";
import type { NodeJson, SavingsJson } from "../../src/savings/savings-report";

// Unit tests of compareReports (src/savings/compare-snapshots.ts): a snapshot's saved report (snapshot.ts keeps it
// as `report`) against the report made now: nodes added, removed and replaced (a node gone and one come in the same
// NodePool), the cost then and now, per namespace, and what the snapshot predicted against what runs now. Dollar
// figures are chosen so that a subtraction leaves floating-point noise (0.1 - 0.3 = -0.19999999999999998) that the
// rounding must remove.

type Move = SavingsJson["moves"][number];

/** A node of the report: on-demand in zone-a, priced as given. */
const node = (name: string, instanceType: string, nodePool: string | null, hourlyUsd = 0.1): NodeJson => ({
  name,
  instanceType,
  capacityType: "on-demand",
  zone: "zone-a",
  nodePool,
  hourlyUsd,
});

/** A move the report priced at `hourlyUsd`; the fields compareReports does not read are 0 or empty. */
const move = (name: MoveName, hourlyUsd: number, priced: boolean): Move => ({
  name,
  priced,
  hourlyUsd,
  monthlyUsd: 0,
  nodeCount: 0,
  savingHourlyUsd: 0,
  savingMonthlyUsd: 0,
  heldBack: [],
  unverified: [],
  unschedulable: [],
  savingVsNowHourlyUsd: 0,
  savingVsNowMonthlyUsd: 0,
});

interface Figures {
  readonly at?: string;
  readonly hourlyUsd?: number;
  readonly nodes?: readonly NodeJson[];
  readonly byNamespace?: SavingsJson["now"]["byNamespace"];
  readonly convergedUsd?: number;
  readonly moves?: SavingsJson["moves"];
}

/** A report of these figures; what compareReports does not read is 0 or empty. */
const report = (f: Figures): SavingsJson => ({
  source: "cluster prod",
  model: "test",
  at: f.at ?? "2026-11-26T12:00:00.000Z",
  region: "test-region",
  prices: { region: "test-region", asOf: "2026-01-01T00:00:00Z", spot: "on-demand rate, an upper bound" },
  now: {
    hourlyUsd: f.hourlyUsd ?? 0,
    monthlyUsd: 0,
    nodeCount: f.nodes?.length ?? 0,
    nodes: f.nodes ?? [],
    fargateHourlyUsd: 0,
    idleHourlyUsd: 0,
    byNamespace: f.byNamespace ?? [],
    byWorkload: [],
    unpriced: [],
  },
  converged: { hourlyUsd: f.convergedUsd ?? 0, monthlyUsd: 0, nodeCount: 0, nodes: [], actions: [], blockers: [], unsettled: false },
  savingHourlyUsd: 0,
  savingMonthlyUsd: 0,
  base: { hourlyUsd: 0, items: [], notes: [] },
  fargate: { podCount: 0, hourlyUsd: 0, note: "" },
  freshStart: { hourlyUsd: 0, monthlyUsd: 0, nodeCount: 0, pools: "", podCount: 0 },
  moves: f.moves ?? [],
  pending: [],
  unread: [],
  warnings: [],
});

/** Each node change as "name type", and a replacement as "name type -> name type". */
const nodeChanges = (before: readonly NodeJson[], now: readonly NodeJson[]) => {
  const change = compareReports(report({ nodes: before }), report({ nodes: now }));
  return {
    added: change.nodesAdded.map((n) => `${n.name} ${n.instanceType}`),
    removed: change.nodesRemoved.map((n) => `${n.name} ${n.instanceType}`),
    replaced: change.nodesReplaced.map((r) => `${r.name} ${r.instanceType} -> ${r.by.name} ${r.by.instanceType}`),
  };
};

describe("compareReports: nodes", () => {
  it("lists a node only now as added and a node only then as removed; a node in both is neither, by name", () => {
    // No NodePool owns these nodes, so none is a replacement; b runs in both (its type changed: still b).
    const before = [node("a", "m.small", null), node("b", "m.small", null)];
    const now = [node("b", "m.large", null), node("c", "m.large", null)];
    expect(nodeChanges(before, now)).toEqual({ added: ["c m.large"], removed: ["a m.small"], replaced: [] });
  });

  it("reads a node removed and a node added in the same NodePool as a replacement", () => {
    const change = compareReports(report({ nodes: [node("old-1", "m.large", "general")] }), report({ nodes: [node("new-1", "g.large", "general")] }));
    expect(change.nodesReplaced).toEqual([{ name: "old-1", instanceType: "m.large", by: { name: "new-1", instanceType: "g.large" } }]);
    expect([change.nodesAdded, change.nodesRemoved]).toEqual([[], []]);
  });

  it("matches each added node to one removed node at most, in order; the rest stay added or removed", () => {
    // old-1 and old-2 left general, and one node came: it replaces old-1. old-3 left batch, and new-2 came in spot:
    // different NodePools, no replacement.
    const before = [node("old-1", "m.large", "general"), node("old-2", "m.large", "general"), node("old-3", "m.small", "batch")];
    const now = [node("new-2", "g.small", "spot"), node("new-1", "g.large", "general")];
    expect(nodeChanges(before, now)).toEqual({
      added: ["new-2 g.small"],
      removed: ["old-2 m.large", "old-3 m.small"],
      replaced: ["old-1 m.large -> new-1 g.large"],
    });
  });

  it("never reads nodes no NodePool owns as a replacement of one another", () => {
    expect(nodeChanges([node("old", "m.small", null)], [node("new", "m.large", null)])).toEqual({
      added: ["new m.large"],
      removed: ["old m.small"],
      replaced: [],
    });
  });
});

describe("compareReports: cost", () => {
  it("gives the change as now less before, a saving negative, per hour and per 730-hour month, and says what it compared with", () => {
    // $0.30 then, $0.18 now: 0.18 - 0.30 = -$0.12/hour, x 730 = -$87.60/month.
    const change = compareReports(report({ at: "2026-11-01T00:00:00.000Z", hourlyUsd: 0.3 }), report({ hourlyUsd: 0.18 }));
    expect(change.before).toEqual({ source: "cluster prod", at: "2026-11-01T00:00:00.000Z", hourlyUsd: 0.3 });
    expect([change.hourlyUsd, change.monthlyUsd]).toEqual([-0.12, -87.6]);
  });

  it("rounds the hourly change to 6 decimals and the monthly change to cents", () => {
    // 0.623457 - 0.5 = 0.123457 (0.12345700000000004 unrounded); x 730 = 90.12361, $90.12 to the cent.
    const change = compareReports(report({ hourlyUsd: 0.5 }), report({ hourlyUsd: 0.623457 }));
    expect([change.hourlyUsd, change.monthlyUsd]).toEqual([0.123457, 90.12]);
  });

  it("lists every namespace of either report by name, at $0 in a report that lacks it, with the change rounded", () => {
    // shop 0.30 -> 0.10: -0.2 (-0.19999999999999998 unrounded); kube-system unchanged; old gone; new come.
    const before = report({
      byNamespace: [
        { namespace: "shop", hourlyUsd: 0.3 },
        { namespace: "kube-system", hourlyUsd: 0.05 },
        { namespace: "old", hourlyUsd: 0.03 },
      ],
    });
    const now = report({
      byNamespace: [
        { namespace: "shop", hourlyUsd: 0.1 },
        { namespace: "new", hourlyUsd: 0.02 },
        { namespace: "kube-system", hourlyUsd: 0.05 },
      ],
    });
    expect(compareReports(before, now).byNamespace).toEqual([
      { namespace: "kube-system", beforeHourlyUsd: 0.05, nowHourlyUsd: 0.05, changeHourlyUsd: 0 },
      { namespace: "new", beforeHourlyUsd: 0, nowHourlyUsd: 0.02, changeHourlyUsd: 0.02 },
      { namespace: "old", beforeHourlyUsd: 0.03, nowHourlyUsd: 0, changeHourlyUsd: -0.03 },
      { namespace: "shop", beforeHourlyUsd: 0.3, nowHourlyUsd: 0.1, changeHourlyUsd: -0.2 },
    ]);
  });
});

describe("compareReports: predicted against measured", () => {
  it("sets the converged cost the snapshot predicted, then each move it priced, against the cost now; spot at the on-demand rate says so", () => {
    // Now $0.18. Converged 0.20: 0.18 - 0.20 = -0.02 (-0.020000000000000018 unrounded); arm64 0.16: +0.02
    // (0.01999999999999999); spot and arm64+spot were priced at the on-demand rate (priced: false): 0.20 and 0.15.
    const before = report({ convergedUsd: 0.2, moves: [move("arm64", 0.16, true), move("spot", 0.2, false), move("arm64+spot", 0.15, false)] });
    expect(compareReports(before, report({ hourlyUsd: 0.18 })).predicted).toEqual([
      { what: "converged (consolidation alone)", predictedHourlyUsd: 0.2, measuredHourlyUsd: 0.18, differenceHourlyUsd: -0.02 },
      { what: "move: arm64", predictedHourlyUsd: 0.16, measuredHourlyUsd: 0.18, differenceHourlyUsd: 0.02 },
      { what: "move: spot (spot at the on-demand rate)", predictedHourlyUsd: 0.2, measuredHourlyUsd: 0.18, differenceHourlyUsd: -0.02 },
      { what: "move: arm64+spot (spot at the on-demand rate)", predictedHourlyUsd: 0.15, measuredHourlyUsd: 0.18, differenceHourlyUsd: 0.03 },
    ]);
  });

  it("reads the moves of an older snapshot, kept under moves.moves without `priced`, as priced", () => {
    // The older shape is not SavingsJson's any more: written as a saved file would hold it. spot 0.15 against 0.18: +0.03.
    const older = { moves: [{ name: "spot", hourlyUsd: 0.15 }] } as unknown as SavingsJson["moves"];
    const predicted = compareReports(report({ convergedUsd: 0.2, moves: older }), report({ hourlyUsd: 0.18 })).predicted;
    expect(predicted.map((p) => `${p.what}: ${p.predictedHourlyUsd} ${p.differenceHourlyUsd}`)).toEqual([
      "converged (consolidation alone): 0.2 -0.02",
      "move: spot: 0.15 0.03",
    ]);
  });

  it("predicts consolidation alone from a snapshot that kept no moves", () => {
    // A report of the first snapshots, before moves were priced: no moves field at all.
    const before = { ...report({ convergedUsd: 0.2 }), moves: undefined as unknown as SavingsJson["moves"] };
    const predicted = compareReports(before, report({ hourlyUsd: 0.18 })).predicted;
    expect(predicted.map((p) => p.what)).toEqual(["converged (consolidation alone)"]);
  });
});
