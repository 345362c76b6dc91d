import { config, findResource, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

const json = readStack(synthApp(config()), "demo-cluster");

function trustOf(roleName: string) {
  const [, role] = findResource(json, "aws_iam_role", (r) => r.name === roleName);
  const documentId = String(role.assume_role_policy).match(/data\.aws_iam_policy_document\.([^.]+)\.json/)![1];
  return json.data!.aws_iam_policy_document[documentId].statement as Record<string, unknown>[];
}

function attachedPolicies(roleName: string): string[] {
  const [roleId] = findResource(json, "aws_iam_role", (r) => r.name === roleName);
  return resourcesOfType(json, "aws_iam_role_policy_attachment")
    .filter(([, a]) => a.role === `\${aws_iam_role.${roleId}.name}`)
    .map(([, a]) => String(a.policy_arn))
    .sort();
}

describe("ClusterRoles", () => {
  it("lets only EKS, acting for this cluster of this account, assume the cluster role", () => {
    const account = "${data.aws_caller_identity.caller-identity.account_id}";
    expect(trustOf("demo-cluster")).toEqual([
      {
        sid: "EksAssumeRole",
        effect: "Allow",
        actions: ["sts:AssumeRole", "sts:TagSession"],
        principals: [{ type: "Service", identifiers: ["eks.amazonaws.com"] }],
        condition: [
          { test: "StringEquals", variable: "aws:SourceAccount", values: [account] },
          { test: "ArnLike", variable: "aws:SourceArn", values: [`arn:aws:eks:us-east-1:${account}:cluster/demo`] },
        ],
      },
    ]);
    expect(attachedPolicies("demo-cluster")).toEqual(["arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"]);
  });

  it("scopes the Fargate pod execution role to this cluster's profiles", () => {
    expect(trustOf("demo-fargate-pods")).toEqual([
      {
        sid: "FargatePodsAssumeRole",
        effect: "Allow",
        actions: ["sts:AssumeRole"],
        principals: [{ type: "Service", identifiers: ["eks-fargate-pods.amazonaws.com"] }],
        condition: [
          {
            test: "ArnLike",
            variable: "aws:SourceArn",
            values: ["arn:aws:eks:us-east-1:${data.aws_caller_identity.caller-identity.account_id}:fargateprofile/demo/*"],
          },
        ],
      },
    ]);
    expect(attachedPolicies("demo-fargate-pods")).toEqual(["arn:aws:iam::aws:policy/AmazonEKSFargatePodExecutionRolePolicy"]);
  });

  it("gives Karpenter's node role the node policies, attached non-exclusively: no CNI policy (aws-node has its own role), no SSM unless asked", () => {
    expect(attachedPolicies("demo-karpenter-node")).toEqual(
      ["AmazonEC2ContainerRegistryPullOnly", "AmazonEKSWorkerNodePolicy"].map((n) => `arn:aws:iam::aws:policy/${n}`),
    );
    expect(resourcesOfType(json, "aws_iam_policy_attachment")).toEqual([]);
    const withSsm = readStack(synthApp(config({ karpenter: { nodeSsm: true } })), "demo-cluster");
    const ssm = resourcesOfType(withSsm, "aws_iam_role_policy_attachment").filter(([, a]) => String(a.policy_arn).endsWith("/AmazonSSMManagedInstanceCore"));
    expect(ssm.map(([, a]) => a.role)).toEqual([expect.stringMatching(/^\$\{aws_iam_role\.roles_karpenter-node_role_\w+\.name\}$/)]);
  });

  it("gives aws-node (the vpc-cni add-on) an IRSA role that only its service account may assume, with the CNI policy", () => {
    expect(attachedPolicies("demo-vpc-cni")).toEqual(["arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy"]);
    const [roleId, role] = findResource(json, "aws_iam_role", (r) => r.name === "demo-vpc-cni");
    const trustId = String(role.assume_role_policy).match(/data\.aws_iam_policy_document\.([^.]+)\.json/)![1];
    const [statement] = json.data!.aws_iam_policy_document[trustId].statement as { actions: string[]; condition: { variable: string; values: string[] }[] }[];
    expect(statement.actions).toEqual(["sts:AssumeRoleWithWebIdentity"]);
    expect(statement.condition.map((c) => [c.variable.replace(/^.*:/, ""), c.values])).toEqual([
      ["sub", ["system:serviceaccount:kube-system:aws-node"]],
      ["aud", ["sts.amazonaws.com"]],
    ]);
    const [, vpcCni] = findResource(json, "aws_eks_addon", (a) => a.addon_name === "vpc-cni");
    expect(vpcCni.service_account_role_arn).toBe(`\${aws_iam_role.${roleId}.arn}`);
  });

  it("uses the partition and DNS suffix of the region (China)", () => {
    const china = readStack(
      synthApp(config({ region: "cn-north-1", network: { availabilityZones: ["cn-north-1a", "cn-north-1b", "cn-north-1d"] } })),
      "demo-cluster",
    );
    const [, nodeRole] = findResource(china, "aws_iam_role", (r) => r.name === "demo-karpenter-node");
    const trustId = String(nodeRole.assume_role_policy).match(/data\.aws_iam_policy_document\.([^.]+)\.json/)![1];
    expect(china.data!.aws_iam_policy_document[trustId].statement).toEqual([
      { sid: "Ec2AssumeRole", effect: "Allow", actions: ["sts:AssumeRole"], principals: [{ type: "Service", identifiers: ["ec2.amazonaws.com.cn"] }] },
    ]);
    // AWS managed policies only; the Karpenter policies are this stack's own (${aws_iam_policy...}).
    const arns = resourcesOfType(china, "aws_iam_role_policy_attachment")
      .map(([, a]) => String(a.policy_arn))
      .filter((arn) => arn.startsWith("arn:"));
    expect(arns.length).toBeGreaterThanOrEqual(5);
    for (const arn of arns) expect(arn).toMatch(/^arn:aws-cn:iam::aws:policy\//);
  });
});
