import * as fs from "node:fs";
import * as path from "node:path";
import { readCatalogueFile } from "../../src/instance-catalogue/catalogue-file";
import { CATALOGUE_PATH, catalogueFrom } from "../../src/instance-catalogue/instance-catalogue";
import { LiveDataError } from "../../src/planner/live/live-catalogue";
import { runSavingsCli } from "../../src/savings/savings-cli";
import type { SavingsJson } from "../../src/savings/savings-report";
import {
  type ClusterObject,
  deploymentPods,
  ec2NodeClass,
  karpenterNode,
  kubectlJson,
  managedNodeGroupNode,
  nodePool,
  pdb,
  statefulSetPods,
  stateOf,
} from "../fixtures/eks-cluster/cluster-objects";
import { testFolder } from "../helpers/test-folder";
import { addOns } from "./cluster-states";

// What Graviton and spot would save, worked out by hand on a cluster small enough to: one NodePool of amd64
// on-demand nodes limited to m5.large ($0.096/h) and m6g.large ($0.077/h), the catalogue's us-east-1 prices. Both
// hold 1930m of CPU, 1,750m once the EKS add-ons run: one pod of 1200m fills a node. Five pods, five nodes, as a
// running cluster returns them (../fixtures/eks-cluster):
//   web     Deployment, 2 replicas, image nginx:1.27
//   db      StatefulSet, 1 replica, image postgres:16
//   legacy  Deployment, 2 replicas, nodeSelector kubernetes.io/arch: amd64

const AT = "2026-11-26T12:00:00Z";
const ROOT = path.resolve(__dirname, "../..");

const write = (items: readonly ClusterObject[]) => {
  const file = path.join(testFolder("savings-moves"), "state.json");
  fs.writeFileSync(file, kubectlJson(stateOf([...items])));
  return file;
};

/** A NodePool of amd64 on-demand nodes of these types, consolidating when empty or underutilized, every node at once. */
const general = (types: readonly string[]) =>
  nodePool({
    name: "general",
    requirements: [
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
      { key: "node.kubernetes.io/instance-type", operator: "In", values: [...types] },
    ],
    disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "100%" }] },
  });

/** A node named as EKS names them: Karpenter's (with its NodeClaim) when `pool` is given, else a managed node group's. */
function node(name: string, zone: string, pool: string | null = "general", type = "m5.large"): ClusterObject[] {
  if (pool === null) return [managedNodeGroupNode({ name, instanceType: type, zone, nodeGroup: "system" })];
  const launched = karpenterNode({ name, instanceType: type, zone, nodePool: pool });
  return [launched.node, launched.nodeClaim];
}

const pods = (name: string, nodes: readonly string[], image: string, nodeSelector?: Record<string, string>, hash?: string) =>
  deploymentPods({
    namespace: "shop",
    name,
    labels: { app: name },
    nodes,
    nodeSelector,
    hash,
    containers: [{ name: "main", image, requests: { cpu: "1200m", memory: "1Gi" } }],
  });

const [A, B, C, D, E, F] = ["ip-10-0-1-10", "ip-10-0-2-20", "ip-10-0-1-30", "ip-10-0-1-40", "ip-10-0-2-50", "ip-10-0-1-60"].map((n) => `${n}.ec2.internal`);

/** The shop on five m5.large of the pool (or of a node group, `pool` null), with the EKS add-ons on each. */
function shop(pool: string | null, types: readonly string[] = ["m5.large", "m6g.large"]): ClusterObject[] {
  return [
    ...(pool === null ? [] : [general(types), ec2NodeClass()]),
    ...node(A, "us-east-1a", pool),
    ...node(B, "us-east-1b", pool),
    ...node(C, "us-east-1a", pool),
    ...node(D, "us-east-1a", pool),
    ...node(E, "us-east-1b", pool),
    ...addOns([A, B, C, D, E]),
    ...pods("web", [A, B], "nginx:1.27"),
    ...statefulSetPods({
      namespace: "shop",
      name: "db",
      serviceName: "db",
      labels: { app: "db" },
      nodes: [C],
      containers: [{ name: "main", image: "postgres:16", requests: { cpu: "1200m", memory: "1Gi" } }],
    }),
    ...pods("legacy", [D, E], "legacy:1", { "kubernetes.io/arch": "amd64" }),
  ];
}

