import { controllerPolicyName, karpenterControllerPolicies } from "../../../src/karpenter/aws/controller-policy-statements";
import { maxClusterNameLength } from "../../../src/shared/resource-names";
import { policySize, renderPolicyJson } from "../../helpers/policy-json";

/**
 * Karpenter's controller policy as the upstream getting-started template writes it, as data:
 * aws/karpenter-provider-aws website/content/en/v1.14/getting-started/getting-started-with-karpenter/cloudformation.yaml
 * (Karpenter 1.14.1). Placeholders: P partition, R region, A account, C cluster, NODE_ROLE, QUEUE.
 */
const ec2 = (r: string) => `arn:P:ec2:R:*:${r}`;
const LAUNCHED = ["fleet/*", "instance/*", "volume/*", "network-interface/*", "launch-template/*", "spot-instances-request/*"].map(ec2);
const PROFILES = "arn:P:iam::A:instance-profile/*";
const UPSTREAM_V1_14: Record<string, Record<string, unknown>[]> = {
  NodeLifecycle: [
    {
      Sid: "AllowScopedEC2InstanceAccessActions",
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
      Resource: [
        "arn:P:ec2:R::image/*",
        "arn:P:ec2:R::snapshot/*",
        ec2("security-group/*"),
        ec2("subnet/*"),
        ec2("capacity-reservation/*"),
        ec2("placement-group/*"),
      ],
    },
    {
      Sid: "AllowScopedEC2LaunchTemplateAccessActions",
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
      Resource: [ec2("launch-template/*")],
      Condition: { StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/C": ["owned"] }, StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": ["*"] } },
    },
    {
      Sid: "AllowScopedEC2InstanceActionsWithTags",
      Action: ["ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"],
      Resource: LAUNCHED,
      Condition: {
        StringEquals: { "aws:RequestTag/kubernetes.io/cluster/C": ["owned"], "aws:RequestTag/eks:eks-cluster-name": ["C"] },
        StringLike: { "aws:RequestTag/karpenter.sh/nodepool": ["*"] },
      },
    },
    {
      Sid: "AllowScopedResourceCreationTagging",
      Action: ["ec2:CreateTags"],
      Resource: LAUNCHED,
      Condition: {
        StringEquals: {
          "aws:RequestTag/kubernetes.io/cluster/C": ["owned"],
          "aws:RequestTag/eks:eks-cluster-name": ["C"],
          "ec2:CreateAction": ["RunInstances", "CreateFleet", "CreateLaunchTemplate"],
        },
        StringLike: { "aws:RequestTag/karpenter.sh/nodepool": ["*"] },
      },
    },
    {
      Sid: "AllowScopedResourceTagging",
      Action: ["ec2:CreateTags"],
      Resource: [ec2("instance/*")],
      Condition: {
        StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/C": ["owned"] },
        StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": ["*"] },
        StringEqualsIfExists: { "aws:RequestTag/eks:eks-cluster-name": ["C"] },
        "ForAllValues:StringEquals": { "aws:TagKeys": ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"] },
      },
    },
    {
      Sid: "AllowScopedDeletion",
      Action: ["ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"],
      Resource: [ec2("instance/*"), ec2("launch-template/*")],
      Condition: { StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/C": ["owned"] }, StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": ["*"] } },
    },
  ],
  IAMIntegration: [
    {
      Sid: "AllowPassingInstanceRole",
      Action: ["iam:PassRole"],
      Resource: ["NODE_ROLE"],
      Condition: { StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] } },
    },
    {
      Sid: "AllowScopedInstanceProfileCreationActions",
      Action: ["iam:CreateInstanceProfile"],
      Resource: [PROFILES],
      Condition: {
        StringEquals: {
          "aws:RequestTag/kubernetes.io/cluster/C": ["owned"],
          "aws:RequestTag/eks:eks-cluster-name": ["C"],
          "aws:RequestTag/topology.kubernetes.io/region": ["R"],
        },
        StringLike: { "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass": ["*"] },
      },
    },
    {
      Sid: "AllowScopedInstanceProfileTagActions",
      Action: ["iam:TagInstanceProfile"],
      Resource: [PROFILES],
      Condition: {
        StringEquals: {
          "aws:ResourceTag/kubernetes.io/cluster/C": ["owned"],
          "aws:ResourceTag/topology.kubernetes.io/region": ["R"],
          "aws:RequestTag/kubernetes.io/cluster/C": ["owned"],
          "aws:RequestTag/eks:eks-cluster-name": ["C"],
          "aws:RequestTag/topology.kubernetes.io/region": ["R"],
        },
        StringLike: { "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass": ["*"], "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass": ["*"] },
      },
    },
    {
      Sid: "AllowScopedInstanceProfileActions",
      Action: ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
      Resource: [PROFILES],
      Condition: {
        StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/C": ["owned"], "aws:ResourceTag/topology.kubernetes.io/region": ["R"] },
        StringLike: { "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass": ["*"] },
      },
    },
  ],
  EKSIntegration: [{ Sid: "AllowAPIServerEndpointDiscovery", Action: ["eks:DescribeCluster"], Resource: ["arn:P:eks:R:A:cluster/C"] }],
  Interruption: [{ Sid: "AllowInterruptionQueueActions", Action: ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"], Resource: ["QUEUE"] }],
  ZonalShift: [
    {
      Sid: "AllowZonalShiftStatusReadOnly",
      Action: ["arc-zonal-shift:GetManagedResource"],
      Resource: ["*"],
      Condition: { StringEquals: { "arc-zonal-shift:ResourceIdentifier": ["arn:P:eks:R:A:cluster/C"] } },
    },
  ],
  ResourceDiscovery: [
    {
      Sid: "AllowRegionalReadActions",
      Action: [
        "ec2:DescribeCapacityReservations",
        "ec2:DescribeImages",
        "ec2:DescribeInstances",
        "ec2:DescribeInstanceStatus",
        "ec2:DescribeInstanceTypeOfferings",
        "ec2:DescribeInstanceTypes",
        "ec2:DescribeLaunchTemplates",
        "ec2:DescribePlacementGroups",
        "ec2:DescribeSecurityGroups",
        "ec2:DescribeSpotPriceHistory",
        "ec2:DescribeSubnets",
      ],
      Resource: ["*"],
      Condition: { StringEquals: { "aws:RequestedRegion": ["R"] } },
    },
    { Sid: "AllowSSMReadActions", Action: ["ssm:GetParameter"], Resource: ["arn:P:ssm:R::parameter/aws/service/*"] },
    { Sid: "AllowPricingReadActions", Action: ["pricing:GetProducts"], Resource: ["*"] },
    { Sid: "AllowUnscopedInstanceProfileListAction", Action: ["iam:ListInstanceProfiles"], Resource: ["*"] },
    { Sid: "AllowInstanceProfileReadActions", Action: ["iam:GetInstanceProfile"], Resource: [PROFILES] },
  ],
};

const PLACEHOLDERS = { partition: "P", region: "R", accountId: "A", clusterName: "C", nodeRoleArns: ["NODE_ROLE"], interruptionQueueArn: "QUEUE" };

/** Parses a rendered statement into the upstream data's shape: every value a list, Effect implied Allow. */
function normalize(statement: Record<string, unknown>): Record<string, unknown> {
  const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
  expect(statement.Effect).toBe("Allow");
  const condition = statement.Condition as Record<string, Record<string, unknown>> | undefined;
  return {
    Sid: statement.Sid,
    Action: list(statement.Action),
    Resource: list(statement.Resource),
    ...(condition
      ? {
          Condition: Object.fromEntries(
            Object.entries(condition).map(([test, vars]) => [test, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, list(v)]))]),
          ),
        }
      : {}),
  };
}

