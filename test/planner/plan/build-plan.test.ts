import * as fs from "node:fs";
import * as path from "node:path";
import { readCatalogueFile } from "../../../src/instance-catalogue/catalogue-file";
import { catalogueFrom, defaultCataloguePath } from "../../../src/instance-catalogue/instance-catalogue";
import type { FargateProfileModel } from "../../../src/planner/model";
import { fargateProfileFor, fargateSize } from "../../../src/planner/plan/fargate";
import { deployment, FIXTURES, NO_SPOT_OFFLINE, nodesOf, planOf, scenario } from "../helpers";

// Plans checked against arithmetic done by hand on the catalogue's numbers (Karpenter 1.14.1's reference:
// allocatable after kube-reserved and eviction; us-east-1 on-demand prices). The DaemonSets on every node
// request 150m (aws-node 50m, kube-proxy 100m) and take 2 of the node's pods.

const DEFAULT = { name: "demo" };

describe("plans by hand", () => {
  it("the demo: 2 pods of 250m / 512Mi, spread over zones, on two c6g.medium; its HPA's maximum places 100", () => {
    // The chip Deployment spreads over zones with maxSkew 1, ScheduleAnyway: Karpenter holds it as required
    // until it cannot be met (preferences.go), so the second pod cannot join the first pod's NodeClaim
    // (zone a would have 2 pods, zone c none: skew 2) and opens its own in zone b (topologygroup.go
    // nextDomainTopologySpread: the valid zone with the fewest pods, ties in the order listed).
    // Each holds 250m + 150m of DaemonSets and 512 MiB: the cheapest c/m/r type of generation 3+ that does
    // is c6g.medium (940m, 1392 MiB), $0.034/h (c7g.medium $0.0363). The pool allows spot: spot, priced at
    // the on-demand rate offline.
    const plan = planOf(DEFAULT, path.join(__dirname, "../../../templates/demo"));
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(["c6g.medium spot 1 pods", "c6g.medium spot 1 pods"]);
    expect(asConfigured.nodes.map((n) => n.zone)).toEqual(["us-east-1a", "us-east-1b"]);
    expect(asConfigured).toMatchObject({ nodeCount: 2, hourlyUsd: 0.068, monthlyUsd: 49.64 }); // 2 * 0.034 * 730
    expect(asConfigured.nodes[0].priceIsUpperBound).toBe(true);
    // amd64 only: c7a.medium (1 vCPU, 2 GiB; 940m, 1451 MiB) at $0.05132/h each.
    expect(nodesOf(scenario(plan, "amd64-only"))).toEqual(["c7a.medium spot 1 pods", "c7a.medium spot 1 pods"]);
    expect(scenario(plan, "amd64-only").monthlyUsd).toBe(74.93); // 2 * 0.05132 * 730 = 74.9272
    expect(nodesOf(scenario(plan, "on-demand-only"))).toEqual(["c6g.medium on-demand 1 pods", "c6g.medium on-demand 1 pods"]);

    // The HPA (min 2, max 100) adds 98 pods onto those two nodes and new ones; all find one. (How they spread
    // is held in topology.test.ts on a pool whose limits do not bind: here the default pool's memory limit,
    // reserved a largest option at a time, leaves the last new NodeClaims small, and the ScheduleAnyway spread
    // is given up for the pods that no longer fit the zone's node.)
    const max = scenario(plan, "autoscaled-max");
    expect(max.nodes.reduce((n, node) => n + node.pods, 0)).toBe(100);
    expect(max.unschedulable).toEqual([]);
    expect(max.nodes.slice(0, 2).map((n) => `${n.instanceType} ${n.zone}`)).toEqual(["c6g.medium us-east-1a", "c6g.medium us-east-1b"]);
  });

  it("the article's scale test, 100 replicas of 250m / 512Mi, on the default pools: one c6g.8xlarge", () => {
    // Needs 100 * 250 + 150 = 25,150m, 100 * 512 = 51,200 MiB and 102 pods on one node: 26+ vCPUs, so an
    // 8xlarge (32 vCPU). c6g.8xlarge: 32000 - (60 + 10 + 10 + 28000 * 0.25% = 70) = 31,850m; memory
    // 65536 - 64 = 65472, minus ceil(65472 * 0.075) = 4911, is 60561, minus 11 * 234 + 255 = 2829 and 100:
    // 57,632 MiB; 234 pods. Cheapest 32-vCPU c/m/r types: c6g.8xlarge $1.088, c7g.8xlarge $1.16,
    // c6a.8xlarge $1.224 (the cheapest amd64).
    const plan = planOf(DEFAULT, path.join(FIXTURES, "seed-article", "chip-100.yaml"));
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.8xlarge spot 100 pods"]);
    expect(scenario(plan, "as-configured")).toMatchObject({ hourlyUsd: 1.088, monthlyUsd: 794.24 }); // 1.088 * 730
    expect(nodesOf(scenario(plan, "amd64-only"))).toEqual(["c6a.8xlarge spot 100 pods"]);
    expect(scenario(plan, "amd64-only")).toMatchObject({ hourlyUsd: 1.224, monthlyUsd: 893.52 }); // 1.224 * 730
    expect(scenario(plan, "multiarch").hourlyUsd).toBe(1.088);
    expect(plan.json.scenarios.map((s) => s.name)).toEqual(["as-configured", "amd64-only", "multiarch", "on-demand-only"]);
  });

  it("the article's scale test on the article's own Provisioner (m5/c5, large/2xlarge, spot): four nodes", () => {
    // Per 2xlarge node, after 150m of DaemonSets: CPU (7910 - 150) / 250 = 31 pods on either family;
    // memory c5.2xlarge 14,162 / 512 = 27 pods, m5.2xlarge 29,317 / 512 = 57. So a node takes 31 pods and
    // only m5.2xlarge holds them ($0.384): 31 + 31 + 31, then 7 left: 7 * 250 + 150 = 1900m <= 1930m of
    // m5.large, 7 * 512 = 3584 MiB <= 6903 MiB (c5.large has 3114 MiB: too little). $0.096.
    // Spot is the only capacity type: offline it is priced at the on-demand rate, an upper bound.
    const plan = planOf(path.join(FIXTURES, "seed-article", "cluster.yaml"), path.join(FIXTURES, "seed-article", "chip-100.yaml"));
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(["m5.2xlarge spot 31 pods", "m5.2xlarge spot 31 pods", "m5.2xlarge spot 31 pods", "m5.large spot 7 pods"]);
    expect(asConfigured.hourlyUsd).toBe(1.248); // 3 * 0.384 + 0.096
    expect(plan.json.warnings).toEqual([NO_SPOT_OFFLINE]);

    // As the article wrote it, "512m" of memory is 0.512 bytes (1 byte, rounded up): CPU alone decides. 31 pods
    // fit c5.2xlarge too ($0.34, cheaper): 3 of them, then 7 pods on a c5.large (1900m <= 1930m, $0.085).
    const literal = planOf(
      path.join(FIXTURES, "seed-article", "cluster.yaml"),
      fs.readFileSync(path.join(FIXTURES, "seed-article", "chip-100.yaml"), "utf8").replace("memory: 512Mi", "memory: 512m"),
    );
    expect(nodesOf(scenario(literal, "as-configured"))).toEqual([
      "c5.2xlarge spot 31 pods",
      "c5.2xlarge spot 31 pods",
      "c5.2xlarge spot 31 pods",
      "c5.large spot 7 pods",
    ]);
    expect(scenario(literal, "as-configured").hourlyUsd).toBe(1.105); // 3 * 0.34 + 0.085
  });

  it("honours a pool's limits: the node that would pass them is not launched, and the pods say why", () => {
    // Limits cpu: 4 (set limits replace the default ones). Ten 1-CPU pods: a 4-vCPU node holds (3920 - 150) / 1000 = 3 of them (c6g.xlarge, the
    // cheapest 4-vCPU type at $0.136); that uses the whole limit, and 7 pods are left.
    const config = { name: "demo", nodePools: [{ name: "small", limits: { cpu: 4 } }] };
    const plan = planOf(config, deployment("batch", 10, "1", "0"));
    const asConfigured = scenario(plan, "as-configured");
    expect(nodesOf(asConfigured)).toEqual(["c6g.xlarge spot 3 pods"]);
    expect(asConfigured.unschedulable).toEqual([{ pod: "default/batch (7 pods)", reason: "NodePool small: its limits are reached (cpu 4)" }]);
  });

  it("keeps intolerant pods off tainted pools, and pinned pods out of scenarios that exclude their arch", () => {
    const config = {
      name: "demo",
      nodePools: [{ name: "gpu", instanceCategories: ["g"], taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }] }],
    };
    const plan = planOf(config, deployment("web", 1, "1", "1Gi"));
    expect(scenario(plan, "as-configured").unschedulable).toEqual([
      { pod: "default/web", reason: "NodePool gpu: does not tolerate the taint nvidia.com/gpu=true:NoSchedule" },
    ]);

    const pinned = planOf(DEFAULT, deployment("arm", 1, "1", "1Gi", "      nodeSelector: { kubernetes.io/arch: arm64 }\n"));
    expect(scenario(pinned, "as-configured").unschedulable).toEqual([]);
    expect(scenario(pinned, "amd64-only").unschedulable).toEqual([
      { pod: "default/arm", reason: "NodePool default: requires kubernetes.io/arch In [arm64], which none of the pool's instance types has" },
    ]);
  });

  it("holds a pod to each taint effect: PreferNoSchedule does not keep it off, NoExecute does, like NoSchedule", () => {
    // 1 vCPU + 150m of DaemonSets needs a large (2 vCPU, 1930m allocatable): the cheapest c/m/r large is c6g.large, $0.068.
    const tainted = (effect: string) => ({ name: "demo", nodePools: [{ name: "default", taints: [{ key: "example.com/team", value: "a", effect }] }] });
    const preferred = scenario(planOf(tainted("PreferNoSchedule"), deployment("web", 1, "1", "1Gi")), "as-configured");
    expect(nodesOf(preferred)).toEqual(["c6g.large spot 1 pods"]);
    expect(preferred.unschedulable).toEqual([]);
    expect(scenario(planOf(tainted("NoExecute"), deployment("web", 1, "1", "1Gi")), "as-configured").unschedulable).toEqual([
      { pod: "default/web", reason: "NodePool default: does not tolerate the taint example.com/team=a:NoExecute" },
    ]);
    const tolerating = "      tolerations: [{ key: example.com/team, operator: Equal, value: a, effect: NoExecute }]\n";
    expect(nodesOf(scenario(planOf(tainted("NoExecute"), deployment("web", 1, "1", "1Gi", tolerating)), "as-configured"))).toEqual(["c6g.large spot 1 pods"]);
  });

  it("tries pools by weight, and counts workload DaemonSets as overhead on the pools they run on", () => {
    const config = {
      name: "demo",
      nodePools: [{ name: "default" }, { name: "graviton", architectures: ["arm64"], instanceFamilies: ["m7g"], weight: 10 }],
    };
    const agent =
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: { name: agent }\nspec: { template: { spec: { containers: [{ name: c, resources: { requests: { cpu: 500m, memory: 512Mi } } }] } } }\n---\n";
    // Overhead 150m + 500m = 650m and 512 MiB. m7g.medium (940m) leaves 290m: not enough for 2 * 250m;
    // m7g.large (2 vCPU, 1930m, $0.0816) leaves 1280m, and memory to spare.
    const plan = planOf(config, `${agent}${deployment("chip", 2, "250m", "512Mi")}`);
    expect(scenario(plan, "as-configured").nodes.map((n) => [n.pool, n.instanceType])).toEqual([["graviton", "m7g.large"]]);
  });

  it("applies the node class's kubelet maxPods, and Windows' own rules", () => {
    // maxPods 6 on c6g.medium (8 ENI-limited pods otherwise): 6 - 2 DaemonSet pods = 4 workload pods a node.
    // 10 pods of 100m / 128Mi: 4 + 4 + 2, each node 4 * 100 + 150 = 550m <= 940m: three c6g.medium, 3 * 0.034.
    const tight = {
      name: "demo",
      nodeClasses: [{ name: "default", kubelet: { maxPods: 6 } }],
      nodePools: [{ name: "default", instanceFamilies: ["c6g"] }],
    };
    const plan = planOf(tight, deployment("small", 10, "100m", "128Mi"));
    expect(nodesOf(scenario(plan, "as-configured"))).toEqual(["c6g.medium spot 4 pods", "c6g.medium spot 4 pods", "c6g.medium spot 2 pods"]);
    expect(scenario(plan, "as-configured").hourlyUsd).toBe(0.102);

    // Windows: amd64 only, 110 pods, no Linux DaemonSets; kube-reserved 11 * 110 + 255 = 1465 MiB. One pod of
    // 1 CPU / 1Gi needs 2 vCPUs (940m on one); c6a.large: 4096 - 308 - 1465 - 100 = 2223 MiB, $0.0765.
    const windows = {
      name: "demo",
      nodeClasses: [{ name: "win", amiAlias: "windows2022@latest" }],
      nodePools: [{ name: "win", nodeClass: "win", architectures: ["amd64"], instanceFamilies: ["c6a", "c6g"] }],
    };
    const win = planOf(windows, deployment("iis", 1, "1", "1Gi", "      nodeSelector: { kubernetes.io/os: windows }\n"));
    expect(scenario(win, "as-configured").nodes).toEqual([
      { pool: "win", instanceType: "c6a.large", capacityType: "spot", priceIsUpperBound: true, arch: "amd64", pods: 1, hourlyUsd: 0.0765 },
    ]);
    // multiarch allows arm64, but Windows nodes are amd64 only: c6g stays out.
    expect(scenario(win, "multiarch").nodes.map((n) => n.instanceType)).toEqual(["c6a.large"]);
    expect(win.json.warnings).toContain("Windows NodePools win are priced at Linux rates: the Windows license AWS adds per vCPU-hour is not included");
  });

  it("prices Fargate-bound pods as Fargate, by Fargate's rounding, apart from the nodes", () => {
    // The monitoring profile takes the namespace. 500m / 1Gi: 0.5 vCPU; 1 GiB + 256 MiB = 1.25 GB rounds
    // up to 2 GB. 0.5 * 0.04048 + 2 * 0.004445 = 0.02913 per pod, 3 pods: 0.08739.
    const config = { name: "demo", fargate: { profiles: [{ name: "monitoring", namespaces: ["monitoring"] }] } };
    const plan = planOf(config, deployment("prometheus", 3, "500m", "1Gi", "", "monitoring"));
    expect(scenario(plan, "as-configured").nodeCount).toBe(0);
    expect(plan.workload).toMatchObject({ pods: 3, nodePods: 0, fargatePods: 3 });
    expect(plan.json.fargateWorkload).toEqual({ items: [{ what: "Fargate: namespace monitoring, 3 pods", hourlyUsd: 0.08739 }], hourlyUsd: 0.08739 });
    // Apart from what the design costs: the base holds no workload pod.
    expect(plan.json.base.items.map((i) => i.what.split(",")[0])).toEqual([
      "EKS control plane (standard support until 2027-03-27; $0.6/hour from then",
      "Fargate: coredns",
      "Fargate: karpenter",
      "NAT gateways: 1 (hourly charge; data processed",
      "VPC flow logs (REJECT) to CloudWatch Logs: $0.50/GB ingested and $0.03/GB-month stored",
    ]);
  });

  it("the base: control plane, CoreDNS and Karpenter on Fargate, one NAT gateway", () => {
    // 0.10 control plane
    // CoreDNS (the add-on: 0.25 / 256M = 244 MiB): 0.25 vCPU, 244 + 256 MiB -> 0.5 GB: 0.25 * 0.04048 + 0.5 * 0.004445 = 0.0123425, x2 = 0.024685
    // Karpenter 1 CPU / 1Gi: 1 vCPU, 1.25 GB -> 2 GB: 0.04048 + 2 * 0.004445 = 0.04937, x2 = 0.09874
    // NAT: 0.045
    // Flow logs: billed by volume only, named at 0
    const plan = planOf(DEFAULT, deployment("none", 0, "1", "1Gi"));
    expect(plan.json.base.items.map((i) => i.hourlyUsd)).toEqual([0.1, 0.024685, 0.09874, 0.045, 0]);
    const noFlowLogs = planOf({ ...DEFAULT, network: { flowLogs: { traffic: "none" } } }, deployment("none", 0, "1", "1Gi"));
    expect(noFlowLogs.json.base.items.map((i) => i.what).filter((w) => w.startsWith("VPC flow logs"))).toEqual([]);
    expect(plan.json.base.hourlyUsd).toBe(0.268425);
    // 1.35 is in standard support until 2027-03-27 (EKS's calendar); the default upgradePolicy (extended)
    // then bills $0.60, standard lets EKS upgrade the control plane.
    expect(plan.json.base.items[0].what).toBe("EKS control plane (standard support until 2027-03-27; $0.6/hour from then, as upgradePolicy is extended)");
    const standard = planOf({ ...DEFAULT, cluster: { upgradePolicy: "standard" } }, deployment("none", 0, "1", "1Gi"));
    expect(standard.json.base.items[0].what).toBe("EKS control plane (standard support until 2027-03-27; then EKS upgrades it, as upgradePolicy is standard)");
  });

  it("says a date EKS has not published is a lower bound: 1.36's standard support", () => {
    const plan = planOf({ ...DEFAULT, kubernetesVersion: "1.36" }, deployment("none", 0, "1", "1Gi"));
    expect(plan.json.base.items[0]).toEqual({
      what: "EKS control plane (standard support until 2027-06-22 at the earliest; $0.6/hour from then, as upgradePolicy is extended)",
      hourlyUsd: 0.1,
    });
  });

  it("bills extended support for a version past standard support, whatever the upgradePolicy", () => {
    // 1.32 left standard support on 2026-03-23: $0.60 instead of $0.10 per cluster-hour.
    for (const upgradePolicy of ["extended", "standard"]) {
      const plan = planOf({ ...DEFAULT, kubernetesVersion: "1.32", cluster: { upgradePolicy } }, deployment("none", 0, "1", "1Gi"));
      expect(plan.json.base.items[0]).toEqual({
        what: "EKS control plane (extended support: Kubernetes 1.32 left standard support on 2026-03-23)",
        hourlyUsd: 0.6,
      });
      expect(plan.json.base.hourlyUsd).toBe(0.768425);
    }
  });

  it("Fargate's sizes: the larger of requests and init requests, plus 256 MiB, rounded up to a supported size", () => {
    const MIB = 2 ** 20;
    expect(fargateSize({ cpuMillis: 0, memoryBytes: 0 })).toMatchObject({ vcpu: 0.25, memoryGb: 0.5 });
    expect(fargateSize({ cpuMillis: 250, memoryBytes: 256_000_000 })).toMatchObject({ vcpu: 0.25, memoryGb: 0.5 }); // 244 + 256 MiB < 512
    expect(fargateSize({ cpuMillis: 250, memoryBytes: 300 * MIB })).toMatchObject({ vcpu: 0.25, memoryGb: 1 });
    expect(fargateSize({ cpuMillis: 3000, memoryBytes: 1024 * MIB })).toMatchObject({ vcpu: 4, memoryGb: 8 });
    expect(fargateSize({ cpuMillis: 4000, memoryBytes: 30 * 1024 * MIB })).toBeUndefined(); // 30 GiB + 256 MiB > 30 GB
  });

  it("Fargate's selectors: * and ? wildcards in namespaces, label keys and values, as EKS matches them", () => {
    const profiles: FargateProfileModel[] = [
      {
        name: "teams",
        selectors: [
          { namespace: "team-*", labels: {} },
          { namespace: "job-?", labels: { "tier.*": "web-?" } },
        ],
      },
    ];
    expect(fargateProfileFor("team-a", {}, profiles)?.name).toBe("teams");
    expect(fargateProfileFor("team-", {}, profiles)?.name).toBe("teams"); // * matches no character too
    expect(fargateProfileFor("teams", {}, profiles)).toBeUndefined();
    expect(fargateProfileFor("job-1", { "tier.kind": "web-2" }, profiles)?.name).toBe("teams");
    expect(fargateProfileFor("job-12", { "tier.kind": "web-2" }, profiles)).toBeUndefined(); // ? is one character
    expect(fargateProfileFor("job-1", { "tier.kind": "web-20" }, profiles)).toBeUndefined();
    expect(fargateProfileFor("job-1", {}, profiles)).toBeUndefined();
    // A dot in a pattern is a dot, not any character.
    expect(fargateProfileFor("job-1", { tierxkind: "web-2" }, profiles)).toBeUndefined();
  });

  it("the floor: the requests at the cheapest rates of the allowed types", () => {
    // Only c6g allowed: $0.034 per vCPU with 2 GiB per vCPU at every size. 100 pods need 25 vCPU and
    // 50 GiB = 25 * 2 GiB: 25 * 0.034 = 0.85 per hour, whatever the mix.
    const config = { name: "demo", nodePools: [{ name: "c6g", instanceFamilies: ["c6g"] }] };
    const plan = planOf(config, path.join(FIXTURES, "seed-article", "chip-100.yaml"));
    expect(plan.json.floorHourlyUsd).toBe(0.85);
  });

  it("the floor prices spot in the pool's zones only, as the nodes are", () => {
    // c6g.medium (1 vCPU, 2 GiB) at spot $0.010 in us-east-1a and $0.017 in us-east-1b; the pool may use
    // us-east-1b only. 100 pods need 25 vCPU and 50 GiB: 25 * 0.017 = 0.425 (not 25 * 0.010 = 0.25).
    const committed = readCatalogueFile(defaultCataloguePath());
    const catalogue = catalogueFrom({
      ...committed,
      spot: { asOf: "2026-11-23T00:00:00Z", usd: { "c6g.medium": { "us-east-1a": 0.01, "us-east-1b": 0.017 } } },
    });
    const config = {
      name: "demo",
      nodePools: [{ name: "spot", instanceFamilies: ["c6g"], instanceSizes: ["medium"], capacityTypes: ["spot"], zones: ["us-east-1b"] }],
    };
    const plan = planOf(config, path.join(FIXTURES, "seed-article", "chip-100.yaml"), catalogue);
    expect(plan.json.floorHourlyUsd).toBe(0.425);
  });
});
