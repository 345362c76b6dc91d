import type { PoolModel } from "../../../src/planner/model";
import { domainUniverse } from "../../../src/planner/simulation/domain-universe";
import { schedulingForms } from "../../../src/planner/simulation/preferences";
import { type Placement, Topology } from "../../../src/planner/simulation/topology";
import type { PodAffinityTerm, PodGroup, SpreadConstraint } from "../../../src/planner/workload/workload-model";
import { LABEL } from "../../../src/shared/vocabulary/well-known-labels";
import { inValues, newFitCache, offeringsOf, podGroup, podShape, pool, ZONES } from "./fixtures";

// The topology a scheduler keeps, driven by hand: pods are recorded where they land, and each question is what
// a NodeClaim (or node) may still be for the next pod. The test pool launches in zone-a, zone-b and zone-c, spot
// then on-demand. Upstream tests named below are in kubernetes-sigs/karpenter v1.14.1
// pkg/controllers/provisioning/scheduling/topology_test.go; each drives the same constraint through the scheduler
// and checks the skew it leaves, which here is checked one pod at a time.

const selector = (labels: Readonly<Record<string, string>>) => ({ matchLabels: labels, matchExpressions: [] });

const spread = (topologyKey: string, maxSkew: number, app: string, extra: Partial<SpreadConstraint> = {}): SpreadConstraint => ({
  topologyKey,
  maxSkew,
  whenUnsatisfiable: "DoNotSchedule",
  selector: selector({ app }),
  matchLabelKeys: [],
  nodeTaintsPolicy: "Ignore",
  ...extra,
});

const term = (topologyKey: string, labels: Readonly<Record<string, string>>): PodAffinityTerm => ({
  topologyKey,
  selector: selector(labels),
  namespaces: { kind: "own" },
  matchLabelKeys: [],
});

/** A NodeClaim that may still land in any zone and be of either capacity type. */
const claim = (host: string, zones: readonly string[] = ZONES, capacityTypes: readonly string[] = ["spot", "on-demand"]): Placement => ({
  host,
  zones,
  capacityTypes,
});

function topologyOf(groups: readonly PodGroup[], pools: readonly PoolModel[] = [pool("default")]) {
  const constraintsOf = (g: PodGroup) => schedulingForms(g.pod, false)[0];
  const topology = new Topology(
    groups.map((group) => ({ group, forms: schedulingForms(group.pod, false) })),
    domainUniverse(offeringsOf(pools, newFitCache())),
  );
  /** Where a pod of `group` may go on a node at `at`: the narrowed placement, or the reason. */
  const next = (group: PodGroup, at: Placement) => {
    const { constraints, strict } = constraintsOf(group);
    return topology.addRequirements(group, constraints, strict, at);
  };
  return { topology, next };
}

/** Places `count` pods one after another, each on a NodeClaim of its own, and says which zone each took. */
function zonesTaken(topology: Topology, next: ReturnType<typeof topologyOf>["next"], group: PodGroup, count: number): string[] {
  const taken: string[] = [];
  for (let i = 0; i < count; i++) {
    const placed = next(group, claim(`host-${i}`));
    if (!placed.ok) throw new Error(placed.reason);
    topology.record(group, { ...placed.value, host: `host-${i}` });
    taken.push(placed.value.zones.join("|"));
  }
  return taken;
}

