import type { ClusterState } from "../../src/planner/state/cluster-state";
import { ORDINARY_DISRUPTION, type PodDisruptionBudget, type PodGroup, type PodShape } from "../../src/planner/workload/workload-model";
import { keptOnDemand, type MoveRules, moveRules } from "../../src/savings/moves/held-back";
import { LABEL } from "../../src/shared/vocabulary/well-known-labels";
import { clusterNode, on } from "../planner/consolidation/fixtures";
import { catalogue, inValues, podGroup, podShape } from "../planner/simulation/fixtures";

// Unit tests of moveRules and keptOnDemand (src/savings/moves/held-back.ts): which workloads a move to arm64 or to
// spot holds back, and why. On the test catalogue (../planner/simulation/fixtures.ts): m.small and m.large are
// amd64, g.small and g.large arm64. Every group is a Deployment in namespace default.

const NO_ARM64 = "its node selector or required node affinity admits no arm64 instance type";
const ONE_REPLICA = "one replica: a spot interruption would take it down";
const ON_DEMAND = "it requires on-demand capacity";
const DO_NOT_DISRUPT = 'its pods carry karpenter.sh/do-not-disrupt: "true"';

/** A Deployment `name` of 500m and 512Mi pods, with whatever else of the pod shape the test sets. */
const deployment = (name: string, pod: Partial<PodShape> = {}): PodGroup => podGroup(name, 2, podShape(500, 512, pod));

/** A cluster state of these fields, empty elsewhere. */
const stateOf = (fields: Partial<ClusterState>): ClusterState => ({
  source: "test",
  region: undefined,
  zones: [],
  pools: [],
  nodes: [],
  fargateNodes: [],
  fargatePods: [],
  pending: [],
  pdbs: [],
  daemonSets: [],
  images: new Map(),
  unread: [],
  warnings: [],
  ...fields,
});

/** The state with `count` pods of each group on one m.small: two each unless the test says. */
const running = (groups: readonly PodGroup[], fields: Partial<ClusterState> = {}, count = 2): ClusterState =>
  stateOf({ nodes: [clusterNode("n1", "m.small", undefined, { pods: groups.map((g) => on(g, count)) })], ...fields });

/** A rule's map as "name: reason" (or "name: image, image"), in the order of the groups given. */
const named = (rules: MoveRules[keyof MoveRules]) => [...rules].map(([g, v]) => `${g.name}: ${typeof v === "string" ? v : v.join(", ")}`);

const budget = (namespace: string, name: string, app: string, disruptionsAllowed: number): PodDisruptionBudget => ({
  namespace,
  name,
  selector: { matchLabels: { app }, matchExpressions: [] },
  disruptionsAllowed,
});

