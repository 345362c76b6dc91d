import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadClusters } from "../../src/config/load-clusters";
import { InputErrors } from "../../src/shared/input-error";
import { problemsOf } from "../helpers/problems";

const ROOT = path.join(__dirname, "..", "..");

function fleet(files: Record<string, string>): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-fleet-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text);
  return folder;
}

/** Every file's problems, as main.ts prints them. */
function fleetProblems(folder: string): string[] {
  try {
    loadClusters({ CLUSTER_CONFIG: folder });
  } catch (error) {
    if (error instanceof InputErrors) return error.errors.map((e) => e.message.replaceAll(folder, "<fleet>"));
    throw error;
  }
  throw new Error("expected the fleet to be rejected");
}

describe("a folder of cluster files (a fleet)", () => {
  it("loads every *.yaml, *.yml and *.json file as one cluster, in name order, and nothing else", () => {
    const folder = fleet({
      "prod.yaml": "name: prod\n",
      "dev.yml": "name: dev\n",
      "staging.json": '{"name": "staging"}',
      "README.md": "# fleet\n",
      ".hidden.yaml": "x",
    });
    expect(loadClusters({ CLUSTER_CONFIG: folder }).map((c) => [path.basename(c.source), c.config.name])).toEqual([
      ["dev.yml", "dev"],
      ["prod.yaml", "prod"],
      ["staging.json", "staging"],
    ]);
  });

  it("reports every problem of every file at once, each with its file", () => {
    const folder = fleet({
      "a.yaml": "name: a\nregion: mars-1\n",
      "b.yaml": "name: b\n",
      "c.yaml": "name: c\nnetwork:\n  natGateways: many\ncoreDns: { mode: x }\n",
    });
    expect(fleetProblems(folder)).toEqual([
      `<fleet>/a.yaml: 1 problem\n  - region: got "mars-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)`,
      `<fleet>/c.yaml: 2 problems\n  - network.natGateways: got "many"; allowed: single, perAz\n  - coreDns.mode: got "x"; allowed: addon, lambda`,
    ]);
  });

  it("needs a name per cluster: stacks and workspaces are named after it", () => {
    const folder = fleet({ "prod-eu.yaml": "name: prod\n", "prod-us.yaml": "name: prod\nregion: us-east-2\n" });
    expect(fleetProblems(folder)).toEqual([
      `<fleet>/prod-us.yaml: 1 problem\n  - name: got "prod"; is also the name of the cluster in <fleet>/prod-eu.yaml: each cluster of a fleet needs its own name (its stacks and workspaces are named after it, and IAM ignores case)`,
    ]);
  });

  it("takes names that differ only in case for the same name: IAM role names ignore case", () => {
    const folder = fleet({ "a.yaml": "name: dup\n", "b.yaml": "name: Dup\n" });
    expect(fleetProblems(folder)).toEqual([
      `<fleet>/b.yaml: 1 problem\n  - name: got "Dup"; differs only in case from "dup", the name of the cluster in <fleet>/a.yaml: each cluster of a fleet needs its own name (its stacks and workspaces are named after it, and IAM ignores case)`,
    ]);
  });

  it("takes extensions in any case and follows symbolic links to files", () => {
    const shared = fleet({ "shared.yaml": "name: linked\n" });
    const folder = fleet({ "a.YAML": "name: upper\n", "b.Json": '{"name": "json"}' });
    fs.symlinkSync(path.join(shared, "shared.yaml"), path.join(folder, "c.yaml"));
    fs.mkdirSync(path.join(folder, "sub.yaml"));
    expect(loadClusters({ CLUSTER_CONFIG: folder }).map((c) => [path.basename(c.source), c.config.name])).toEqual([
      ["a.YAML", "upper"],
      ["b.Json", "json"],
      ["c.yaml", "linked"],
    ]);
  });

  it("reads a relative CLUSTER_CONFIG from the folder npm was run in (INIT_CWD), not the package root", () => {
    const folder = fleet({ "here.yaml": "name: here\n" });
    const npm = { INIT_CWD: folder, npm_package_json: path.join(ROOT, "package.json") };
    expect(loadClusters({ CLUSTER_CONFIG: "here.yaml", ...npm }).map((c) => [c.source, c.config.name])).toEqual([[path.join(folder, "here.yaml"), "here"]]);
    expect(loadClusters({ CLUSTER_CONFIG: ".", ...npm }).map((c) => c.config.name)).toEqual(["here"]);
  });

  it("ignores an INIT_CWD that npm did not set for this package: a stale one from an outer npm run", () => {
    const folder = fleet({ "dev.yaml": "name: elsewhere\n" });
    const stale = { INIT_CWD: folder, npm_package_json: path.join(folder, "package.json") };
    // Read from the current folder (the package root, in jest), as without npm.
    expect(loadClusters({ CLUSTER_CONFIG: "clusters/dev.yaml", ...stale }).map((c) => [c.source, c.config.name])).toEqual([["clusters/dev.yaml", "dev"]]);
    expect(loadClusters({ CLUSTER_CONFIG: "clusters/dev.yaml", INIT_CWD: folder }).map((c) => c.config.name)).toEqual(["dev"]);
  });

  it("says so when the folder holds no cluster file", () => {
    const folder = fleet({ "README.md": "# nothing here\n" });
    expect(problemsOf(() => loadClusters({ CLUSTER_CONFIG: folder }))).toEqual([
      "is a folder with no cluster file; CLUSTER_CONFIG must name a YAML or JSON file, or a folder of *.yaml, *.yml or *.json files",
    ]);
  });

  it("ships an example fleet that loads: dev, multiarch, prod and staging", () => {
    expect(loadClusters({ CLUSTER_CONFIG: path.join(ROOT, "clusters") }).map((c) => c.config.name)).toEqual(["dev", "multiarch", "prod", "staging"]);
  });
});