describe("topology spread on zones", () => {
  const web = podGroup("web", 4, podShape(100, 0, { topologySpread: [spread(LABEL.zone, 1, "web")] }));

  it("follows 'should balance pods across zones (match labels)': each pod takes the zone with the fewest, ties in order", () => {
    // 0,0,0 -> a; 1,0,0 -> b; 1,1,0 -> c; 1,1,1 -> a: skew (2, 1, 1).
    const { topology, next } = topologyOf([web]);
    expect(zonesTaken(topology, next, web, 4)).toEqual(["zone-a", "zone-b", "zone-c", "zone-a"]);
  });

  it("follows 'should not violate max-skew when unsat = do not schedule': a NodeClaim pinned to a full zone refuses, and says why", () => {
    const { topology, next } = topologyOf([web]);
    topology.record(web, claim("host-1", ["zone-a"]));
    expect(next(web, claim("host-1", ["zone-a"]))).toEqual({
      ok: false,
      reason:
        "topology spread on topology.kubernetes.io/zone (maxSkew 1) against app=web: no zone the node could use (zone-a) keeps the skew within 1 (matching pods by zone: zone-a: 1, zone-b: 0, zone-c: 0)",
    });
  });

  it("follows 'should respect NodePool zonal constraints (subset) with requirements': only the zones pools launch in count", () => {
    // A pool in zone-a and zone-b only: 4 pods spread 2, 2.
    const { topology, next } = topologyOf([web], [pool("default", { requirements: [inValues(LABEL.zone, "zone-a", "zone-b")] })]);
    const taken: string[] = [];
    for (let i = 0; i < 4; i++) {
      const placed = next(web, claim(`host-${i}`, ["zone-a", "zone-b"]));
      if (!placed.ok) throw new Error(placed.reason);
      topology.record(web, placed.value);
      taken.push(...placed.value.zones);
    }
    expect(taken).toEqual(["zone-a", "zone-b", "zone-a", "zone-b"]);
  });

  it("follows 'should respect minDomains constraints': with fewer eligible zones than minDomains, the global minimum is 0", () => {
    // minDomains 3, a pool in two zones: one pod per zone, the third finds no zone (1 + 1 - 0 > 1).
    const minDomains = podGroup("web", 3, podShape(100, 0, { topologySpread: [spread(LABEL.zone, 1, "web", { minDomains: 3 })] }));
    const { topology, next } = topologyOf([minDomains], [pool("default", { requirements: [inValues(LABEL.zone, "zone-a", "zone-b")] })]);
    for (const zone of ["zone-a", "zone-b"]) {
      expect(next(minDomains, claim(zone, ["zone-a", "zone-b"]))).toEqual({ ok: true, value: claim(zone, [zone]) });
      topology.record(minDomains, claim(zone, [zone]));
    }
    expect(next(minDomains, claim("third", ["zone-a", "zone-b"])).ok).toBe(false);
  });

  it("takes the zone with the fewest matching pods even where the skew would allow a fuller one (topologygroup.go nextDomainTopologySpread)", () => {
    // maxSkew 2, one pod in zone-a: zone-a is still allowed (1 + 1 - 0 <= 2), zone-b has fewer.
    const loose = podGroup("web", 2, podShape(100, 0, { topologySpread: [spread(LABEL.zone, 2, "web")] }));
    const { topology, next } = topologyOf([loose]);
    topology.record(loose, claim("h1", ["zone-a"]));
    expect(next(loose, claim("h2"))).toEqual({ ok: true, value: claim("h2", ["zone-b"]) });
  });

  it("follows 'should schedule to the non-minimum domain if its all that's available': within maxSkew, the only zone the node may use", () => {
    // maxSkew 5, zone-a at 1: a NodeClaim pinned to zone-a may still take a pod (1 + 1 - 0 <= 5).
    const loose = podGroup("web", 2, podShape(100, 0, { topologySpread: [spread(LABEL.zone, 5, "web")] }));
    const { topology, next } = topologyOf([loose]);
    topology.record(loose, claim("h1", ["zone-a"]));
    expect(next(loose, claim("h1", ["zone-a"]))).toEqual({ ok: true, value: claim("h1", ["zone-a"]) });
  });

  it("counts a pod only once its node is down to one zone (topology.go Record)", () => {
    const { topology, next } = topologyOf([web]);
    topology.record(web, claim("unpinned"));
    expect(next(web, claim("host-1"))).toEqual({ ok: true, value: claim("host-1", ["zone-a"]) });
  });
});

describe("topology spread on capacity types and hostnames", () => {
  it("follows 'should balance pods across capacity types': spot, then on-demand", () => {
    const web = podGroup("web", 2, podShape(100, 0, { topologySpread: [spread(LABEL.capacityType, 1, "web")] }));
    const { topology, next } = topologyOf([web]);
    expect(next(web, claim("h1"))).toEqual({ ok: true, value: claim("h1", ZONES, ["spot"]) });
    topology.record(web, claim("h1", ZONES, ["spot"]));
    expect(next(web, claim("h2"))).toEqual({ ok: true, value: claim("h2", ZONES, ["on-demand"]) });
  });

  it("follows 'should balance pods across nodes': a second matching pod goes to another node", () => {
    const web = podGroup("web", 2, podShape(100, 0, { topologySpread: [spread(LABEL.hostname, 1, "web")] }));
    const { topology, next } = topologyOf([web]);
    topology.record(web, claim("h1"));
    expect(next(web, claim("h1"))).toEqual({
      ok: false,
      reason: "topology spread on kubernetes.io/hostname (maxSkew 1) against app=web: the node already has 1 matching pods",
    });
    expect(next(web, claim("h2")).ok).toBe(true);
  });

  it("follows 'should balance pods on the same hostname up to maxskew': maxSkew 4 takes 4 on one node, not 5", () => {
    const web = podGroup("web", 5, podShape(100, 0, { topologySpread: [spread(LABEL.hostname, 4, "web")] }));
    const { topology, next } = topologyOf([web]);
    for (let i = 0; i < 4; i++) {
      expect(next(web, claim("h1")).ok).toBe(true);
      topology.record(web, claim("h1"));
    }
    expect(next(web, claim("h1")).ok).toBe(false);
  });
});

