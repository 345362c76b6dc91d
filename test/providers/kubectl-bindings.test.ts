import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../..");

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name]));
}

describe("kubectl provider bindings", () => {
  it("regenerate offline, byte for byte, from the vendored schema", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-gen-"));
    const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/generate-kubectl-bindings.js"), out], { encoding: "utf8" });
    expect(result.status).toBe(0);
    const installed = path.join(ROOT, ".gen", "providers", "kubectl");
    const regenerated = path.join(out, "providers", "kubectl");
    const files = filesUnder(installed).sort();
    expect(filesUnder(regenerated).sort()).toEqual(files);
    for (const file of files)
      expect([file, fs.readFileSync(path.join(regenerated, file)).equals(fs.readFileSync(path.join(installed, file)))]).toEqual([file, true]);
  });

  it("pin alekc/kubectl 2.4.1 exactly", () => {
    const provider = fs.readFileSync(path.join(ROOT, ".gen/providers/kubectl/provider/index.ts"), "utf8");
    expect(provider).toContain("providerVersion: '2.4.1'");
    expect(provider).toContain("providerVersionConstraint: '= 2.4.1'");
  });
});