describe("moveRules: arm64", () => {
  it("keeps on amd64 a pod whose node selector admits no arm64 type; a pod free of constraints may move", () => {
    const free = deployment("free");
    const byArch = deployment("by-arch", { nodeSelector: [inValues(LABEL.arch, "amd64")] });
    const byType = deployment("by-type", { nodeSelector: [inValues(LABEL.instanceType, "m.small", "m.large")] });
    const rules = moveRules([free, byArch, byType], running([free, byArch, byType]), catalogue);
    expect(named(rules.stayAmd64)).toEqual([`by-arch: ${NO_ARM64}`, `by-type: ${NO_ARM64}`]);
  });

  it("moves a pod one of whose required affinity terms admits an arm64 type (terms are ORed)", () => {
    const either = deployment("either", { affinityTerms: [[inValues(LABEL.arch, "amd64")], [inValues(LABEL.instanceType, "g.small")]] });
    const neither = deployment("neither", { affinityTerms: [[inValues(LABEL.arch, "amd64")], [inValues(LABEL.instanceType, "m.large")]] });
    const rules = moveRules([either, neither], running([either, neither]), catalogue);
    expect(named(rules.stayAmd64)).toEqual([`neither: ${NO_ARM64}`]);
  });

  it("ignores requirements on labels no instance type carries (zone, a team's own label) when deciding arm64", () => {
    const zoned = deployment("zoned", { nodeSelector: [inValues(LABEL.zone, "zone-a"), inValues("team", "payments")] });
    expect(moveRules([zoned], running([zoned]), catalogue).stayAmd64.size).toBe(0);
  });

  it("lists as unverified the images of a moving pod never seen on an arm64 node (seen on amd64 does not count)", () => {
    // n-arm (g.small) runs seen, whose image nginx:1.27 is thereby seen on arm64; n1 (m.small, amd64) runs web and cache.
    const seen = deployment("seen");
    const web = deployment("web");
    const cache = deployment("cache");
    const images = new Map([
      [seen, ["nginx:1.27"]],
      [web, ["nginx:1.27", "app:2"]],
      [cache, ["redis:7"]],
    ]);
    const state = stateOf({
      nodes: [
        clusterNode("n-arm", "g.small", undefined, { pods: [on(seen, 2)] }),
        clusterNode("n1", "m.small", undefined, { pods: [on(web, 2), on(cache, 2)] }),
      ],
      images,
    });
    expect(named(moveRules([web, cache], state, catalogue).unverified)).toEqual(["web: app:2", "cache: redis:7"]);
  });

  it("lists no images of a pod kept on amd64, nor of a pod whose images are not known", () => {
    const legacy = deployment("legacy", { nodeSelector: [inValues(LABEL.arch, "amd64")] });
    const unknown = deployment("unknown");
    const rules = moveRules([legacy, unknown], running([legacy, unknown], { images: new Map([[legacy, ["legacy:1"]]]) }), catalogue);
    expect(rules.unverified.size).toBe(0);
    expect(named(rules.stayAmd64)).toEqual([`legacy: ${NO_ARM64}`]);
  });
});

