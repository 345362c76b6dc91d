import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { writeReview } from "../../src/review/write-review";
import { config, synthApp } from "../helpers/synth-app";

describe("review artifacts", () => {
  const outdir = synthApp(config());
  const reviewDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-review-")), "review");
  writeReview(outdir, reviewDir);
  const read = (file: string) => fs.readFileSync(path.join(reviewDir, file), "utf8");

  it("writes, per stack, the resources, the IAM statements and the manifests", () => {
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name]));
    expect(files(reviewDir).sort()).toEqual(
      [
        "demo-cluster/iam.md",
        "demo-cluster/resources.md",
        "demo-karpenter/helm/karpenter-values.yaml",
        "demo-karpenter/manifests/ec2nodeclass-default.yaml",
        "demo-karpenter/manifests/flowschema-karpenter-leader-election.yaml",
        "demo-karpenter/manifests/flowschema-karpenter-workload.yaml",
        "demo-karpenter/manifests/nodepool-default.yaml",
        "demo-karpenter/resources.md",
      ].sort(),
    );
  });

  it("lists resources by type with their count", () => {
    expect(read("demo-cluster/resources.md")).toMatch(/^\| aws_eks_fargate_profile \| 2 \| .*\(karpenter\).*\(kube-system\)/m);
    expect(read("demo-cluster/resources.md")).toMatch(/^\| aws_iam_policy \| 6 \|/m);
  });

  it("spells out every IAM statement with its conditions", () => {
    const iam = read("demo-cluster/iam.md");
    expect(iam).toContain("- **AllowScopedDeletion**: Allow `ec2:TerminateInstances`, `ec2:DeleteLaunchTemplate`");
    expect(iam).toContain("  - if StringEquals `aws:ResourceTag/kubernetes.io/cluster/demo` = `owned`");
    expect(iam).toContain("- **DenyHTTP**: Deny `sqs:*`");
  });

  it("writes manifests as plain YAML that parse to the applied objects", () => {
    const pool = parse(read("demo-karpenter/manifests/nodepool-default.yaml"));
    expect(pool).toMatchObject({ apiVersion: "karpenter.sh/v1", kind: "NodePool", metadata: { name: "default" } });
    expect(read("demo-karpenter/manifests/nodepool-default.yaml")).toMatch(/^# kubectl_manifest\.provisioners_nodepool-default_/);
    expect(parse(read("demo-karpenter/helm/karpenter-values.yaml")).settings.clusterName).toBe("demo");
  });
});
