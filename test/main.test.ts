import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";

const ROOT = path.join(__dirname, "..");
// The entry point as users run it, bundled from source (fast, and no stale dist/); inside the project so
// that its packages resolve from node_modules.
const MAIN = path.join(ROOT, "dist", "test", "main-under-test.js");
buildSync({ entryPoints: [path.join(ROOT, "main.ts")], outfile: MAIN, bundle: true, platform: "node", packages: "external", logLevel: "warning" });

function runMain(env: Record<string, string>) {
  const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-main-")), "cdktf.out");
  const result = spawnSync(process.execPath, [MAIN], { cwd: ROOT, env: { ...process.env, CDKTF_OUTDIR: outdir, ...env }, encoding: "utf8" });
  return { ...result, outdir };
}

function writeConfig(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-main-config-")), "cluster.yaml");
  fs.writeFileSync(file, text);
  return file;
}

describe("main.ts", () => {
  it("synthesizes the embedded default cluster without CLUSTER_CONFIG", () => {
    const { status, outdir, stderr } = runMain({ CLUSTER_CONFIG: "" });
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["karpenter-autonomous-cluster", "karpenter-autonomous-karpenter"]);
  });

  it("reports every problem of a bad file, exits 1, prints no stack trace and writes nothing", () => {
    const file = writeConfig('name: "bad name"\nkubernetesVersion: 1.30\nnetwork:\n  natGateways: many\n');
    const { status, stdout, stderr, outdir } = runMain({ CLUSTER_CONFIG: file });
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      [
        `Invalid cluster configuration: ${file}: 3 problems`,
        `  - name: got "bad name"; must start with a letter or digit and contain only letters, digits, '-' and '_' (EKS cluster name rules)`,
        '  - kubernetesVersion: got 1.3; must be a quoted string such as "1.35" (YAML reads 1.30 as the number 1.3)',
        '  - network.natGateways: got "many"; allowed: single, perAz',
        "",
      ].join("\n"),
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it("reports a missing file the same way", () => {
    const { status, stderr, outdir } = runMain({ CLUSTER_CONFIG: "/nonexistent/cluster.yaml" });
    expect(status).toBe(1);
    expect(stderr).toBe(
      "Invalid cluster configuration: /nonexistent/cluster.yaml: 1 problem\n  - cannot read the cluster config (no such file); CLUSTER_CONFIG must name a readable YAML or JSON file\n",
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });
});
