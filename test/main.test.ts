import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readClusterConfigFile } from "../src/config/load-config";
import { ALIAS_BOMB } from "./helpers/hostile-files";
import { synthApp } from "./helpers/synth-app";

const ROOT = path.join(__dirname, "..");
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
    expect(APP_COMMAND).toBe("node scripts/app.js");
  });

  it("synthesizes the embedded default cluster without CLUSTER_CONFIG", () => {
    const { status, outdir, stderr } = runMain({ CLUSTER_CONFIG: "" });
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(fs.readdirSync(path.join(outdir, "stacks")).sort()).toEqual(["karpenter-autonomous-cluster", "karpenter-autonomous-karpenter"]);
  });

  it("writes the same bytes as the app built from source: the bundle and its code cache change nothing", () => {
    const example = path.join(ROOT, "templates", "examples", "multi-pool.yaml");
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

  it("reports a missing file the same way", () => {
    const { status, stderr, outdir } = runMain({ CLUSTER_CONFIG: "/nonexistent/cluster.yaml" });
    expect(status).toBe(1);
    expect(stderr).toBe(
      "Invalid cluster configuration: /nonexistent/cluster.yaml: 1 problem\n  - cannot read the cluster config (no such file); CLUSTER_CONFIG must name a readable YAML or JSON file\n",
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });
});