describe("pod anti-affinity", () => {
  const s2 = podGroup("s2", 3, podShape(100, 0), { security: "s2" });
  const anti = podGroup("anti", 1, podShape(100, 0, { podAntiAffinity: [term(LABEL.zone, { security: "s2" })] }));

  it("follows 'should not violate pod anti-affinity on zone': no zone is free of a matching pod", () => {
    const { topology, next } = topologyOf([s2, anti]);
    for (const zone of ZONES) topology.record(s2, claim(zone, [zone]));
    expect(next(anti, claim("h"))).toEqual({
      ok: false,
      reason:
        "pod anti-affinity on topology.kubernetes.io/zone against security=s2: every zone the node could use (zone-a, zone-b, zone-c) already has a matching pod",
    });
  });

  it("follows 'should not violate pod anti-affinity on zone (other schedules first)': a matching pod that may land anywhere blocks every zone", () => {
    const { topology, next } = topologyOf([s2, anti]);
    topology.record(s2, claim("h1"));
    expect(next(anti, claim("h2")).ok).toBe(false);
  });

  it("leaves the zones no matching pod is in", () => {
    const { topology, next } = topologyOf([s2, anti]);
    topology.record(s2, claim("h1", ["zone-b"]));
    expect(next(anti, claim("h2"))).toEqual({ ok: true, value: claim("h2", ["zone-a", "zone-c"]) });
  });

  it("follows 'should not violate pod anti-affinity on zone (inverse)': a pod is kept from the zones of pods that repel it", () => {
    const { topology, next } = topologyOf([s2, anti]);
    topology.record(anti, claim("h1", ["zone-a"]));
    expect(next(s2, claim("h2"))).toEqual({ ok: true, value: claim("h2", ["zone-b", "zone-c"]) });
    expect(next(s2, claim("h3", ["zone-a"]))).toEqual({
      ok: false,
      reason:
        "pod anti-affinity on topology.kubernetes.io/zone against security=s2 (of another workload): every zone the node could use has a pod that repels this one",
    });
  });

  it("follows 'should separate nodes using simple pod anti-affinity on hostname', both ways round", () => {
    const hostAnti = podGroup("anti", 1, podShape(100, 0, { podAntiAffinity: [term(LABEL.hostname, { security: "s2" })] }));
    const { topology, next } = topologyOf([s2, hostAnti]);
    topology.record(s2, claim("h1"));
    expect(next(hostAnti, claim("h1")).ok).toBe(false);
    expect(next(hostAnti, claim("h2")).ok).toBe(true);
    topology.record(hostAnti, claim("h2"));
    expect(next(s2, claim("h2"))).toEqual({
      ok: false,
      reason: "pod anti-affinity on kubernetes.io/hostname against security=s2 (of another workload): the node has a pod that repels this one",
    });
  });
});

describe("pod affinity", () => {
  it("follows 'should respect pod affinity (hostname)': only a node with a matching pod", () => {
    const cache = podGroup("cache", 1, podShape(100, 0));
    const web = podGroup("web", 1, podShape(100, 0, { podAffinity: [term(LABEL.hostname, { app: "cache" })] }));
    const { topology, next } = topologyOf([cache, web]);
    expect(next(web, claim("h1"))).toEqual({ ok: false, reason: "pod affinity on kubernetes.io/hostname against app=cache: the node has no matching pod" });
    topology.record(cache, claim("h1"));
    expect(next(web, claim("h1")).ok).toBe(true);
    expect(next(web, claim("h2")).ok).toBe(false);
  });

  it("follows 'should respect self pod affinity (zone)': the first pod opens a zone, the others follow it", () => {
    const self = podGroup("s2", 3, podShape(100, 0, { podAffinity: [term(LABEL.zone, { security: "s2" })] }), { security: "s2" });
    const { topology, next } = topologyOf([self]);
    expect(next(self, claim("h1"))).toEqual({ ok: true, value: claim("h1", ["zone-a"]) });
    topology.record(self, claim("h1", ["zone-a"]));
    expect(next(self, claim("h2"))).toEqual({ ok: true, value: claim("h2", ["zone-a"]) });
    expect(next(self, claim("h3", ["zone-b"])).ok).toBe(false);
  });

  it("follows 'should respect self pod affinity (zone w/ constraint)': the first zone the pod's own affinity allows", () => {
    const self = podGroup("s2", 1, podShape(100, 0, { nodeSelector: [inValues(LABEL.zone, "zone-c")], podAffinity: [term(LABEL.zone, { security: "s2" })] }), {
      security: "s2",
    });
    const { next } = topologyOf([self]);
    expect(next(self, claim("h1", ["zone-c"]))).toEqual({ ok: true, value: claim("h1", ["zone-c"]) });
  });
});

