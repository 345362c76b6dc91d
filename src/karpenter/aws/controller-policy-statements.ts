import type { PolicyCondition, PolicyStatement } from "../../iam/policy-statement";

/** What the controller policy is scoped to. Values may be Terraform tokens (account id, ARNs). */
export interface ControllerPolicyScope {
  readonly partition: string;
  readonly region: string;
  readonly accountId: string;
  readonly clusterName: string;
  /**
   * The roles the controller may pass to EC2: the node role, and the Windows node role when there is one
   * (upstream scopes PassRole to a single node role; Windows nodes need a second, see ClusterRoles).
   */
  readonly nodeRoleArns: readonly string[];
  readonly interruptionQueueArn: string;
}

/** One managed policy of the controller, named as in Karpenter's template (KarpenterController<Name>Policy). */
export interface ControllerPolicy {
  readonly name: "NodeLifecycle" | "IAMIntegration" | "EKSIntegration" | "Interruption" | "ZonalShift" | "ResourceDiscovery";
  readonly statements: readonly PolicyStatement[];
}

const equals = (variable: string, ...values: string[]): PolicyCondition => ({ test: "StringEquals", variable, values });
const like = (variable: string, ...values: string[]): PolicyCondition => ({ test: "StringLike", variable, values });

/**
 * Karpenter's controller policy, statement for statement as its v1.14 getting-started CloudFormation
 * template writes it, split into the same six managed policies so that no document nears the 6,144
 * character limit of a managed policy, whatever the cluster name.
 * @see https://github.com/aws/karpenter-provider-aws/blob/v1.14.1/website/content/en/v1.14/getting-started/getting-started-with-karpenter/cloudformation.yaml
 */
