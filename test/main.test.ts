import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readClusterConfigFile } from "../src/config/load-config";
import { ALIAS_BOMB } from "./helpers/hostile-files";
import { synthApp } from "./helpers/synth-app";
import { findTerraform } from "./terraform/terraform-cli";

const ROOT = path.join(__dirname, "..");
const PRIVATE_API =
  "the Kubernetes API is private (cluster.publicAccessCidrs lists no range): the Karpenter stack's runner must reach the VPC; run it in the VPC or over a VPN or peering, or list its address in cluster.publicAccessCidrs (203.0.113.7/32)";
/** The app command as cdktf runs it (cdktf.json "app"): the cached bundle of main.ts. */
const APP_COMMAND: string = JSON.parse(fs.readFileSync(path.join(ROOT, "cdktf.json"), "utf8")).app;

function runMain(env: Record<string, string>) {
  const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-main-")), "cdktf.out");
  const result = spawnSync(APP_COMMAND, { shell: true, cwd: ROOT, env: { ...process.env, CDKTF_OUTDIR: outdir, ...env }, encoding: "utf8" });
  return { ...result, outdir };
}

function writeConfig(text: string | Uint8Array): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-main-config-")), "cluster.yaml");
  fs.writeFileSync(file, text);
  return file;
}

describe("main.ts, run by the app command", () => {
  it("is run from the cached bundle, with no compile step", () => {
    // A young generation of 2 MB keeps the synth's peak memory near the floor's (docs/performance.md).
    expect(APP_COMMAND).toBe("node --max-semi-space-size=2 scripts/app.js");
  });

  it("synthesizes the embedded default cluster without CLUSTER_CONFIG, saying once on stderr what its private API asks of the runner", () => {
    const { status, outdir, stdout, stderr } = runMain({ CLUSTER_CONFIG: "" });
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: "", stderr: `Warning: ${PRIVATE_API}\n` });
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["karpenter-autonomous-cluster", "karpenter-autonomous-karpenter"]);
    // Not in manifest.json too: cdktf's CLI prints its annotations, which would show the warning twice.
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
    expect(Object.values(manifest.stacks).flatMap((stack) => (stack as { annotations: unknown[] }).annotations)).toEqual([]);
  });

  it("prints the warnings of npm run synth on stderr, and what it wrote on stdout", () => {
    const file = writeConfig(
      "name: private\ncluster: {endpointPublicAccess: false}\nkarpenter: {kubernetesAuth: exec}\nbackend: {type: cloud, organization: example}\n",
    );
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-synth-")), "cdktf.out");
    const { status, stdout, stderr } = spawnSync("node", ["scripts/synth.js"], {
      cwd: ROOT,
      env: { ...process.env, CDKTF_OUTDIR: outdir, CLUSTER_CONFIG: file },
      encoding: "utf8",
    });
    expect({ status, stderr }).toEqual({
      status: 0,
      stderr: [
        "Warning: the Kubernetes API is private (cluster.publicAccessCidrs lists no range): the Karpenter stack's runner must reach the VPC; HCP Terraform's hosted runners (backend.executionMode: remote) cannot: run the workspaces in agent execution mode, with an agent in or connected to the VPC, and set backend.executionMode: agent",
        "Warning: karpenter.kubernetesAuth is exec with backend.type cloud: HCP Terraform's hosted runners (backend.executionMode: remote) have no AWS CLI for `aws eks get-token`; use token, or an agent that has the AWS CLI",
        "",
      ].join("\n"),
    });
    expect(stdout).toMatch(
      /^Synthesized 2 stacks:\n {2}\S+private-cluster\/cdk\.tf\.json {2}\(\d+ resources\)\n {2}\S+private-karpenter\/cdk\.tf\.json {2}\(\d+ resources\)\n$/,
    );
  });

  it.each([
    ["the multi-pool example", path.join(ROOT, "templates", "examples", "multi-pool.yaml")],
    // The Lambda mode's zip is the one asset: cdktf's archiving module is loaded lazily in the bundle.
    ["the CoreDNS Lambda mode", writeConfig("name: lambda\ncoreDns: {mode: lambda}\n")],
  ])("writes the same bytes as the app built from source for %s: the bundle and its code cache change nothing", (_, example) => {
    const bundled = runMain({ CLUSTER_CONFIG: example });
    expect(bundled.status).toBe(0);
    const fromSource = synthApp(readClusterConfigFile(example));
    const files = (root: string) =>
      fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
        .sort();
    expect(files(bundled.outdir)).toEqual(files(fromSource));
    for (const file of files(fromSource)) expect(fs.readFileSync(path.join(bundled.outdir, file))).toEqual(fs.readFileSync(path.join(fromSource, file)));
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

  // clusters/prod.yaml keeps its state in HCP Terraform, and cdktf checks `terraform version` for that backend.
  const itWithTerraform = findTerraform() ? it : it.skip;
  itWithTerraform("synthesizes a fleet: every cluster of a folder into its own pair of stacks", () => {
    const { status, outdir, stderr } = runMain({ CLUSTER_CONFIG: path.join(ROOT, "clusters") });
    // Each cluster lists who may reach its API, and the shipped examples earn no warning.
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual([
      "dev-cluster",
      "dev-karpenter",
      "multiarch-cluster",
      "multiarch-karpenter",
      "prod-cluster",
      "prod-karpenter",
      "staging-cluster",
      "staging-karpenter",
    ]);
  });

  it("rejects a fleet with a bad file as a whole: each file's problems, exit 1, nothing written", () => {
    const folder = path.dirname(writeConfig("name: good\n"));
    fs.writeFileSync(path.join(folder, "bad.yaml"), "name: bad\nregion: mars-1\n");
    const { status, stderr, outdir } = runMain({ CLUSTER_CONFIG: folder });
    expect(status).toBe(1);
    expect(stderr).toBe(
      `Invalid cluster configuration: ${path.join(folder, "bad.yaml")}: 1 problem\n  - region: got "mars-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)\n`,
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it("reports what Karpenter, EKS and AWS would refuse after an apply, all at once, and writes nothing", () => {
    const tags = Array.from({ length: 45 }, (_, i) => `t${i + 1}: x`).join(", ");
    const longKey = `example.com/${"n".repeat(64)}`;
    const file = writeConfig(
      [
        "name: demo",
        `tags: {${tags}}`,
        "network: {vpcCidr: 172.17.0.0/16, availabilityZones: [us-east-1a, us-east-1g]}",
        "nodePools:",
        "  - name: default",
        "    limits: {cpu: -5}",
        `    labels: {${longKey}: x}`,
        "    taints: [{key: gpu, effect: NoSchedule}]",
        "    startupTaints: [{key: gpu, effect: NoSchedule}]",
        "",
      ].join("\n"),
    );
    const { status, stdout, stderr, outdir } = runMain({ CLUSTER_CONFIG: file });
    expect({ status, stdout }).toEqual({ status: 1, stdout: "" });
    expect(stderr).toBe(
      [
        `Invalid cluster configuration: ${file}: 6 problems`,
        `  - network.vpcCidr: got "172.17.0.0/16"; overlaps 172.17.0.0/16, Docker's default bridge network: a host running Docker sends that range to its bridge, not to the VPC; choose a range outside it, such as 10.0.0.0/16`,
        `  - nodePools[0].labels.${longKey}: got "${longKey.slice(0, 56)}...; name part must be no more than 63 characters (it has 64): the part after '/' of a Kubernetes qualified name`,
        `  - nodePools[0].limits.cpu: got "-5"; must not be negative: the pool would be over its limit from the start and never launch a node (0 pauses a pool)`,
        `  - nodePools[0].startupTaints[0]: got {"key":"gpu","effect":"NoSchedule"}; duplicate taint Key/Effect pair gpu=NoSchedule (Karpenter's message): taints and startupTaints together may hold each key and effect once`,
        `  - network.availabilityZones[1]: got "us-east-1g"; is not an availability zone of us-east-1, whose zones are us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e, us-east-1f (AWS's lists as of 2026-11-23; a zone opened since then belongs in src/shared/availability-zones.ts)`,
        "  - tags: got 45; too many: they go on every EC2NodeClass, and with Karpenter's 6 (kubernetes.io/cluster/demo, karpenter.sh/nodepool, eks:eks-cluster-name, karpenter.k8s.aws/ec2nodeclass, Name, karpenter.sh/nodeclaim) each instance Karpenter launches would carry 51 tags; AWS allows 50 per resource",
        "",
      ].join("\n"),
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it.each([
    [
      "an alias bomb",
      ALIAS_BOMB,
      "its aliases (*name) would expand to more than 100 copies of what they name: refused as a possible alias bomb; write the repeated values out",
    ],
    [
      "a file over 1 MiB",
      `name: demo\n${"#".repeat(1024 * 1024)}\n`,
      "the file is larger than 1 MiB (1048576 bytes), the most a cluster config may be; it was not parsed",
    ],
    [
      "bytes that are not UTF-8",
      Buffer.concat([Buffer.from("name: demo\ntags: {owner: Jos"), Buffer.from([0xe9]), Buffer.from("}\n")]),
      "line 2 is not valid UTF-8; save the file as UTF-8 (bytes in another encoding are not guessed at)",
    ],
    ["an empty file", "", 'the file is empty; a cluster config is a YAML or JSON mapping with at least a name, such as "name: my-cluster"'],
    [
      "a list at the top level",
      "- name: demo\n",
      'the document is a list, not a mapping; a cluster config is a YAML or JSON mapping with at least a name, such as "name: my-cluster"',
    ],
  ])("refuses %s in one line: exit 1, no stack trace, nothing written", (_name, content, problem) => {
    const file = writeConfig(content);
    const { status, stdout, stderr, outdir } = runMain({ CLUSTER_CONFIG: file });
    expect({ status, stdout, stderr }).toEqual({ status: 1, stdout: "", stderr: `Invalid cluster configuration: ${file}: 1 problem\n  - ${problem}\n` });
    expect(fs.existsSync(outdir)).toBe(false);
  });

  it("creates CDKTF_OUTDIR with its parents, as npm run synth users expect of a path they name", () => {
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-deep-")), "a", "b", "cdktf.out");
    const { status } = runMain({ CLUSTER_CONFIG: "", CDKTF_OUTDIR: outdir });
    expect(status).toBe(0);
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["karpenter-autonomous-cluster", "karpenter-autonomous-karpenter"]);
  });

  it("refuses a CDKTF_OUTDIR below a file in one line, after the config checks, and writes nothing", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-file-")), "not-a-folder");
    fs.writeFileSync(file, "");
    const { status, stdout, stderr } = runMain({ CLUSTER_CONFIG: "", CDKTF_OUTDIR: path.join(file, "cdktf.out") });
    expect({ status, stdout }).toEqual({ status: 1, stdout: "" });
    expect(stderr).toBe(
      `Warning: ${PRIVATE_API}\nCannot write the synthesized stacks: CDKTF_OUTDIR: 1 problem\n  - got "${path.join(file, "cdktf.out")}"; must be a folder this user can write, or one that can be created: a part of that path is a file, not a folder\n`,
    );
    expect(fs.readFileSync(file, "utf8")).toBe("");
  });

  it("checks every stack before writing any: a fleet whose cloud-backed cluster cannot find Terraform writes nothing", () => {
    const folder = path.dirname(writeConfig("name: a\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\n"));
    fs.writeFileSync(
      path.join(folder, "b.yaml"),
      "name: b\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\nbackend: {type: cloud, organization: acme, executionMode: agent}\n",
    );
    // Node's folder only: no terraform on PATH.
    const { status, stdout, stderr, outdir } = runMain({ CLUSTER_CONFIG: folder, PATH: path.dirname(process.execPath) });
    const problem =
      "backend.type cloud: cdktf checks at synth that Terraform >= 1.1 is installed (HCP Terraform's cloud block), and `terraform version` did not run: put terraform on PATH";
    expect({ status, stdout, stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: `Cannot synthesize: 2 problems; nothing was written\n  - b-cluster/backend: ${problem}\n  - b-karpenter/backend: ${problem}\n`,
    });
    expect(fs.readdirSync(outdir, { recursive: true })).toEqual([]);
  });

  it("leaves the previous output whole when a synth fails after the config checks", () => {
    const good = runMain({ CLUSTER_CONFIG: "" });
    expect(good.status).toBe(0);
    const before = fs.readdirSync(good.outdir, { recursive: true }).map(String).sort();
    const manifest = fs.readFileSync(path.join(good.outdir, "manifest.json"), "utf8");
    const cloud = writeConfig("name: b\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\nbackend: {type: cloud, organization: acme, executionMode: agent}\n");
    const failed = runMain({ CLUSTER_CONFIG: cloud, CDKTF_OUTDIR: good.outdir, PATH: path.dirname(process.execPath) });
    expect(failed.status).toBe(1);
    expect(fs.readdirSync(good.outdir, { recursive: true }).map(String).sort()).toEqual(before);
    expect(fs.readFileSync(path.join(good.outdir, "manifest.json"), "utf8")).toBe(manifest);
  });

  it("refuses arguments, which would otherwise be ignored while the default cluster is synthesized", () => {
    const synth = spawnSync("node", ["scripts/synth.js", "clusters/prod.yaml"], { cwd: ROOT, encoding: "utf8" });
    expect(synth.status).toBe(2);
    expect(synth.stderr.split("\n")[0]).toBe('npm run synth: got "clusters/prod.yaml"; takes no arguments (name the config with CLUSTER_CONFIG)');
    const help = spawnSync("node", ["scripts/synth.js", "--help"], { cwd: ROOT, encoding: "utf8" });
    expect({ status: help.status, first: help.stdout.split("\n")[0] }).toEqual({
      status: 0,
      first: "usage: [CLUSTER_CONFIG=<file or folder>] [CDKTF_OUTDIR=<folder>] npm run synth",
    });
    const app = spawnSync(`${APP_COMMAND} --help`, { shell: true, cwd: ROOT, encoding: "utf8" });
    expect({ status: app.status, stderr: app.stderr }).toEqual({
      status: 2,
      stderr: 'scripts/app.js: got "--help"; takes no arguments: cdktf runs it, and CLUSTER_CONFIG names the config (npm run synth -- --help)\n',
    });
  });

  it("removes the stack folders of clusters no longer configured, as the cdktf CLI does (npm run synth)", () => {
    const folder = path.dirname(writeConfig("name: a\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\n"));
    fs.writeFileSync(path.join(folder, "b.yaml"), "name: b\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\n");
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-stale-")), "cdktf.out");
    const synth = () =>
      spawnSync("node", ["scripts/synth.js"], { cwd: ROOT, env: { ...process.env, CDKTF_OUTDIR: outdir, CLUSTER_CONFIG: folder }, encoding: "utf8" });
    expect(synth().status).toBe(0);
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["a-cluster", "a-karpenter", "b-cluster", "b-karpenter"]);
    fs.rmSync(path.join(folder, "b.yaml"));
    expect(synth().status).toBe(0);
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["a-cluster", "a-karpenter"]);
  });

  it("reports a missing file the same way", () => {
    const { status, stderr, outdir } = runMain({ CLUSTER_CONFIG: "/nonexistent/cluster.yaml" });
    expect(status).toBe(1);
    expect(stderr).toBe(
      "Invalid cluster configuration: /nonexistent/cluster.yaml: 1 problem\n  - cannot read the cluster config (no such file or folder); CLUSTER_CONFIG must name a readable YAML or JSON file\n",
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });
});
