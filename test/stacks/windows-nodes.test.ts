import { parse } from "yaml";
import { clusterProblems } from "../helpers/problems";
import { config, findResource, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

// EKS admits Windows nodes through an access entry of type EC2_WINDOWS, and an IAM role has one access
// entry: Windows nodes need a role of their own, which Karpenter must be allowed to pass.
describe("a cluster with a Windows node class", () => {
  const windows = config({
    nodeClasses: [{ name: "default" }, { name: "windows", amiAlias: "windows2022@latest" }],
    nodePools: [{ name: "default" }, { name: "windows", nodeClass: "windows", architectures: ["amd64"] }],
  });
  const outdir = synthApp(windows);
  const cluster = readStack(outdir, "demo-cluster");
  const karpenter = readStack(outdir, "demo-karpenter");
  const [linuxRoleId] = findResource(cluster, "aws_iam_role", (r) => r.name === "demo-karpenter-node");
  const [windowsRoleId, windowsRole] = findResource(cluster, "aws_iam_role", (r) => r.name === "demo-karpenter-windows-node");

  it("gives Windows nodes their own role with the node policies, and an EC2_WINDOWS access entry", () => {
    expect(windowsRole.description).toBe("Windows EC2 nodes that Karpenter launches for demo");
    const attached = resourcesOfType(cluster, "aws_iam_role_policy_attachment").filter(([, a]) => a.role === `\${aws_iam_role.${windowsRoleId}.name}`);
    expect(attached.map(([, a]) => a.policy_arn).sort()).toEqual(
      ["AmazonEC2ContainerRegistryPullOnly", "AmazonEKSWorkerNodePolicy"].map((p) => `arn:aws:iam::aws:policy/${p}`),
    );
    expect(
      resourcesOfType(cluster, "aws_eks_access_entry")
        .map(([, e]) => [e.type, e.principal_arn])
        .filter(([type]) => type !== "STANDARD"),
    ).toEqual([
      ["EC2_LINUX", `\${aws_iam_role.${linuxRoleId}.arn}`],
      ["EC2_WINDOWS", `\${aws_iam_role.${windowsRoleId}.arn}`],
    ]);
  });

  it("lets the VPC resource controller hand Windows pods their addresses: its policy on the cluster role, IPAM on in vpc-cni", () => {
    const [clusterRoleId] = findResource(cluster, "aws_iam_role", (r) => r.name === "demo-cluster");
    const controllerPolicy = resourcesOfType(cluster, "aws_iam_role_policy_attachment").filter(
      ([, a]) => a.policy_arn === "arn:aws:iam::aws:policy/AmazonEKSVPCResourceController",
    );
    expect(controllerPolicy.map(([, a]) => a.role)).toEqual([`\${aws_iam_role.${clusterRoleId}.name}`]);
    expect(JSON.parse(String(findResource(cluster, "aws_eks_addon", (a) => a.addon_name === "vpc-cni")[1].configuration_values))).toEqual({
      enableWindowsIpam: "true",
    });
  });

  it("lets the controller pass both node roles to EC2, and no other", () => {
    const documents = Object.values(cluster.data?.aws_iam_policy_document ?? {});
    const passRole = documents.flatMap((d) => d.statement as { sid: string; resources?: string[] }[]).find((s) => s.sid === "AllowPassingInstanceRole");
    expect(passRole?.resources).toEqual([`\${aws_iam_role.${linuxRoleId}.arn}`, `\${aws_iam_role.${windowsRoleId}.arn}`]);
  });

  it("renders the Windows EC2NodeClass with the Windows role", () => {
    const roles = resourcesOfType(karpenter, "kubectl_manifest")
      .map(([, m]) => parse(String(m.yaml_body)))
      .filter((m) => m.kind === "EC2NodeClass")
      .map((m) => [m.metadata.name, m.spec.role]);
    expect(roles).toEqual([
      ["default", "demo-karpenter-node"],
      ["windows", "demo-karpenter-windows-node"],
    ]);
  });

  it("rejects a Windows node class that names the Linux node role", () => {
    expect(
      clusterProblems({
        nodeClasses: [{ name: "default", amiAlias: "windows2022@latest", role: "demo-karpenter-node" }],
        nodePools: [{ name: "default", architectures: ["amd64"] }],
      }),
    ).toEqual([
      `nodeClasses[0].role: got "demo-karpenter-node"; must be demo-karpenter-windows-node or omitted: Karpenter may pass only this cluster's node roles, and only they may join the cluster`,
    ]);
  });

  it("creates none of it without Windows node classes", () => {
    const linuxOnly = readStack(synthApp(config()), "demo-cluster");
    expect(resourcesOfType(linuxOnly, "aws_iam_role").map(([, r]) => r.name)).not.toContain("demo-karpenter-windows-node");
    expect(resourcesOfType(linuxOnly, "aws_eks_access_entry").map(([, e]) => e.type)).not.toContain("EC2_WINDOWS");
    expect(findResource(linuxOnly, "aws_eks_addon", (a) => a.addon_name === "vpc-cni")[1].configuration_values).toBeUndefined();
    expect(resourcesOfType(linuxOnly, "aws_iam_role_policy_attachment").map(([, a]) => a.policy_arn)).not.toContain(
      "arn:aws:iam::aws:policy/AmazonEKSVPCResourceController",
    );
  });
});
