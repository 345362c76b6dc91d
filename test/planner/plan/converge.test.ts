import * as fs from "node:fs";
import * as path from "node:path";
import { makePlan } from "../../../src/planner/make-plan";
import { testFolder } from "../../helpers/test-folder";

// Every plan says where its nodes settle once Karpenter's consolidation has run, and autoscaled-max where they
// settle once the autoscalers are back at their minimum. Worked out by hand from the catalogue's us-east-1 prices:
// m5.xlarge $0.192 (4 vCPU, 16 GiB), r5.large $0.126 (2 vCPU, 16 GiB), r5.xlarge $0.252 (4 vCPU, 32 GiB); the
// DaemonSets of the default cluster take 150m and two pods on every node.

const FIXTURES = path.join(__dirname, "..", "fixtures");

/** One pool of c5, m5 and r5, large to 2xlarge, amd64 on-demand: the types the arithmetic below uses. */
function cluster(budget?: string): string {
  const file = path.join(testFolder("converge"), "cluster.yaml");
  fs.writeFileSync(
    file,
    [
      "name: converge",
      "nodePools:",
      "  - name: default",
      "    architectures: [amd64]",
      "    capacityTypes: [on-demand]",
      "    instanceFamilies: [c5, m5, r5]",
      "    instanceSizes: [large, xlarge, 2xlarge]",
      ...(budget === undefined ? [] : [`    budgets: [{ nodes: "${budget}" }]`]),
      "",
    ].join("\n"),
  );
  return file;
}

const plan = (workload: string, config?: string) => makePlan({ workload: [workload], config, env: {} });
const summary = (nodes: readonly { instanceType: string; pods: number }[]) => nodes.map((n) => `${n.instanceType} (${n.pods} pods)`);

