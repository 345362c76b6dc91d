import * as fs from "node:fs";
import * as path from "node:path";
import { readStateFile } from "../../src/cluster-state/read-state-file";
import { loadInstanceCatalogue } from "../../src/instance-catalogue/instance-catalogue";
import { clusterStateOf } from "../../src/planner/state/cluster-state";
import { settleState } from "../../src/planner/state/settle-state";
import { generatedState } from "../../src/savings/bench/generated-state";
import { runSavingsCli } from "../../src/savings/savings-cli";
import type { SavingsJson } from "../../src/savings/savings-report";
import {
  type ClusterObject,
  coreDnsTemplate,
  ec2NodeClass,
  fargateDeploymentPods,
  karpenterNode,
  kubectlJson,
  managedNodeGroupNode,
  nodePool,
  stateOf,
} from "../fixtures/eks-cluster/cluster-objects";
import { testFolder } from "../helpers/test-folder";
import { addOns, webPods } from "./cluster-states";

// npm run savings -- --state: a running cluster's state file, read, settled and reported. The states are made of the
// real-shaped fixtures (../fixtures/eks-cluster): NodeClaims, the EKS add-ons' DaemonSet pods (180m and 120Mi of
// every node), pods with everything admission and the controllers add.

const AT = "2026-11-26T12:00:00Z";

async function run(argv: readonly string[], stdin?: string) {
  let out = "";
  let err = "";
  const code = await runSavingsCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: {},
    stdin: stdin === undefined ? undefined : () => Buffer.from(stdin),
    now: () => new Date(AT),
  });
  return { code, out, err };
}

const write = (name: string, value: unknown) => {
  const file = path.join(testFolder("savings"), name);
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
};

const A = "ip-10-0-1-10.ec2.internal";
const B = "ip-10-0-2-20.ec2.internal";
const C = "ip-10-0-3-30.ec2.internal";

/** A NodePool of on-demand amd64 m5.2xlarge and m5.large, every node disruptable at once. */
const GENERAL = nodePool({
  name: "general",
  requirements: [
    { key: "node.kubernetes.io/instance-type", operator: "In", values: ["m5.2xlarge", "m5.large"] },
    { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
  ],
  disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "100%" }] },
});
const general = (name: string, type: string, zone: string) => karpenterNode({ name, instanceType: type, zone, nodePool: "general" });
const kubectlState = (items: readonly ClusterObject[]) => kubectlJson(stateOf([...items]));

/** Two m5.2xlarge of one 500m web pod each: consolidation makes them one m5.large. */
function twoHalfEmpty(): ClusterObject[] {
  const a = general(A, "m5.2xlarge", "us-east-1a");
  const b = general(B, "m5.2xlarge", "us-east-1b");
  return [GENERAL, ec2NodeClass(), a.node, a.nodeClaim, b.node, b.nodeClaim, ...addOns([A, B]), ...webPods("web", [A, B])];
}

