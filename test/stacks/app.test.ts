import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { config, readStack, synthApp } from "../helpers/synth-app";

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe("the whole app", () => {
  const clusterConfig = config({ fargate: { profiles: [{ name: "monitoring", namespaces: ["monitoring"] }] } });
  const outdir = synthApp(clusterConfig);

  it("writes the cluster stack with the aws provider only", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
    expect(Object.keys(manifest.stacks)).toContain("demo-cluster");
    const json = readStack(outdir, "demo-cluster");
    expect(Object.keys(json.provider!)).toEqual(["aws"]);
    expect(json.terraform!.required_providers).toEqual({ aws: { source: "aws", version: "5.100.0" } });
  });

  it("contains no absolute path of the machine that synthesized it", () => {
    const forbidden = [outdir, process.cwd(), os.homedir(), os.tmpdir()].filter((p) => p.length > 1);
    for (const file of filesUnder(outdir)) {
      const text = fs.readFileSync(file, "latin1");
      for (const p of forbidden)
        expect({ file: path.relative(outdir, file), containsPath: text.includes(p) }).toEqual({ file: path.relative(outdir, file), containsPath: false });
    }
  });

  it("is byte-identical across two synths", () => {
    const again = synthApp(clusterConfig);
    const files = filesUnder(outdir)
      .map((f) => path.relative(outdir, f))
      .sort();
    expect(
      filesUnder(again)
        .map((f) => path.relative(again, f))
        .sort(),
    ).toEqual(files);
    for (const file of files) expect([file, fs.readFileSync(path.join(again, file)).equals(fs.readFileSync(path.join(outdir, file)))]).toEqual([file, true]);
  });

  it("keeps local state outside cdktf.out, by a relative path from the stack folder", () => {
    const backend = readStack(outdir, "demo-cluster").terraform!.backend as { local: { path: string } };
    expect(path.isAbsolute(backend.local.path)).toBe(false);
    const stackDir = path.join(outdir, "stacks", "demo-cluster");
    const statePath = path.resolve(stackDir, backend.local.path);
    // cdktf.out/stacks/<stack> climbs to the folder that holds cdktf.out: the project.
    expect(path.dirname(statePath)).toBe(path.dirname(outdir));
    expect(path.basename(statePath)).toBe("terraform.demo-cluster.tfstate");
  });
});
