import * as fs from "node:fs";
import * as path from "node:path";
import { STATE_KINDS } from "../../src/cluster-state/state-kinds";
import { generatedState } from "../../src/savings/bench/generated-state";
import { runSavingsCli, type SavingsIo } from "../../src/savings/savings-cli";
import { startFakeClusterApi, writeKubeconfig } from "../helpers/fake-cluster-api";
import { describeWithKubectl } from "../helpers/kubectl-cli";
import { testFolder } from "../helpers/test-folder";
import { generateTestPki } from "../helpers/test-pki";

// npm run savings on a running cluster: the real kubectl on PATH, through kubectl proxy, against a real HTTPS
// stand-in of the Kubernetes API serving a generated state of 40 nodes and 800 pods, with Fargate pods and PDBs.

const AT = "2026-11-26T12:00:00Z";
const pki = generateTestPki();
const generated = generatedState({ nodes: 40, podsPerNode: 20, seed: 11 }) as { items: Record<string, unknown>[] };

/** The generated objects by list path, as the API serves them. */
function listsOf(items: readonly Record<string, unknown>[], without: readonly string[] = []): Record<string, unknown[]> {
  const lists: Record<string, unknown[]> = {};
  for (const kind of STATE_KINDS) if (!without.includes(kind.kind)) lists[kind.path] = items.filter((i) => i.kind === kind.kind);
  return lists;
}

async function run(argv: readonly string[], extra: Partial<SavingsIo> = {}) {
  let out = "";
  let err = "";
  const updates: string[] = [];
  const code = await runSavingsCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += `${t}\n`;
    },
    env: { PATH: process.env.PATH, HOME: testFolder("home") },
    now: () => new Date(AT),
    progress: { update: (kind, count) => updates.push(`${kind} ${count}`), done: () => updates.push("done") },
    ...extra,
  });
  return { code, out, err, updates };
}

describeWithKubectl("npm run savings on a running cluster, through kubectl", () => {
  it("gives the same report as --state on the same objects, reading only with GETs, and shows its progress", async () => {
    const api = await startFakeClusterApi({ pki, lists: listsOf(generated.items), tokens: ["reader"] });
    try {
      const kubeconfig = writeKubeconfig(testFolder("kubeconfig"), api, pki, { token: "reader" });
      const live = await run(["--kubeconfig", kubeconfig, "--format", "json"]);
      expect({ code: live.code, err: live.err }).toEqual({ code: 0, err: "" });
      const stateFile = path.join(testFolder("state"), "state.json");
      fs.writeFileSync(stateFile, JSON.stringify(generated));
      const saved = await run(["--state", stateFile, "--format", "json"]);
      // Where they came from, what each could not say (a file cannot tell "none" from "not saved"), and the
      // control plane's version (the API server says it; a file only has kubelets'), differ.
      const strip = (text: string) => ({ ...JSON.parse(text), source: undefined, unread: undefined, base: undefined });
      expect(strip(live.out)).toEqual(strip(saved.out));
      expect(JSON.parse(live.out).source).toBe(`the cluster at ${api.url} (context stand-in)`);
      expect(JSON.parse(live.out).base.items).toEqual([{ what: "EKS control plane, Kubernetes 1.35 (standard support)", hourlyUsd: 0.1 }]);
      expect(api.requests.every((r) => r.method === "GET")).toBe(true);
      expect(live.updates.some((u) => /^Pod \d+$/.test(u))).toBe(true);
      expect(live.updates[live.updates.length - 1]).toBe("done");
      // The other two formats, from the same cluster.
      const markdown = await run(["--kubeconfig", kubeconfig, "--format", "markdown"]);
      expect(markdown.code).toBe(0);
      expect(markdown.out).toContain("# Savings report");
      expect(markdown.out).toContain("xychart-beta");
      expect(markdown.out).toContain("## Graviton and spot");
      const table = await run(["--kubeconfig", kubeconfig]);
      expect(table.code).toBe(0);
      expect(table.out).toMatch(/^converged +\d+ +\$[\d.]+ +\$[\d.]+$/m);
      expect(table.out).toMatch(/^arm64 +\d+ +\$[\d.]+ +\$[\d.]+ +\$-?[\d.]+ +\$-?[\d.]+$/m);
    } finally {
      await api.close();
    }
  });

  it("reports a cluster without Karpenter's CRDs: what runs and what it costs, and that nothing is Karpenter's", async () => {
    const withoutKarpenter = generated.items.filter((i) => !["NodePool", "EC2NodeClass"].includes(String(i.kind)));
    const api = await startFakeClusterApi({ pki, lists: listsOf(withoutKarpenter, ["NodePool", "NodeClaim", "EC2NodeClass"]), tokens: ["reader"] });
    try {
      const kubeconfig = writeKubeconfig(testFolder("kubeconfig"), api, pki, { token: "reader" });
      const { code, out } = await run(["--kubeconfig", kubeconfig, "--format", "json"]);
      expect(code).toBe(0);
      const report = JSON.parse(out);
      expect(report.now.nodeCount).toBe(40);
      expect(report.converged.actions).toEqual([]);
      expect(report.unread.slice(0, 3)).toEqual([
        { kind: "NodePool", reason: "not installed (its CRD is not in the cluster)" },
        { kind: "NodeClaim", reason: "not installed (its CRD is not in the cluster)" },
        { kind: "EC2NodeClass", reason: "not installed (its CRD is not in the cluster)" },
      ]);
      // The moves re-plan every EC2 node's pods on this project's default NodePool, and say so.
      expect(report.freshStart.pools).toBe("autonomous-eks's default NodePool, amd64 on-demand");
      expect(report.moves.map((m: { name: string; priced: boolean }) => [m.name, m.priced])).toEqual([
        ["arm64", true],
        ["spot", false],
        ["arm64+spot", false],
      ]);
    } finally {
      await api.close();
    }
  });

  it("exits 1 on credentials the cluster refuses, and 2 on a kubeconfig that is not there", async () => {
    const api = await startFakeClusterApi({ pki, lists: listsOf(generated.items), tokens: ["reader"] });
    try {
      const kubeconfig = writeKubeconfig(testFolder("kubeconfig"), api, pki, { token: "intruder" });
      const refused = await run(["--kubeconfig", kubeconfig]);
      expect({ code: refused.code, out: refused.out }).toEqual({ code: 1, out: "" });
      expect(refused.err).toMatch(/^npm run savings: the API server refused the credentials \(401 Unauthorized\)/);
    } finally {
      await api.close();
    }
    const home = testFolder("empty-home");
    const none = await run([], { env: { PATH: process.env.PATH, HOME: home } });
    expect(none).toMatchObject({ code: 2, out: "" });
    expect(none.err).toMatch(
      /^npm run savings: no kubeconfig found \(.*\/\.kube\/config does not exist\): kubectl would fall back to an unauthenticated http:\/\/localhost:8080/,
    );
  });
});