describe("a plan's settled figures", () => {
  // api (1600m, 1Gi) and cache (200m, 12Gi; an HPA takes it from 1 to 2). As configured, both on one node:
  // 1,950m with the DaemonSets is more than a large's 1,930m, 13 GiB more than a c5.xlarge's 8: m5.xlarge, $0.192.
  // At the maximum, the second cache pod finds no room there (13 of ~14.5 GiB taken) and gets a node of its own:
  // r5.large, $0.126. Together $0.318.
  const workload = path.join(FIXTURES, "converge", "api-and-cache.yaml");

  it("replaces two nodes by one cheaper node when the pool's budget lets both go at once", async () => {
    // Multi-node consolidation: one node holding 2,000m (+150m) and 25 GiB is an r5.xlarge, $0.252 < $0.318.
    const max = (await plan(workload, cluster("100%"))).json.scenarios.find((s) => s.name === "autoscaled-max");
    expect(summary(max?.nodes ?? [])).toEqual(["m5.xlarge (2 pods)", "r5.large (1 pods)"]);
    expect(max?.hourlyUsd).toBe(0.318);
    expect({ ...max?.converged, nodes: summary(max?.converged.nodes ?? []) }).toEqual({
      nodeCount: 1,
      hourlyUsd: 0.252,
      monthlyUsd: 183.96,
      nodes: ["r5.xlarge (3 pods)"],
      actions: [{ method: "multi-node", kind: "replace", nodes: 2, replacement: "r5.xlarge", savingHourlyUsd: 0.066 }],
    });
  });

  it("holds the nodes a workload's PodDisruptionBudget allows no disruption of, and says which", async () => {
    // The same two nodes with a budget on cache of minAvailable 100%: both nodes hold a cache pod, so neither may
    // be disrupted, and the multi-node replace above does not happen. The budget is worked out with every pod
    // healthy (a workload has no status): 2 cache pods at the maximum, both must stay.
    const folder = testFolder("converge-pdb");
    const withPdb = path.join(folder, "api-and-cache-pdb.yaml");
    fs.writeFileSync(
      withPdb,
      `${fs.readFileSync(workload, "utf8")}---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: { name: cache, namespace: shop }\nspec:\n  minAvailable: 100%\n  selector: { matchLabels: { app: cache } }\n`,
    );
    const result = await plan(withPdb, cluster("100%"));
    const max = result.json.scenarios.find((s) => s.name === "autoscaled-max");
    expect(max?.converged.actions).toEqual([]);
    expect(max?.converged.nodes.map((n) => [n.instanceType, n.heldByPdbs])).toEqual([
      ["m5.xlarge", ["shop/cache"]],
      ["r5.large", ["shop/cache"]],
    ]);
    expect(result.json.warnings).toContain(
      'as-configured settles with nodes its PodDisruptionBudgets keep from consolidation (Karpenter\'s "Pdb prevents pod evictions"): PodDisruptionBudget shop/cache holds 1 node (m5.xlarge)',
    );
  });

  it("keeps replicas apart that a preferred hostname anti-affinity spread, as Karpenter does: a replacement is a new node, not the launch's first", async () => {
    // web (2 x 100m/128Mi, preferring hostnames apart) and solo (1 x 100m/128Mi) on the default cluster: the launch
    // puts one web on each of two c6g.medium (solo beside one). Moving either node's pods needs the other web's
    // node to take a web, which the preference (a requirement until add fails) refuses, so a new NodeClaim: not
    // cheaper than the node it replaces, no command. A simulation that numbered its NodeClaims from 1 again named
    // its NodeClaim as the launch's first node, counted that node's web on it, relaxed the preference and merged.
    const folder = testFolder("converge-anti-affinity");
    const file = path.join(folder, "web-solo.yaml");
    const antiAffinity =
      "      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - weight: 100\n              podAffinityTerm: { topologyKey: kubernetes.io/hostname, labelSelector: { matchLabels: { app: web } } }\n";
    const deployment = (name: string, replicas: number, extra: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ${name} }\nspec:\n  replicas: ${replicas}\n  selector: { matchLabels: { app: ${name} } }\n  template:\n    metadata: { labels: { app: ${name} } }\n    spec:\n${extra}      containers: [{ name: main, image: x, resources: { requests: { cpu: 100m, memory: 128Mi } } }]\n`;
    fs.writeFileSync(file, [deployment("web", 2, antiAffinity), deployment("solo", 1, "")].join("---\n"));
    const asConfigured = (await plan(file)).json.scenarios[0];
    expect(summary(asConfigured.nodes)).toEqual(["c6g.medium (2 pods)", "c6g.medium (1 pods)"]);
    expect({ hourlyUsd: asConfigured.converged.hourlyUsd, nodes: asConfigured.converged.nodeCount, actions: asConfigured.converged.actions }).toEqual({
      hourlyUsd: 0.068,
      nodes: 2,
      actions: [],
    });
  });

  it("leaves them when the default budget (10% of two nodes: one) lets one go at a time and neither can go alone", async () => {
    // Single-node: the m5.xlarge's pods fit neither beside the cache on the r5.large nor on a cheaper node (api and
    // cache need an xlarge); the r5.large's cache fits nowhere else, and no type under $0.126 holds 12 GiB.
    const max = (await plan(workload, cluster())).json.scenarios.find((s) => s.name === "autoscaled-max");
    expect(max?.converged.hourlyUsd).toBe(0.318);
    expect(max?.converged.actions).toEqual([]);
  });

  it("settles autoscaled-max back at the minimum: the scale-up's node empties and goes", async () => {
    // The second cache pod is on the node launched last (r5.large): the scale-down empties it, emptiness deletes it.
    const result = await plan(workload, cluster());
    const max = result.json.scenarios.find((s) => s.name === "autoscaled-max");
    expect({ ...max?.afterScaleDown, nodes: summary(max?.afterScaleDown?.nodes ?? []) }).toEqual({
      nodeCount: 1,
      hourlyUsd: 0.192,
      monthlyUsd: 140.16,
      nodes: ["m5.xlarge (2 pods)"],
      actions: [{ method: "emptiness", kind: "delete", nodes: 1, replacement: null, savingHourlyUsd: 0.126 }],
    });
    expect(result.json.scenarios.filter((s) => s.afterScaleDown !== undefined).map((s) => s.name)).toEqual(["autoscaled-max"]);
  });

  it("podinfo: one node per frontend at the maximum (host ports), back to one node once scaled down", async () => {
    // Frontend (100m, hostPort 80 and 443; HPA 1 to 4) and backend (100m; HPA 1 to 2): as configured both fit one
    // c6g.medium ($0.034), the cheapest type. At the maximum each frontend needs a node of its own (its host
    // ports): four c6g.medium, the first with the two backends, and no cheaper way to hold them. Scaled down, the
    // three newest nodes empty and go one at a time (10% of four nodes rounds up to one).
    const max = (await plan(path.join(FIXTURES, "real-workloads", "podinfo-secure"))).json.scenarios.find((s) => s.name === "autoscaled-max");
    expect(max?.converged).toMatchObject({ nodeCount: 4, hourlyUsd: 0.136, actions: [] });
    expect(max?.afterScaleDown).toMatchObject({ nodeCount: 1, hourlyUsd: 0.034 });
    expect(max?.afterScaleDown?.actions.map((a) => a.method)).toEqual(["emptiness", "emptiness", "emptiness"]);
  });

  it("warns when allowing arm64 settles dearer than amd64 alone, and says why", async () => {
    // 25 pods of 2650m/18.125Gi and 15 of 4100m/16.625Gi: 127.75 vCPU and 702 GiB. With arm64 allowed, one
    // NodeClaim takes them all (an m8gb.48xlarge, 192 vCPU / 768 GiB); amd64 alone needs an r6a.32xlarge and an
    // r5a.xlarge. Consolidation never splits one node into several cheaper ones.
    const folder = testFolder("converge-packing");
    const deployment = (name: string, cpu: string, memory: string, replicas: number) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ${name} }\nspec:\n  replicas: ${replicas}\n  selector: { matchLabels: { app: ${name} } }\n  template:\n    metadata: { labels: { app: ${name} } }\n    spec:\n      containers: [{ name: main, image: x, resources: { requests: { cpu: ${cpu}, memory: ${memory} } } }]\n`;
    fs.writeFileSync(path.join(folder, "w.yaml"), [deployment("a", "2650m", "18560Mi", 25), deployment("b", "4100m", "17024Mi", 15)].join("---\n"));
    fs.writeFileSync(
      path.join(folder, "cluster.yaml"),
      "name: packing\nnodePools:\n  - name: p0\n    architectures: [arm64]\n    capacityTypes: [on-demand]\n    instanceCategories: [m, r]\n",
    );
    const result = await plan(path.join(folder, "w.yaml"), path.join(folder, "cluster.yaml"));
    const multiarch = result.json.scenarios.find((s) => s.name === "multiarch");
    expect(summary(multiarch?.converged.nodes ?? [])).toEqual(["m8gb.48xlarge (40 pods)"]);
    expect(result.json.warnings).toContain(
      "multiarch settles at $13.9680/hour on 1 node, more than amd64-only's $7.4836/hour on 2 nodes: with arm64 allowed Karpenter packs the pods onto larger nodes, and consolidation replaces several nodes by one cheaper node at most, never one node by several; list instanceSizes for the pool to keep nodes smaller",
    );
  });
});