describe("npm run savings -- --state", () => {
  it("settles a small cluster, worked out by hand: two half-empty m5.2xlarge become one m5.large", async () => {
    // m5.2xlarge $0.384/h, m5.large $0.096/h (the catalogue's us-east-1 prices). Two nodes of one 500m pod each:
    // multi-node takes both (budget 100%) and one m5.large holds both pods and the add-ons (1,180m of 1,930m).
    const { code, out } = await run(["--state", write("state.json", kubectlState(twoHalfEmpty())), "--format", "json"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as SavingsJson;
    // Each node's $0.384 splits into CPU and memory as 7.91 vCPU x 0.031611 : 29317/1024 GiB x 0.004237: $0.258562
    // and $0.125438. A web pod (500m, 512Mi) takes 500/7910 of the one and 512/29317 of the other: $0.018535 a node;
    // the add-ons kube-proxy (100m) $0.003269, aws-node (50m) $0.001634, ebs-csi-node (30m, 120Mi) $0.001494 and
    // eks-pod-identity-agent (nothing) $0 a node. Both nodes: shop $0.037069, kube-system $0.012795, idle the rest.
    expect(report.now).toMatchObject({
      hourlyUsd: 0.768,
      monthlyUsd: 560.64,
      nodeCount: 2,
      nodes: [
        { name: A, instanceType: "m5.2xlarge", capacityType: "on-demand", zone: "us-east-1a", nodePool: "general", hourlyUsd: 0.384 },
        { name: B, instanceType: "m5.2xlarge", capacityType: "on-demand", zone: "us-east-1b", nodePool: "general", hourlyUsd: 0.384 },
      ],
      fargateHourlyUsd: 0,
      idleHourlyUsd: 0.718136,
      byNamespace: [
        { namespace: "shop", hourlyUsd: 0.037069 },
        { namespace: "kube-system", hourlyUsd: 0.012795 },
      ],
      unpriced: [],
    });
    expect(report.now.byWorkload).toEqual([
      { namespace: "shop", workload: "Deployment/web", hourlyUsd: 0.037069 },
      { namespace: "kube-system", workload: "DaemonSet/kube-proxy", hourlyUsd: 0.006538 },
      { namespace: "kube-system", workload: "DaemonSet/aws-node", hourlyUsd: 0.003269 },
      { namespace: "kube-system", workload: "DaemonSet/ebs-csi-node", hourlyUsd: 0.002988 },
      { namespace: "kube-system", workload: "DaemonSet/eks-pod-identity-agent", hourlyUsd: 0 },
    ]);
    expect({ ...report.converged, blockers: undefined }).toEqual({
      hourlyUsd: 0.096,
      monthlyUsd: 70.08,
      nodeCount: 1,
      nodes: [{ name: "replacement-1", instanceType: "m5.large", capacityType: "on-demand", zone: "us-east-1a", nodePool: "general", hourlyUsd: 0.096 }],
      actions: [
        {
          method: "multi-node",
          kind: "replace",
          nodes: [A, B],
          replacement: {
            name: "replacement-1",
            instanceType: "m5.large",
            capacityType: "on-demand",
            zone: "us-east-1a",
            nodePool: "general",
            hourlyUsd: 0.096,
          },
          savingHourlyUsd: 0.672,
        },
      ],
      blockers: undefined,
      unsettled: false,
    });
    expect(report.converged.blockers).toEqual([{ node: "replacement-1", event: "Unconsolidatable", reason: "Can't replace with a cheaper node" }]);
    expect(report.model).toMatch(/^Karpenter 1\.14\.1's consolidation/);
    expect(report.at).toBe("2026-11-26T12:00:00.000Z");
  });

  it("counts every EC2 node, Karpenter's or not, and prices Fargate pods at the size EKS provisioned", async () => {
    const group = managedNodeGroupNode({ name: A, instanceType: "m5.large", zone: "us-east-1a", nodeGroup: "system" });
    const coreDns = fargateDeploymentPods({ ...coreDnsTemplate(), zones: ["us-east-1a"] });
    const state = write(
      "mixed.json",
      kubectlState([GENERAL, ec2NodeClass(), group, ...coreDns.nodes, ...addOns([A]), ...webPods("web", [A]), ...coreDns.pods]),
    );
    const report = JSON.parse((await run(["--state", state, "--format", "json"])).out) as SavingsJson;
    // 0.25 vCPU x $0.04048 + 0.5 GB x $0.004445 = $0.0123425 (the dated us-east-1 Fargate rates).
    expect(report.fargate).toMatchObject({ podCount: 1, hourlyUsd: 0.012343 });
    expect(report.now).toMatchObject({ nodeCount: 1, hourlyUsd: 0.108343, fargateHourlyUsd: 0.012343 });
    expect(report.converged.hourlyUsd).toBe(0.108343);
    expect(report.converged.blockers).toEqual([
      { node: A, event: null, reason: "not managed by Karpenter: no NodePool owns it (a managed node group's node, or one joined by hand)" },
    ]);
    // What the namespaces use plus what is idle is what the cluster costs.
    const allocated = report.now.byNamespace.reduce((sum, n) => sum + n.hourlyUsd, 0) + report.now.idleHourlyUsd;
    expect(allocated).toBeCloseTo(report.now.hourlyUsd, 5);
  });

  it("refuses a broken state with every problem at once, and names the flag's mistakes", async () => {
    // Not what a cluster returns: a node without its instance-type label, and a pod bound to a node not saved.
    const unlabelled = { apiVersion: "v1", kind: "Node", metadata: { name: "mystery" }, status: {} };
    const orphan = webPods("web", ["gone"])[0];
    const state = write("broken.json", kubectlState([unlabelled as ClusterObject, orphan]));
    const { code, err, out } = await run(["--state", state]);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err.trim().split("\n")).toEqual([
      `${state}: 2 problems`,
      "  - Node mystery: has no node.kubernetes.io/instance-type label (nor beta.kubernetes.io/instance-type), so neither its type nor its price is known; an EC2 node has one",
      "  - 1 pod is bound to node gone, which is not in the state: save the nodes and the pods together",
    ]);
    const flags = await run(["--state", state, "--at", "tomorrow", "--format", "pdf"]);
    expect(flags.code).toBe(2);
    expect(flags.err.split("\n").slice(0, 2)).toEqual([
      '  - --format: got "pdf"; allowed: table, markdown, json',
      '  - --at: got "tomorrow"; must be an RFC 3339 time such as 2026-11-26T14:00:00Z',
    ]);
  });

  it("reads standard input, and says so", async () => {
    const { code, out } = await run(["--state", "-", "--format", "json"], kubectlState(twoHalfEmpty()));
    expect(code).toBe(0);
    expect((JSON.parse(out) as SavingsJson).source).toBe("standard input");
  });
});

describe("a generated cluster of 50 nodes and 1,000 pods, settled", () => {
  // biome-ignore lint/suspicious/noExplicitAny: the generated objects are read field by field, as the test knows them.
  const generated = generatedState({ nodes: 50, podsPerNode: 20 }) as { items: Record<string, any>[] };
  const file = write("generated.json", generated);
  let report: SavingsJson;
  beforeAll(async () => {
    report = JSON.parse((await run(["--state", file, "--format", "json"])).out) as SavingsJson;
  });

  it("never costs more converged than now, and only saves what its actions save", () => {
    expect(report.converged.hourlyUsd).toBeLessThanOrEqual(report.now.hourlyUsd);
    const saved = report.converged.actions.reduce((sum, a) => sum + a.savingHourlyUsd, 0);
    expect(saved).toBeCloseTo(report.savingHourlyUsd, 4);
    expect(report.converged.actions.length).toBeGreaterThan(3);
  });

  it("never removes a node that a do-not-disrupt pod or a PDB allowing nothing holds, nor a node group's", () => {
    const blockingApps = new Set(
      generated.items.filter((i) => i.kind === "PodDisruptionBudget" && i.status.disruptionsAllowed === 0).map((i) => i.spec.selector.matchLabels.app),
    );
    const held = new Set(
      generated.items
        .filter((i) => i.kind === "Pod" && (i.metadata.annotations?.["karpenter.sh/do-not-disrupt"] === "true" || blockingApps.has(i.metadata.labels.app)))
        .map((i) => i.spec.nodeName),
    );
    for (const n of generated.items.filter((i) => i.kind === "Node" && i.metadata.labels["eks.amazonaws.com/nodegroup"] !== undefined))
      held.add(n.metadata.name);
    expect(held.size).toBeGreaterThan(5);
    const removed = new Set(report.converged.actions.flatMap((a) => a.nodes));
    expect([...held].filter((n) => removed.has(n))).toEqual([]);
    // Every node that stays says why.
    expect(report.converged.blockers.map((b) => b.node).sort()).toEqual(report.converged.nodes.map((n) => n.name).sort());
  });

  it("places every pod it moves: each workload has as many pods on the settled nodes as before", () => {
    const catalogue = loadInstanceCatalogue();
    const at = new Date(AT);
    const state = clusterStateOf(readStateFile(file), catalogue, at);
    const result = settleState(state, { catalogue, at, spotToSpot: false });
    const count = (nodes: typeof state.nodes) => {
      const pods = new Map<string, number>();
      for (const n of nodes) for (const { group, count: c } of n.state.pods) pods.set(group.id, (pods.get(group.id) ?? 0) + c);
      return pods;
    };
    expect(result.actions.length).toBeGreaterThan(0);
    expect(count(result.nodes)).toEqual(count(state.nodes));
  });
});

describe("--save and --compare: measure, not just predict", () => {
  it("saves what it read, the prices and the report, and reads the snapshot back as a state", async () => {
    const state = write("before.json", kubectlState(twoHalfEmpty()));
    const snapshot = path.join(testFolder("snapshots"), "before.snapshot.json");
    const first = await run(["--state", state, "--format", "json", "--save", snapshot]);
    expect(first.code).toBe(0);
    const saved = JSON.parse(fs.readFileSync(snapshot, "utf8"));
    expect(saved).toMatchObject({ kind: "AutonomousEksSavingsSnapshot", version: 1, savedAt: "2026-11-26T12:00:00.000Z" });
    expect(saved.prices.instanceTypes).toEqual({ "m5.2xlarge": { onDemandUsd: 0.384 } });
    // No environment, command, probe, token volume or Secret is kept of a pod: the add-ons' pods have all of them.
    expect(JSON.stringify(saved.objects.Pod)).not.toMatch(/"env"|"command"|"args"|"livenessProbe"|"managedFields"|serviceAccountToken/);
    expect(saved.report).toEqual(JSON.parse(first.out));
    const again = await run(["--state", snapshot, "--format", "json"]);
    expect({ ...JSON.parse(again.out), source: undefined }).toEqual({ ...JSON.parse(first.out), source: undefined });
  });

  it("compares a snapshot with what runs now: nothing changed against itself; then the consolidation measured", async () => {
    const state = write("before.json", kubectlState(twoHalfEmpty()));
    const snapshot = path.join(testFolder("snapshots"), "before.snapshot.json");
    await run(["--state", state, "--save", snapshot]);
    const same = JSON.parse((await run(["--state", state, "--format", "json", "--compare", snapshot])).out);
    expect(same.change).toMatchObject({ hourlyUsd: 0, monthlyUsd: 0, nodesAdded: [], nodesRemoved: [], nodesReplaced: [] });
    // Later, Karpenter consolidated: the two m5.2xlarge are one m5.large.
    const c = general(C, "m5.large", "us-east-1a");
    const after = write("after.json", kubectlState([GENERAL, ec2NodeClass(), c.node, c.nodeClaim, ...addOns([C]), ...webPods("web", [C, C])]));
    const { change } = JSON.parse((await run(["--state", after, "--format", "json", "--compare", snapshot])).out);
    expect(change).toMatchObject({
      hourlyUsd: -0.672,
      monthlyUsd: -490.56,
      nodesAdded: [],
      nodesRemoved: [{ name: B, instanceType: "m5.2xlarge" }],
      nodesReplaced: [{ name: A, instanceType: "m5.2xlarge", by: { name: C, instanceType: "m5.large" } }],
    });
    expect(change.predicted[0]).toEqual({
      what: "converged (consolidation alone)",
      predictedHourlyUsd: 0.096,
      measuredHourlyUsd: 0.096,
      differenceHourlyUsd: 0,
    });
  });

  it("refuses to compare with a file that is no snapshot", async () => {
    const notSnapshot = write("plain.json", kubectlState([ec2NodeClass()]));
    const state = write("before.json", kubectlState(twoHalfEmpty()));
    const { code, err } = await run(["--state", state, "--compare", notSnapshot]);
    expect(code).toBe(2);
    expect(err).toContain(`${notSnapshot}: not a snapshot written by --save (no kind: AutonomousEksSavingsSnapshot)`);
  });
});
