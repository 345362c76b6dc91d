import { domainUniverse } from "../../../src/planner/simulation/domain-universe";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, newFitCache, offeringsOf, podGroup, podShape, pool, runningNode } from "./fixtures";

// The zones and capacity types topology spread counts: the pools', and the running nodes' (topology.go builds
// its domains from the NodePools and from the nodes of the cluster). Follows topology_test.go 'should respect
// NodePool zonal constraints (subset) with labels across NodePools' and the nodeTaintsPolicy Honor tests.

const tainted = pool("tainted", { requirements: [inValues(LABEL.zone, "zone-c")], taints: [{ key: "team", value: "a", effect: "NoSchedule" }] });
const plain = pool("plain", { requirements: [inValues(LABEL.zone, "zone-a")] });
const intolerant = podGroup("web", 1, podShape(10, 0));

describe("domainUniverse", () => {
  it("unites the zones and capacity types of every pool", () => {
    const universe = domainUniverse(offeringsOf([plain, tainted], newFitCache()));
    expect(universe.zones(undefined)).toEqual(["zone-a", "zone-c"]);
    expect(universe.capacityTypes).toEqual(["spot", "on-demand"]);
  });

  it("with nodeTaintsPolicy Honor, counts only the pools and nodes whose taints the pod tolerates", () => {
    const node = runningNode("ip-1", "m.small", { zone: "zone-b", taints: [{ key: "team", value: "a", effect: "NoSchedule" }] });
    const universe = domainUniverse(offeringsOf([plain, tainted], newFitCache()), [node]);
    expect(universe.zones(intolerant)).toEqual(["zone-a"]);
    const tolerant = podGroup("tolerant", 1, podShape(10, 0, { tolerations: [{ key: "team", operator: "Exists" }] }));
    expect(universe.zones(tolerant)).toEqual(["zone-a", "zone-c", "zone-b"]);
  });

  it("adds the zone and capacity type of a running node no pool launches like", () => {
    const node = runningNode("ip-1", "m.small", { zone: "zone-b", capacityType: "reserved" });
    const universe = domainUniverse(offeringsOf([plain], newFitCache()), [node]);
    expect(universe.zones(undefined)).toEqual(["zone-a", "zone-b"]);
    expect(universe.capacityTypes).toEqual(["spot", "on-demand", "reserved"]);
  });
});
