import * as fs from "node:fs";
import * as path from "node:path";
import { STATE_KINDS } from "../../src/cluster-state/state-kinds";
import { runSavingsCli } from "../../src/savings/savings-cli";
import type { SavingsJson } from "../../src/savings/savings-report";
import { kubectlJson, realisticEksCluster, stateOf } from "../fixtures/eks-cluster/cluster-objects";
import { startFakeClusterApi, writeKubeconfig } from "../helpers/fake-cluster-api";
import { describeWithKubectl } from "../helpers/kubectl-cli";
import { testFolder } from "../helpers/test-folder";
import { generateTestPki } from "../helpers/test-pki";
import { AT } from "./cluster-states";

// The savings report on a cluster as the API server returns it (../fixtures/eks-cluster/realistic-state.ts): every
// field controllers and admission add, the DaemonSet controller's matchFields affinity on each add-on pod among
// them, which the report once refused ("matchFields: is not supported by the planner"). Read from a saved state and
// from the API through the real kubectl, it is the same report, worked out by hand from the state:
//   - now: the EC2 nodes at the catalogue's on-demand prices, m6i.xlarge $0.192 + c6i.2xlarge $0.34 + m6g.xlarge
//     (spot, priced at on-demand offline) $0.154 + r6i.large $0.126 + c7i.xlarge $0.1785 + c6a.xlarge $0.153 +
//     t3.large $0.0832 = $1.2267, and six Fargate pods at their CapacityProvisioned sizes: four of 0.25 vCPU /
//     0.5 GB and two of 1 vCPU / 2 GB at $0.04048 per vCPU and $0.004445 per GB, $0.14811: $1.37481;
//   - nothing moves. Of the default pool's five nodes, four count for its budget (the one launching has not
//     initialized), 10% of four rounds up to one, and the node being drained takes it: no disruption left.

const { items, nodes } = realisticEksCluster();
const pki = generateTestPki();

const BLOCKERS = {
  [nodes.general]: "No allowed disruptions for disruption reason Underutilized due to blocking budget",
  [nodes.compute]: expect.stringMatching(/^Pod has "karpenter\.sh\/do-not-disrupt" annotation \(Pod=shop\/cache-[a-z0-9]+-[a-z0-9]{5}\)$/),
  [nodes.armSpot]: "No allowed disruptions for disruption reason Underutilized due to blocking budget",
  [nodes.draining]: "Node is deleting or marked for deletion",
  [nodes.launching]: "Node isn't initialized",
  [nodes.batch]: 'NodePool "batch" has consolidation policy WhenEmpty, but node is not empty',
  [nodes.managed]: "not managed by Karpenter: no NodePool owns it (a managed node group's node, or one joined by hand)",
};

async function run(argv: readonly string[]) {
  let out = "";
  let err = "";
  const code = await runSavingsCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: { PATH: process.env.PATH, HOME: testFolder("home") },
    now: () => new Date(AT),
  });
  return { code, out, err };
}

function expectTheReport(report: SavingsJson) {
  expect(report.now).toMatchObject({ hourlyUsd: 1.37481, nodeCount: 7, fargateHourlyUsd: 0.14811 });
  expect(report.converged).toMatchObject({ hourlyUsd: 1.37481, nodeCount: 7, actions: [] });
  expect(Object.fromEntries(report.converged.blockers.map((b) => [b.node, b.reason]))).toEqual(BLOCKERS);
  expect(report.pending).toEqual([
    {
      workload: "shop/Deployment/analytics",
      count: 1,
      outcome: "unschedulable",
      reason:
        "NodePool batch: does not tolerate the taint workload=batch:NoSchedule; NodePool default: requires node.kubernetes.io/instance-type In [x2iedn.32xlarge], which none of the pool's instance types has",
    },
    {
      workload: "shop/Deployment/checkout",
      count: 1,
      outcome: "ignored",
      reason: `kube-scheduler nominated node ${nodes.compute} for it (preemption): Karpenter waits (IsPreempting)`,
    },
  ]);
  // The DaemonSets' pins and the shop's pods are read without a warning: nothing of them is beyond the planner.
  expect(report.warnings.filter((w) => w.includes("read as far as the planner models it") || w.includes("pinned to its node"))).toEqual([]);
}

describe("npm run savings on a cluster as the API server returns it", () => {
  it("reads a saved state (kubectl get ... -o json) without refusing anything, and settles it as Karpenter would", async () => {
    const file = path.join(testFolder("real-cluster"), "state.json");
    fs.writeFileSync(file, kubectlJson(stateOf(items)));
    const { code, out, err } = await run(["--state", file, "--format", "json"]);
    expect({ code, err }).toEqual({ code: 0, err: "" });
    expectTheReport(JSON.parse(out) as SavingsJson);
  });
});

describeWithKubectl("npm run savings on a running cluster as the API server returns it, through kubectl", () => {
  it("gives the same report as the saved state", async () => {
    const lists = Object.fromEntries(STATE_KINDS.map((k) => [k.path, items.filter((i) => i.kind === k.kind)]));
    const api = await startFakeClusterApi({ pki, lists, tokens: ["reader"] });
    try {
      const kubeconfig = writeKubeconfig(testFolder("kubeconfig"), api, pki, { token: "reader" });
      const { code, out, err } = await run(["--kubeconfig", kubeconfig, "--format", "json"]);
      expect({ code, err }).toEqual({ code: 0, err: "" });
      expectTheReport(JSON.parse(out) as SavingsJson);
    } finally {
      await api.close();
    }
  });
});