describe("moveRules: spot", () => {
  it("keeps on-demand a workload of one replica; two replicas may go to spot", () => {
    const single = deployment("single");
    const pair = deployment("pair");
    const state = stateOf({ nodes: [clusterNode("n1", "m.small", undefined, { pods: [on(single, 1), on(pair, 2)] })] });
    expect(named(moveRules([single, pair], state, catalogue).stayOnDemand)).toEqual([`single: ${ONE_REPLICA}`]);
  });

  it("counts a workload's replicas over its groups, every node and the pending pods, not the replicas its spec asks", () => {
    // web: two groups (a revision of another shape) of one pod each, on two nodes: 2 pods, not held back.
    // api: one pod on a node and one pending: 2. batch asks 3 replicas but one runs: held back.
    // A StatefulSet named web is another workload: its one pod is held back.
    const web = deployment("web");
    const webNext: PodGroup = { ...podGroup("web", 1, podShape(250, 256)), id: "default/web (2)" };
    const api = deployment("api");
    const batch = podGroup("batch", 3, podShape(500, 512));
    const webSet: PodGroup = { ...deployment("web"), kind: "StatefulSet" };
    const state = stateOf({
      nodes: [
        clusterNode("n1", "m.small", undefined, { pods: [on(web, 1), on(api, 1), on(batch, 1)] }),
        clusterNode("n2", "m.small", undefined, { pods: [on(webNext, 1), on(webSet, 1)] }),
      ],
      pending: [{ group: api, count: 1 }],
    });
    const rules = moveRules([web, webNext, api, batch, webSet], state, catalogue);
    expect([...rules.stayOnDemand].map(([g, reason]) => `${g.kind}/${g.name}: ${reason}`)).toEqual([
      `Deployment/batch: ${ONE_REPLICA}`,
      `StatefulSet/web: ${ONE_REPLICA}`,
    ]);
  });

  it("keeps on-demand the pods of its namespace a PodDisruptionBudget selects and allows no disruption of", () => {
    // web-pdb holds web; api-pdb is in another namespace; cache-pdb allows one disruption; db-pdb selects app=other.
    const [web, api, cache, db] = ["web", "api", "cache", "db"].map((n) => deployment(n));
    const pdbs = [
      budget("default", "web-pdb", "web", 0),
      budget("other", "api-pdb", "api", 0),
      budget("default", "cache-pdb", "cache", 1),
      budget("default", "db-pdb", "other", 0),
    ];
    const rules = moveRules([web, api, cache, db], running([web, api, cache, db], { pdbs }), catalogue);
    expect(named(rules.stayOnDemand)).toEqual(["web: PodDisruptionBudget default/web-pdb allows no disruption"]);
  });

  it("keeps on-demand a workload whose pods carry karpenter.sh/do-not-disrupt", () => {
    const pinned: PodGroup = { ...deployment("pinned"), disruption: { ...ORDINARY_DISRUPTION, doNotDisrupt: true } };
    const plain: PodGroup = { ...deployment("plain"), disruption: ORDINARY_DISRUPTION };
    expect(named(moveRules([pinned, plain], running([pinned, plain]), catalogue).stayOnDemand)).toEqual([`pinned: ${DO_NOT_DISRUPT}`]);
  });

  it("keeps on-demand a pod whose node selector, or every required affinity term, excludes spot", () => {
    const ct = LABEL.capacityType;
    const selected = deployment("selected", { nodeSelector: [inValues(ct, "on-demand")] });
    const allTerms = deployment("all-terms", { affinityTerms: [[inValues(ct, "on-demand"), inValues(LABEL.arch, "amd64")], [inValues(ct, "on-demand")]] });
    const oneTerm = deployment("one-term", { affinityTerms: [[inValues(ct, "on-demand")], [inValues(ct, "spot")]] });
    const either = deployment("either", { nodeSelector: [inValues(ct, "spot", "on-demand")] });
    const groups = [selected, allTerms, oneTerm, either];
    expect(named(moveRules(groups, running(groups), catalogue).stayOnDemand)).toEqual([`selected: ${ON_DEMAND}`, `all-terms: ${ON_DEMAND}`]);
  });

  it("gives one reason, the first that applies: on-demand, then do-not-disrupt, then the budget, then one replica", () => {
    // Each group has one pod (one replica) and is selected by a budget allowing no disruption.
    const doNotDisrupt = { ...ORDINARY_DISRUPTION, doNotDisrupt: true };
    const all: PodGroup = { ...deployment("all", { nodeSelector: [inValues(LABEL.capacityType, "on-demand")] }), disruption: doNotDisrupt };
    const annotated: PodGroup = { ...deployment("annotated"), disruption: doNotDisrupt };
    const budgeted = deployment("budgeted");
    const pdbs = ["all", "annotated", "budgeted"].map((app) => budget("default", `${app}-pdb`, app, 0));
    const rules = moveRules([all, annotated, budgeted], running([all, annotated, budgeted], { pdbs }, 1), catalogue);
    expect(named(rules.stayOnDemand)).toEqual([
      `all: ${ON_DEMAND}`,
      `annotated: ${DO_NOT_DISRUPT}`,
      "budgeted: PodDisruptionBudget default/budgeted-pdb allows no disruption",
    ]);
  });
});

describe("keptOnDemand", () => {
  it("adds karpenter.sh/capacity-type In [on-demand] to a copy's node selector, which the rules then read as requiring on-demand", () => {
    const web = deployment("web", { nodeSelector: [inValues(LABEL.arch, "amd64")] });
    const kept = keptOnDemand(web);
    expect(kept.pod.nodeSelector).toEqual([
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    ]);
    expect(web.pod.nodeSelector).toEqual([{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }]);
    expect(named(moveRules([kept], running([kept]), catalogue).stayOnDemand)).toEqual([`web: ${ON_DEMAND}`]);
  });
});