/** The shipped catalogue with spot prices as --live would bring them: m5.large $0.04, m6g.large $0.03, in both zones. */
function withSpot() {
  const file = readCatalogueFile(path.join(ROOT, CATALOGUE_PATH));
  const zones = (usd: number) => ({ "us-east-1a": usd, "us-east-1b": usd });
  return catalogueFrom({ ...file, spot: { asOf: "2026-11-26T11:00:00Z", usd: { "m5.large": zones(0.04), "m6g.large": zones(0.03) } } });
}

async function report(state: readonly ClusterObject[], extra: readonly string[] = [], live = false) {
  let out = "";
  let err = "";
  const regions: string[] = [];
  const code = await runSavingsCli(["--state", write(state), ...extra], {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: {},
    now: () => new Date(AT),
    liveCatalogue: live
      ? async (region) => {
          regions.push(region);
          return withSpot();
        }
      : undefined,
  });
  return { code, out, err, regions, json: code === 0 && extra.includes("json") ? (JSON.parse(out) as SavingsJson) : undefined };
}

describe("npm run savings: Graviton and spot", () => {
  it("prices arm64 against a fresh start on the NodePool as it is, and leaves the pinned workload on amd64", async () => {
    // Fresh start: five pods, each alone on an m5.large (amd64 only): 5 x $0.096 = $0.48.
    // arm64: web and db on m6g.large (3 x $0.077 = $0.231), legacy stays on m5.large (2 x $0.096): $0.423.
    const { code, json } = await report(shop("general"), ["--format", "json"]);
    expect(code).toBe(0);
    expect(json?.freshStart).toEqual({ hourlyUsd: 0.48, monthlyUsd: 350.4, nodeCount: 5, pools: "the cluster's NodePools as they are", podCount: 5 });
    expect(json?.moves[0]).toEqual({
      name: "arm64",
      priced: true,
      hourlyUsd: 0.423,
      monthlyUsd: 308.79,
      nodeCount: 5,
      savingHourlyUsd: 0.057,
      savingMonthlyUsd: 41.61,
      // Now is five m5.large too ($0.48): against now, the same saving.
      savingVsNowHourlyUsd: 0.057,
      savingVsNowMonthlyUsd: 41.61,
      heldBack: [{ workload: "shop/Deployment/legacy", reason: "its node selector or required node affinity admits no arm64 instance type" }],
      unverified: [
        { workload: "shop/Deployment/web", images: ["nginx:1.27"] },
        { workload: "shop/StatefulSet/db", images: ["postgres:16"] },
      ],
      unschedulable: [],
    });
    expect(json?.warnings).toEqual([
      "the pods on Karpenter's nodes are re-planned from scratch and settled, for the fresh start and for each move; nodes no NodePool owns stay as they run",
      "spot and arm64+spot are priced at the on-demand rate offline (priced: false), so they show what repacking alone saves and which workloads stay on-demand; --live prices spot",
    ]);
  });

  it("offline, lists the spot moves priced at the on-demand rate, with the workloads they hold back", async () => {
    // Spot at the on-demand rate: spot packs as on-demand does, so spot costs the fresh start's $0.48, and
    // arm64+spot what arm64 costs, $0.423. What stays on-demand needs no price to be known: db, one replica.
    const { json } = await report(shop("general"), ["--format", "json"]);
    expect(json?.moves.map((m) => [m.name, m.priced, m.hourlyUsd, m.savingHourlyUsd])).toEqual([
      ["arm64", true, 0.423, 0.057],
      ["spot", false, 0.48, 0],
      ["arm64+spot", false, 0.423, 0.057],
    ]);
    expect(json?.moves[1].heldBack).toEqual([{ workload: "shop/StatefulSet/db", reason: "one replica: a spot interruption would take it down" }]);
  });

  it("with --live spot prices, moves replicated workloads to spot and keeps the single replica on on-demand", async () => {
    // spot (amd64 only): web 2 x $0.04 and legacy 2 x $0.04 on spot m5.large, db (one replica) on-demand $0.096:
    // $0.256. arm64+spot: web 2 x $0.03 on spot m6g.large, db on-demand m6g.large $0.077, legacy 2 x $0.04: $0.217.
    const { code, json, regions } = await report(shop("general"), ["--format", "json", "--live"], true);
    expect(code).toBe(0);
    expect(regions).toEqual(["us-east-1"]);
    expect(json?.prices.spot).toBe("live");
    expect(json?.freshStart.hourlyUsd).toBe(0.48);
    expect(json?.moves.map((m) => [m.name, m.hourlyUsd, m.savingHourlyUsd])).toEqual([
      ["arm64", 0.423, 0.057],
      ["spot", 0.256, 0.224],
      ["arm64+spot", 0.217, 0.263],
    ]);
    expect(json?.moves[1].heldBack).toEqual([{ workload: "shop/StatefulSet/db", reason: "one replica: a spot interruption would take it down" }]);
    expect(json?.moves[2].heldBack).toEqual([
      { workload: "shop/Deployment/legacy", reason: "its node selector or required node affinity admits no arm64 instance type" },
      { workload: "shop/StatefulSet/db", reason: "one replica: a spot interruption would take it down" },
    ]);
    expect(json?.moves.every((m) => m.priced)).toBe(true);
    expect(json?.warnings).toHaveLength(1);
  });

  it("holds back from spot what a PodDisruptionBudget allows no disruption of", async () => {
    const budget = pdb({
      namespace: "shop",
      name: "web",
      selector: { app: "web" },
      minAvailable: 2,
      status: { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 2 },
    });
    const { json } = await report([...shop("general"), budget], ["--format", "json", "--live"], true);
    expect(json?.moves[1].heldBack).toEqual([
      { workload: "shop/Deployment/web", reason: "PodDisruptionBudget shop/web allows no disruption" },
      { workload: "shop/StatefulSet/db", reason: "one replica: a spot interruption would take it down" },
    ]);
    // web stays on-demand too: 2 x $0.096 + db $0.096 + legacy 2 x $0.04.
    expect(json?.moves[1].hourlyUsd).toBe(0.368);
  });

  it("says arm64 cannot move anything when the NodePool's instance types are x86 ones, instead of a $0 saving and images to check", async () => {
    const { json, out } = await report(shop("general", ["m5.large"]), ["--format", "json"]);
    const arm64 = json?.moves[0];
    expect(arm64).toMatchObject({
      name: "arm64",
      hourlyUsd: 0.48,
      savingHourlyUsd: 0,
      unverified: [],
      cannotMove:
        "the NodePools' requirements admit no arm64 instance type even with arm64 allowed (their instance types, families or categories are x86 ones): nothing can move to Graviton until they list arm64 types",
    });
    expect(out).not.toContain("never seen on arm64");
  });

  it("measures each move against now too, and says so plainly when the fresh start costs more than now", async () => {
    // One web pod on an m5.large ($0.096) that runs now, on a NodePool since narrowed to m5.4xlarge ($0.768): a
    // fresh start would launch an m5.4xlarge, dearer than what runs. Against now, arm64 (none offered) saves -$0.672.
    const state = [general(["m5.4xlarge"]), ec2NodeClass(), ...node(A, "us-east-1a"), ...addOns([A]), ...pods("web", [A], "nginx:1.27")];
    const { json } = await report(state, ["--format", "json"]);
    expect(json?.now.hourlyUsd).toBe(0.096);
    expect(json?.freshStart.hourlyUsd).toBe(0.768);
    expect(json?.moves[0]).toMatchObject({ savingHourlyUsd: 0, savingVsNowHourlyUsd: -0.672, savingVsNowMonthlyUsd: -490.56 });
    expect(json?.warnings).toContain(
      "a fresh start on the NodePools as they are costs more than the cluster does now ($0.7680/hour against $0.0960/hour): they would launch dearer nodes than those running (their requirements leave out types that run now), so a move's saving against the fresh start is not a saving on the bill: read each move against now",
    );
  });

  it("counts an image seen on an arm64 node as verified", async () => {
    // A sixth node, an m6g.large (arm64), runs a web pod of another revision of the same image.
    const arm = [...node(F, "us-east-1a", "general", "m6g.large"), ...addOns([F], undefined, true), ...pods("web", [F], "nginx:1.27", undefined, "7d4b8c9f6")];
    const { json } = await report([...shop("general"), ...arm], ["--format", "json"]);
    expect(json?.moves[0].unverified).toEqual([{ workload: "shop/StatefulSet/db", images: ["postgres:16"] }]);
  });

  it("re-plans a cluster without NodePools on autonomous-eks's default NodePool", async () => {
    const { code, json } = await report(shop(null), ["--format", "json"]);
    expect(code).toBe(0);
    expect(json?.freshStart).toMatchObject({ pools: "autonomous-eks's default NodePool, amd64 on-demand", podCount: 5 });
    expect(json?.warnings[0]).toBe(
      "the cluster has no NodePool: its nodes' pods are re-planned on autonomous-eks's default NodePool (amd64 on-demand for the fresh start)",
    );
    // Karpenter packs the five pods onto one NodeClaim, and legacy's amd64 selector holds that node on amd64: arm64
    // saves nothing here, and says why.
    const arm64 = json?.moves[0];
    expect(json?.freshStart.nodeCount).toBe(1);
    expect(arm64?.hourlyUsd).toBe(json?.freshStart.hourlyUsd);
    expect(arm64?.heldBack.map((h) => h.workload)).toEqual(["shop/Deployment/legacy"]);
  });

  it("shows the moves in the table, with what each leaves behind", async () => {
    const { out } = await report(shop("general"));
    expect(out).toContain("fresh start (the cluster's NodePools as they are)      5  $0.4800  $350.40              -           $0.00");
    expect(out).toContain("arm64                                                  5  $0.4230  $308.79         $41.61          $41.61");
    expect(out).toContain(
      "arm64 leaves 1 workload where they run: shop/Deployment/legacy (its node selector or required node affinity admits no arm64 instance type).",
    );
    expect(out).toContain("arm64 moves 2 workloads whose images were never seen on arm64: check nginx:1.27, postgres:16 have arm64 variants.");
    // The control plane, which no figure above holds: the kubelets say Kubernetes 1.33, past standard support on
    // 2026-07-29 (EKS's calendar), so billed at the extended rate.
    expect(out).toContain("EKS control plane, Kubernetes 1.33 (extended support, since 2026-07-29)  $0.6000  $438.00");
  });

  it("shows the moves in Markdown, with a row for each workload a move leaves or cannot verify", async () => {
    const { out } = await report(shop("general"), ["--format", "markdown"]);
    expect(out).toContain("## Graviton and spot");
    expect(out).toContain("| arm64 | 5 | $0.4230 | $308.79 | $41.61 | $41.61 |");
    expect(out).toContain("| arm64 | shop/Deployment/legacy | stays: its node selector or required node affinity admits no arm64 instance type |");
    expect(out).toContain("| arm64 | shop/StatefulSet/db | moved, but its images were never seen on arm64: postgres:16 |");
    expect(out).toContain('x-axis ["now", "converged", "fresh start", "arm64", "spot", "arm64+spot"]');
    expect(out).toContain("| EKS control plane, Kubernetes 1.33 (extended support, since 2026-07-29) | $0.6000 | $438.00 |");
  });

  it("exits 1 with the live failure's own words when --live prices cannot be had", async () => {
    let err = "";
    const code = await runSavingsCli(["--state", write(shop("general")), "--live"], {
      out: () => {},
      err: (t) => {
        err += t;
      },
      env: {},
      now: () => new Date(AT),
      liveCatalogue: async () => {
        throw new LiveDataError("--live needs AWS credentials and found none");
      },
    });
    expect({ code, err }).toEqual({ code: 1, err: "npm run savings: --live needs AWS credentials and found none" });
  });

  it("refuses --live when no node says its region", async () => {
    const state = shop("general");
    for (const item of state) {
      if (item.kind !== "Node") continue;
      const labels = item.metadata?.labels ?? {};
      delete labels["topology.kubernetes.io/region"];
      delete labels["failure-domain.beta.kubernetes.io/region"];
    }
    const { code, err } = await report(state, ["--live"], true);
    expect(code).toBe(2);
    expect(err).toContain("--live: no node carries topology.kubernetes.io/region, so the region to price is not known");
  });
});