describe("counts from the nodes that exist (topology.go countDomains)", () => {
  it("follows 'should respect NodePool zonal constraints (existing pod)': a pod already in zone-c counts", () => {
    // One matching pod runs in zone-c; the pool launches in zone-a and zone-b only. With zone-c at 1, zone-a and
    // zone-b may reach 2 each (2 - 1 <= 1), and no more: skew (1, 2, 2), the rest pending.
    const web = podGroup("web", 6, podShape(100, 0, { topologySpread: [spread(LABEL.zone, 1, "web")] }));
    const { topology, next } = topologyOf([web]);
    topology.countPodsOn([{ placement: claim("running", ["zone-c"]), pods: [{ group: web, count: 1 }] }]);
    const taken: string[] = [];
    for (let i = 0; i < 5; i++) {
      const placed = next(web, claim(`h${i}`, ["zone-a", "zone-b"]));
      if (!placed.ok) break;
      topology.record(web, placed.value);
      taken.push(...placed.value.zones);
    }
    expect(taken).toEqual(["zone-a", "zone-b", "zone-a", "zone-b"]);
  });

  it("forgets what it recorded before, and starts again from the pods on the nodes", () => {
    const web = podGroup("web", 2, podShape(100, 0, { topologySpread: [spread(LABEL.hostname, 1, "web")] }));
    const { topology, next } = topologyOf([web]);
    topology.record(web, claim("h1"));
    topology.countPodsOn([]);
    expect(next(web, claim("h1")).ok).toBe(true);
  });
});

describe("Topology counted once a consolidation pass, each simulation undone", () => {
  // The disruption controller simulates hundreds of candidates on the same nodes: topology counts their pods once,
  // each simulation takes out the candidates' and records its placements, and `restore` undoes both. Each state must
  // be the counts a fresh count of the same pods would give, or a simulation would see another one's pods.
  const web = podGroup("web", 6, podShape(100, 128, { topologySpread: [spread(LABEL.zone, 1, "web")] }));
  const api = podGroup("api", 4, podShape(100, 128, { podAntiAffinity: [term(LABEL.hostname, { app: "api" })] }));
  const at = (host: string, zone: string) => ({ host, zones: [zone], capacityTypes: ["on-demand"] });
  const nodes = [
    {
      placement: at("n1", "zone-a"),
      pods: [
        { group: web, count: 2 },
        { group: api, count: 1 },
      ],
    },
    {
      placement: at("n2", "zone-b"),
      pods: [
        { group: web, count: 1 },
        { group: api, count: 1 },
      ],
    },
    { placement: at("n3", "zone-c"), pods: [{ group: web, count: 1 }] },
  ];
  /** What the next pods may do: the zones web may take on a NodeClaim, and whether api may join each node. */
  const answers = (t: ReturnType<typeof topologyOf>) => ({
    web: t.next(web, claim("new")),
    api: nodes.map((n) => t.next(api, n.placement).ok),
  });

  it("gives, while the candidates are out, what counting the other nodes alone gives; and after restore, the cluster's counts again", () => {
    const pass = topologyOf([web, api]);
    const cluster = {};
    pass.topology.countOnce(cluster, () => nodes);
    const whole = answers(pass);
    // Take n1 out and place a web pod on n3, as a simulation would.
    pass.topology.withoutNodes([nodes[0]]);
    pass.topology.record(web, nodes[2].placement);
    const fresh = topologyOf([web, api]);
    fresh.topology.countPodsOn([nodes[1], { ...nodes[2], pods: [{ group: web, count: 2 }] }]);
    expect(answers(pass)).toEqual(answers(fresh));
    // The states differ (n1's api pod is gone, zone-c has two web pods): the comparisons above can fail.
    expect(answers(fresh)).not.toEqual(whole);
    pass.topology.restore();
    expect(answers(pass)).toEqual(whole);
    // Counting once means once: the same cluster is not recounted (a changed list would be: a new pass).
    pass.topology.countOnce(cluster, () => {
      throw new Error("recounted");
    });
    const recount = topologyOf([web, api]);
    recount.topology.countPodsOn(nodes);
    expect(answers(pass)).toEqual(answers(recount));
  });
});
