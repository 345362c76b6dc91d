import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { testFolder } from "../helpers/test-folder";

const ROOT = path.resolve(__dirname, "../..");
const APP_COMMAND: string = JSON.parse(fs.readFileSync(path.join(ROOT, "cdktf.json"), "utf8")).app;

function app(cwd: string, env: Record<string, string>) {
  return spawnSync(APP_COMMAND, { shell: true, cwd, encoding: "utf8", env: { ...process.env, ...env } });
}

describe("the synth bundle's cache", () => {
  it("holds no path of the checkout it was built in", () => {
    expect(app(ROOT, { CLUSTER_CONFIG: "", CDKTF_OUTDIR: path.join(testFolder("bundle-paths"), "out") }).status).toBe(0);
    const cache = path.join(ROOT, "node_modules", ".cache", "autonomous-eks");
    const bundles = fs.readdirSync(cache).filter((f) => /^main-[0-9a-f]+\.js(\.map)?$/.test(f));
    expect(bundles.length).toBeGreaterThan(0);
    for (const file of bundles) expect(fs.readFileSync(path.join(cache, file), "utf8")).not.toContain(ROOT);
  });

  it("survives the checkout being moved: clone, install, synth, move, synth", () => {
    const parent = testFolder("moved-checkout");
    const before = path.join(parent, "before");
    const after = path.join(parent, "after");
    fs.mkdirSync(before);
    for (const entry of ["main.ts", "src", "scripts", ".gen", "clusters", "templates", "package.json", "package-lock.json", "tsconfig.json", "cdktf.json"]) {
      fs.cpSync(path.join(ROOT, entry), path.join(before, entry), { recursive: true });
    }
    // An install of its own, as hard links (cheap), without this checkout's caches: the bundle is built there.
    expect(spawnSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(before, "node_modules")]).status).toBe(0);
    fs.rmSync(path.join(before, "node_modules", ".cache"), { recursive: true, force: true });
    const first = app(before, { CLUSTER_CONFIG: "", CDKTF_OUTDIR: path.join(parent, "out-1") });
    expect({ status: first.status, stderr: first.stderr.split("\n")[0] }).toEqual({ status: 0, stderr: expect.stringMatching(/^Warning: /) });
    fs.renameSync(before, after);
    const second = app(after, { CLUSTER_CONFIG: "", CDKTF_OUTDIR: path.join(parent, "out-2") });
    expect({ status: second.status, stderr: second.stderr.split("\n")[0] }).toEqual({ status: 0, stderr: expect.stringMatching(/^Warning: /) });
    expect(fs.readdirSync(path.join(after, "node_modules", ".cache", "autonomous-eks")).filter((f) => /^main-.*\.js$/.test(f))).toHaveLength(1);
  }, 120_000);
});

describe("a fleet with HCP Terraform backends", () => {
  it("asks Terraform for its version once, not once per stack", () => {
    const folder = testFolder("cloud-fleet");
    const bin = path.join(folder, "bin");
    const log = path.join(folder, "terraform-calls");
    fs.mkdirSync(bin);
    // A stand-in terraform that logs each call: cdktf's check runs `terraform version`.
    fs.writeFileSync(path.join(bin, "terraform"), `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\necho "Terraform v1.11.4"\n`, { mode: 0o755 });
    const fleet = path.join(folder, "fleet");
    fs.mkdirSync(fleet);
    for (const name of ["a", "b", "c"]) {
      fs.writeFileSync(
        path.join(fleet, `${name}.yaml`),
        `name: ${name}\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\nbackend: {type: cloud, organization: acme, executionMode: agent}\n`,
      );
    }
    const result = app(ROOT, { CLUSTER_CONFIG: fleet, CDKTF_OUTDIR: path.join(folder, "out"), PATH: `${bin}:${process.env.PATH}` });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
    expect(fs.readFileSync(log, "utf8")).toBe("version\n");
  });
});