export function karpenterControllerPolicies(scope: ControllerPolicyScope): readonly ControllerPolicy[] {
  const { partition: p, region: r, accountId: a, clusterName: c } = scope;
  const ec2 = (resource: string) => `arn:${p}:ec2:${r}:*:${resource}`;
  const instanceProfiles = `arn:${p}:iam::${a}:instance-profile/*`;
  const clusterArn = `arn:${p}:eks:${r}:${a}:cluster/${c}`;
  // Tags Karpenter puts on everything it launches; its permissions hinge on them.
  const clusterTag = `kubernetes.io/cluster/${c}`;
  const launchedResources = ["fleet/*", "instance/*", "volume/*", "network-interface/*", "launch-template/*", "spot-instances-request/*"].map(ec2);

  return [
    {
      name: "NodeLifecycle",
      statements: [
        {
          sid: "AllowScopedEC2InstanceAccessActions",
          effect: "Allow",
          actions: ["ec2:RunInstances", "ec2:CreateFleet"],
          resources: [
            `arn:${p}:ec2:${r}::image/*`,
            `arn:${p}:ec2:${r}::snapshot/*`,
            ...["security-group/*", "subnet/*", "capacity-reservation/*", "placement-group/*"].map(ec2),
          ],
        },
        {
          sid: "AllowScopedEC2LaunchTemplateAccessActions",
          effect: "Allow",
          actions: ["ec2:RunInstances", "ec2:CreateFleet"],
          resources: [ec2("launch-template/*")],
          conditions: [equals(`aws:ResourceTag/${clusterTag}`, "owned"), like("aws:ResourceTag/karpenter.sh/nodepool", "*")],
        },
        {
          sid: "AllowScopedEC2InstanceActionsWithTags",
          effect: "Allow",
          actions: ["ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"],
          resources: launchedResources,
          conditions: [
            equals(`aws:RequestTag/${clusterTag}`, "owned"),
            equals("aws:RequestTag/eks:eks-cluster-name", c),
            like("aws:RequestTag/karpenter.sh/nodepool", "*"),
          ],
        },
        {
          sid: "AllowScopedResourceCreationTagging",
          effect: "Allow",
          actions: ["ec2:CreateTags"],
          resources: launchedResources,
          conditions: [
            equals(`aws:RequestTag/${clusterTag}`, "owned"),
            equals("aws:RequestTag/eks:eks-cluster-name", c),
            equals("ec2:CreateAction", "RunInstances", "CreateFleet", "CreateLaunchTemplate"),
            like("aws:RequestTag/karpenter.sh/nodepool", "*"),
          ],
        },
        {
          sid: "AllowScopedResourceTagging",
          effect: "Allow",
          actions: ["ec2:CreateTags"],
          resources: [ec2("instance/*")],
          conditions: [
            equals(`aws:ResourceTag/${clusterTag}`, "owned"),
            like("aws:ResourceTag/karpenter.sh/nodepool", "*"),
            { test: "StringEqualsIfExists", variable: "aws:RequestTag/eks:eks-cluster-name", values: [c] },
            { test: "ForAllValues:StringEquals", variable: "aws:TagKeys", values: ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"] },
          ],
        },
        {
          sid: "AllowScopedDeletion",
          effect: "Allow",
          actions: ["ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"],
          resources: [ec2("instance/*"), ec2("launch-template/*")],
          conditions: [equals(`aws:ResourceTag/${clusterTag}`, "owned"), like("aws:ResourceTag/karpenter.sh/nodepool", "*")],
        },
      ],
    },
    {
      name: "IAMIntegration",
      statements: [
        {
          sid: "AllowPassingInstanceRole",
          effect: "Allow",
          actions: ["iam:PassRole"],
          resources: [...scope.nodeRoleArns],
          conditions: [equals("iam:PassedToService", "ec2.amazonaws.com", "ec2.amazonaws.com.cn")],
        },
        {
          sid: "AllowScopedInstanceProfileCreationActions",
          effect: "Allow",
          actions: ["iam:CreateInstanceProfile"],
          resources: [instanceProfiles],
          conditions: [
            equals(`aws:RequestTag/${clusterTag}`, "owned"),
            equals("aws:RequestTag/eks:eks-cluster-name", c),
            equals("aws:RequestTag/topology.kubernetes.io/region", r),
            like("aws:RequestTag/karpenter.k8s.aws/ec2nodeclass", "*"),
          ],
        },
        {
          sid: "AllowScopedInstanceProfileTagActions",
          effect: "Allow",
          actions: ["iam:TagInstanceProfile"],
          resources: [instanceProfiles],
          conditions: [
            equals(`aws:ResourceTag/${clusterTag}`, "owned"),
            equals("aws:ResourceTag/topology.kubernetes.io/region", r),
            equals(`aws:RequestTag/${clusterTag}`, "owned"),
            equals("aws:RequestTag/eks:eks-cluster-name", c),
            equals("aws:RequestTag/topology.kubernetes.io/region", r),
            like("aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass", "*"),
            like("aws:RequestTag/karpenter.k8s.aws/ec2nodeclass", "*"),
          ],
        },
        {
          sid: "AllowScopedInstanceProfileActions",
          effect: "Allow",
          actions: ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
          resources: [instanceProfiles],
          conditions: [
            equals(`aws:ResourceTag/${clusterTag}`, "owned"),
            equals("aws:ResourceTag/topology.kubernetes.io/region", r),
            like("aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass", "*"),
          ],
        },
      ],
    },
    {
      name: "EKSIntegration",
      statements: [{ sid: "AllowAPIServerEndpointDiscovery", effect: "Allow", actions: ["eks:DescribeCluster"], resources: [clusterArn] }],
    },
    {
      name: "Interruption",
      statements: [
        {
          sid: "AllowInterruptionQueueActions",
          effect: "Allow",
          actions: ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"],
          resources: [scope.interruptionQueueArn],
        },
      ],
    },
    {
      name: "ZonalShift",
      statements: [
        {
          sid: "AllowZonalShiftStatusReadOnly",
          effect: "Allow",
          actions: ["arc-zonal-shift:GetManagedResource"],
          resources: ["*"],
          conditions: [equals("arc-zonal-shift:ResourceIdentifier", clusterArn)],
        },
      ],
    },
    {
      name: "ResourceDiscovery",
      statements: [
        {
          sid: "AllowRegionalReadActions",
          effect: "Allow",
          actions: [
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
          resources: ["*"],
          conditions: [equals("aws:RequestedRegion", r)],
        },
        { sid: "AllowSSMReadActions", effect: "Allow", actions: ["ssm:GetParameter"], resources: [`arn:${p}:ssm:${r}::parameter/aws/service/*`] },
        { sid: "AllowPricingReadActions", effect: "Allow", actions: ["pricing:GetProducts"], resources: ["*"] },
        { sid: "AllowUnscopedInstanceProfileListAction", effect: "Allow", actions: ["iam:ListInstanceProfiles"], resources: ["*"] },
        { sid: "AllowInstanceProfileReadActions", effect: "Allow", actions: ["iam:GetInstanceProfile"], resources: [instanceProfiles] },
      ],
    },
  ];
}

/** The policy name IAM shows: kebab-case of the template's name, prefixed by the cluster. */
export function controllerPolicyName(prefix: string, policy: ControllerPolicy["name"]): string {
  const kebab: Record<ControllerPolicy["name"], string> = {
    NodeLifecycle: "node-lifecycle",
    IAMIntegration: "iam-integration",
    EKSIntegration: "eks-integration",
    Interruption: "interruption",
    ZonalShift: "zonal-shift",
    ResourceDiscovery: "resource-discovery",
  };
  return `${prefix}${kebab[policy]}`;
}