describe("Karpenter controller policy", () => {
  const policies = karpenterControllerPolicies(PLACEHOLDERS);

  it("has the six managed policies of the upstream template, in order", () => {
    expect(policies.map((p) => p.name)).toEqual(Object.keys(UPSTREAM_V1_14));
  });

  for (const [policyName, upstream] of Object.entries(UPSTREAM_V1_14)) {
    it(`matches upstream v1.14 statement by statement: ${policyName}`, () => {
      const ours = (JSON.parse(renderPolicyJson(policies.find((p) => p.name === policyName)!.statements)).Statement as Record<string, unknown>[]).map(
        normalize,
      );
      expect(ours.map((s) => s.Sid)).toEqual(upstream.map((s) => s.Sid));
      ours.forEach((statement, i) => {
        expect(statement).toEqual(upstream[i]);
      });
    });
  }

  it("lets the controller pass the Windows node role too, and no other, when there is one (upstream has one node role)", () => {
    const withWindows = karpenterControllerPolicies({ ...PLACEHOLDERS, nodeRoleArns: ["NODE_ROLE", "WINDOWS_NODE_ROLE"] });
    const statement = withWindows.flatMap((p) => p.statements).find((s) => s.sid === "AllowPassingInstanceRole");
    expect(statement?.resources).toEqual(["NODE_ROLE", "WINDOWS_NODE_ROLE"]);
  });

  it("keeps every managed policy under IAM's 6,144-character limit with the longest name, partition and region", () => {
    const worst = karpenterControllerPolicies({
      partition: "aws-us-gov",
      region: "ap-southeast-4",
      accountId: "123456789012",
      clusterName: "c".repeat(maxClusterNameLength()),
      // With Windows node classes, PassRole names two roles.
      nodeRoleArns: ["node", "windows-node"].map((role) => `arn:aws-us-gov:iam::123456789012:role/${"c".repeat(maxClusterNameLength())}-karpenter-${role}`),
      interruptionQueueArn: `arn:aws-us-gov:sqs:ap-southeast-4:123456789012:${"c".repeat(maxClusterNameLength())}-karpenter`,
    });
    const sizes = Object.fromEntries(worst.map((p) => [p.name, policySize(p.statements)]));
    for (const [name, size] of Object.entries(sizes)) expect({ name, underLimit: size < 6144 }).toEqual({ name, underLimit: true });
    // The single document terraform-aws-modules uses would not fit: this is why the policy is split.
    expect(policySize(worst.flatMap((p) => p.statements))).toBeGreaterThan(6144);
  });

  it("names policies after the cluster", () => {
    expect(controllerPolicyName("demo-karpenter-", "ResourceDiscovery")).toBe("demo-karpenter-resource-discovery");
  });
});
