import { parseClusterConfig } from "../../src/config/load-config";
import { problemsOf } from "../helpers/problems";
import { config, readStack, synthApp } from "../helpers/synth-app";
import { findTerraform } from "../terraform/terraform-cli";

const problems = (backend: unknown) => problemsOf(() => parseClusterConfig({ name: "demo", backend }, "t.yaml"));

const backendOf = (outdir: string, stack: string) => readStack(outdir, stack).terraform!;

describe("backends", () => {
  it("local: a relative state file per stack, outside cdktf.out", () => {
    const outdir = synthApp(config());
    expect(backendOf(outdir, "demo-cluster").backend).toEqual({ local: { path: "../../../terraform.demo-cluster.tfstate" } });
    expect(backendOf(outdir, "demo-karpenter").backend).toEqual({ local: { path: "../../../terraform.demo-karpenter.tfstate" } });
  });

  it("s3: one encrypted key per stack, native locking, Terraform >= 1.10", () => {
    const outdir = synthApp(config({ region: "eu-west-1", backend: { type: "s3", bucket: "acme-tfstate" } }));
    const terraform = backendOf(outdir, "demo-cluster");
    expect(terraform.backend).toEqual({
      s3: { bucket: "acme-tfstate", key: "autonomous-eks/demo/demo-cluster.tfstate", region: "eu-west-1", encrypt: true, use_lockfile: true },
    });
    expect(terraform.required_version).toBe(">= 1.10.0");
    expect(backendOf(outdir, "demo-karpenter").backend).toMatchObject({ s3: { key: "autonomous-eks/demo/demo-karpenter.tfstate" } });
  });

  it("s3: a key prefix and a bucket region of their own", () => {
    const outdir = synthApp(config({ backend: { type: "s3", bucket: "acme-tfstate", keyPrefix: "platform/prod", region: "us-west-2" } }));
    expect(backendOf(outdir, "demo-cluster").backend).toMatchObject({ s3: { key: "platform/prod/demo-cluster.tfstate", region: "us-west-2" } });
  });

  // CloudBackend's synth validation runs `terraform version`.
  (findTerraform() ? it : it.skip)("cloud: a named workspace per stack, in the given project", () => {
    const outdir = synthApp(config({ backend: { type: "cloud", organization: "acme", project: "platform", workspacePrefix: "eks-" } }));
    expect(backendOf(outdir, "demo-cluster").cloud).toEqual({ organization: "acme", workspaces: { name: "eks-demo-cluster", project: "platform" } });
    expect(backendOf(outdir, "demo-karpenter").cloud).toEqual({ organization: "acme", workspaces: { name: "eks-demo-karpenter", project: "platform" } });
    expect(backendOf(outdir, "demo-cluster").backend).toBeUndefined();
  });

  it("rejects missing and misplaced fields", () => {
    expect(problems({ type: "s3" })).toEqual(["backend.bucket: missing; is required for backend type s3"]);
    expect(problems({ type: "cloud", organization: "acme", bucket: "x-state" })).toEqual([
      'backend.bucket: got "x-state"; does not apply to backend type cloud; its fields are organization, project, workspacePrefix, executionMode, hostname',
    ]);
    expect(problems({ bucket: "x-state" })).toEqual(['backend.bucket: got "x-state"; does not apply to backend type local; it takes no other field']);
  });

  it("rejects bad values with what is allowed", () => {
    expect(problems({ type: "s3", bucket: "Bad_Bucket" })).toEqual([
      "backend.bucket: got \"Bad_Bucket\"; must be an S3 bucket name: 3-63 lowercase letters, digits, '.' and '-'",
    ]);
    expect(problems({ type: "gcs" })).toEqual(['backend.type: got "gcs"; allowed: local, s3, cloud']);
    expect(problems({ type: "cloud", organization: "acme org" })).toEqual([
      "backend.organization: got \"acme org\"; must be an HCP Terraform organization name: letters, digits, '-' and '_'",
    ]);
  });
});
