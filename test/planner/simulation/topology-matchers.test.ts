import type { TopologyGroup } from "../../../src/planner/simulation/topology-group";
import { GroupMatchers } from "../../../src/planner/simulation/topology-matchers";
import { selects } from "../../../src/planner/workload/label-selector";
import type { LabelSelector, PodGroup } from "../../../src/planner/workload/workload-model";
import { podGroup, podShape } from "./fixtures";

// The topology groups that count a pod group's pods, found through an index on one label each selector requires:
// the same groups, in the same order, as trying every group's selector (kubernetes label selector semantics).

const group = (description: string): TopologyGroup => ({
  kind: "spread",
  domain: "zone",
  maxSkew: 1,
  minDomains: undefined,
  universe: [],
  counts: new Map(),
  nonEmpty: 0,
  owners: new Map(),
  description,
});

const selector = (matchLabels: Record<string, string>, matchExpressions: LabelSelector["matchExpressions"] = []): LabelSelector => ({
  matchLabels,
  matchExpressions,
});

describe("GroupMatchers", () => {
  const pods = (name: string, namespace: string, labels: Record<string, string>): PodGroup => ({ ...podGroup(name, 1, podShape(100, 128), labels), namespace });
  const web = pods("web", "shop", { app: "web", tier: "front" });
  const webOther = pods("web", "blog", { app: "web", tier: "front" });
  const api = pods("api", "shop", { app: "api", tier: "back" });
  const definitions: { group: TopologyGroup; selector: LabelSelector | undefined; namespaces: readonly string[] | "all"; owner?: PodGroup }[] = [
    { group: group("app=web in shop"), selector: selector({ app: "web" }), namespaces: ["shop"] },
    { group: group("tier=front everywhere"), selector: selector({ tier: "front" }), namespaces: "all" },
    { group: group("expressions only"), selector: selector({}, [{ key: "app", operator: "In", values: ["web", "api"] }]), namespaces: ["shop"] },
    { group: group("app=web and tier=back"), selector: selector({ app: "web", tier: "back" }), namespaces: ["shop"] },
    { group: group("no selector"), selector: undefined, namespaces: "all" },
    { group: group("web's own pods only"), selector: selector({ app: "web" }), namespaces: ["shop", "blog"], owner: webOther },
    { group: group("every pod of shop"), selector: selector({}), namespaces: ["shop"] },
  ];
  const matchers = new GroupMatchers();
  for (const d of definitions) matchers.add(d.group, d.selector, d.namespaces, d.owner);
  /** Every group tried: what the index must agree with. */
  const bruteForce = (p: PodGroup) =>
    definitions
      .filter(
        (d) =>
          d.selector !== undefined &&
          (d.namespaces === "all" || d.namespaces.includes(p.namespace)) &&
          (d.owner === undefined || d.owner === p) &&
          selects(d.selector, p.labels),
      )
      .map((d) => d.group.description);

  it("finds the groups every selector would, in the order they were added", () => {
    expect(matchers.matching(web).map((g) => g.description)).toEqual(["app=web in shop", "tier=front everywhere", "expressions only", "every pod of shop"]);
    expect(matchers.matching(webOther).map((g) => g.description)).toEqual(["tier=front everywhere", "web's own pods only"]);
    expect(matchers.matching(api).map((g) => g.description)).toEqual(["expressions only", "every pod of shop"]);
    for (const p of [web, webOther, api]) expect(matchers.matching(p).map((g) => g.description)).toEqual(bruteForce(p));
  });
});
