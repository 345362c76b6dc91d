import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { testFolder } from "../helpers/test-folder";

// npm run review -- --base on a small git repository made here: a copy of this project's code with a fleet of
// two clusters, committed, then changed in its working tree as a pull request would change it.

const ROOT = path.resolve(__dirname, "../..");
const PROJECT_FILES = ["main.ts", "src", "scripts", "templates", "package.json", "package-lock.json", "tsconfig.json", "cdktf.json", ".gitignore"];

const A = "name: a\nregion: eu-west-1\ncluster: {publicAccessCidrs: [203.0.113.0/24]}\n";
const B = `name: b
region: eu-west-1
cluster: {publicAccessCidrs: [203.0.113.0/24]}
addons:
  aws-ebs-csi-driver: {}
nodePools:
  - name: default
    instanceFamilies: [c7g]
`;

function run(repo: string, command: string, args: readonly string[], env: Record<string, string> = {}) {
  return spawnSync(command, args, { cwd: repo, encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1", ...env } });
}

function git(repo: string, ...args: string[]): string {
  const result = run(repo, "git", ["-c", "user.name=review-test", "-c", "user.email=review-test@example.com", ...args]);
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
}

function commitFiles(repo: string, files: Record<string, string>, message: string): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  }
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", message);
}

/** The repository: good base, then a commit whose cluster a does not synthesize, then good again. */
function makeRepository(): string {
  const repo = testFolder("review-repo");
  for (const file of PROJECT_FILES) fs.cpSync(path.join(ROOT, file), path.join(repo, file), { recursive: true });
  for (const shared of ["node_modules", ".gen"]) fs.symlinkSync(path.join(ROOT, shared), path.join(repo, shared), "dir");
  git(repo, "init", "-q", "-b", "main");
  commitFiles(repo, { "clusters/a.yaml": A, "clusters/b.yaml": B }, "base");
  commitFiles(repo, { "clusters/a.yaml": A.replace("eu-west-1", "mars-1") }, "broken");
  commitFiles(repo, { "clusters/a.yaml": A }, "fixed");
  return repo;
}

/** The pull request's change to b: pricier instances, metrics-server in, the EBS CSI driver (and its IAM role) out. */
const CHANGED_B = B.replace("aws-ebs-csi-driver: {}", "metrics-server: {}").replace("[c7g]", "[m7i]");

function review(repo: string, args: readonly string[], config: string) {
  const result = run(repo, process.execPath, ["scripts/review.js", ...args], { CLUSTER_CONFIG: config, CDKTF_OUTDIR: "" });
  const file = path.join(repo, "review", "diff.md");
  return { ...result, diff: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined };
}

describe("npm run review -- --base <ref>", () => {
  const repo = makeRepository();
  fs.writeFileSync(path.join(repo, "clusters", "b.yaml"), CHANGED_B);

  it("shows a changed cluster: its cost before and after, resources, IAM statements and the NodePool's diff", () => {
    const { status, stderr, diff } = review(repo, ["--base", "HEAD", "--workload", "templates/demo"], "clusters/b.yaml");
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(diff).toContain("<!-- autonomous-eks-review -->");
    expect(diff).toContain("Base `HEAD` (");
    expect(diff).toContain("### Cluster `b`: changed");
    // m7i costs more than c7g for the same pods: the cost goes up, with the difference in bold.
    expect(diff).toMatch(
      /^\| as configured, as launched \(nodes, control plane, Fargate, NAT\) \| \$[\d,.]+ \| \$[\d,.]+ \| \*\*\+\$[\d,.]+\*\* \(\+\d+\.\d%\) \|$/m,
    );
    // Both sides plan with this planner: the settled cost leads, and goes up too.
    expect(diff).toMatch(
      /^\| as configured, settled by consolidation \(what it costs to run\) \| \$[\d,.]+ \| \$[\d,.]+ \| \*\*\+\$[\d,.]+\*\* \(\+\d+\.\d%\) \|$/m,
    );
    expect(diff).toContain("- added `aws_eks_addon.addons_metrics-server` (cluster stack)");
    expect(diff).toContain("- removed `aws_eks_addon.addons_aws-ebs-csi-driver` (cluster stack)");
    expect(diff).toContain("- removed `aws_iam_role.addons_ebs-csi-driver-role` (cluster stack)");
    expect(diff).toMatch(
      /^- removed, from aws_iam_role\.addons_ebs-csi-driver-role \(b-ebs-csi-driver\) assume_role_policy: \*\*EbsCsiControllerWebIdentity\*\*: Allow `sts:AssumeRoleWithWebIdentity`/m,
    );
    expect(diff).toContain("- changed `kubectl_manifest.provisioners_nodepool-default` (karpenter stack): `yaml_body`");
    expect(diff).toContain("#### NodePool default\n\n```diff\n");
    expect(diff).toMatch(/^-\s+- c7g$/m);
    expect(diff).toMatch(/^\+\s+- m7i$/m);
    // No hash suffix reaches the reader.
    expect(diff).not.toMatch(/_[0-9A-F]{8}\b/);
  }, 120_000);

  it("gives a fleet one section per changed cluster and one line per unchanged one", () => {
    const { status, diff } = review(repo, ["--base", "HEAD"], "clusters");
    expect(status).toBe(0);
    expect(diff).toContain("### Cluster `b`: changed");
    expect(diff).not.toContain("### Cluster `a`");
    expect(diff).toMatch(/^- `a`: no change$/m);
  }, 120_000);

  it("reports a base that does not synthesize, with its own errors, and still exits 0", () => {
    const { status, diff } = review(repo, ["--base", "HEAD~1"], "clusters");
    expect(status).toBe(0);
    expect(diff).toContain("**The base does not synthesize**, so there is nothing to compare with:");
    expect(diff).toContain('region: got "mars-1"');
    // The comment names the base's file by its place in the repository, not by this machine's temporary folder.
    expect(diff).toContain("<base worktree>/clusters/");
    expect(diff).not.toContain(os.tmpdir());
  }, 120_000);

  it("refuses a base ref that does not exist in one line, before writing anything", () => {
    fs.rmSync(path.join(repo, "review"), { recursive: true, force: true });
    const { status, stdout, stderr } = review(repo, ["--base", "no-such-branch"], "clusters");
    expect({ status, stdout }).toEqual({ status: 2, stdout: "" });
    expect(stderr).toBe(
      'npm run review: --base: got "no-such-branch"; no such commit, branch or tag in this repository (in CI, fetch the base first: git fetch origin <branch>)\n',
    );
    expect(fs.existsSync(path.join(repo, "review"))).toBe(false);
  });

  it("leaves no worktree behind", () => {
    expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
  });
});
