/**
 * Every AWS and Kubernetes name derived from the cluster name, in one place. The two stacks share these
 * names instead of passing values through remote state, so each stack folder can be planned on its own.
 */
export interface ResourceNames {
  readonly cluster: string;
  readonly clusterRole: string;
  readonly fargatePodExecutionRole: string;
  readonly karpenterNodeRole: string;
  /** Windows nodes join with their own role: an IAM principal has one access entry, of one type. */
  readonly karpenterWindowsNodeRole: string;
  readonly ebsCsiDriverRole: string;
  /** aws-node's IRSA role (the vpc-cni add-on). */
  readonly vpcCniRole: string;
  readonly karpenterControllerRole: string;
  readonly karpenterControllerPolicyPrefix: string;
  readonly interruptionQueue: string;
  readonly interruptionRulePrefix: string;
  readonly coreDnsFunction: string;
  readonly coreDnsRole: string;
  readonly secretsKeyAlias: string;
  readonly clusterLogGroup: string;
  readonly flowLogGroup: string;
  readonly flowLogRole: string;
}

export function resourceNames(clusterName: string): ResourceNames {
  return {
    cluster: clusterName,
    clusterRole: `${clusterName}-cluster`,
    fargatePodExecutionRole: `${clusterName}-fargate-pods`,
    karpenterNodeRole: `${clusterName}-karpenter-node`,
    karpenterWindowsNodeRole: `${clusterName}-karpenter-windows-node`,
    ebsCsiDriverRole: `${clusterName}-ebs-csi-driver`,
    vpcCniRole: `${clusterName}-vpc-cni`,
    karpenterControllerRole: `${clusterName}-karpenter-controller`,
    karpenterControllerPolicyPrefix: `${clusterName}-karpenter-`,
    // One queue per cluster: Karpenter deletes messages about instances it does not own.
    interruptionQueue: `${clusterName}-karpenter`,
    interruptionRulePrefix: `${clusterName}-karpenter-`,
    coreDnsFunction: `${clusterName}-coredns-fargate`,
    coreDnsRole: `${clusterName}-coredns-fargate`,
    secretsKeyAlias: `alias/${clusterName}-eks-secrets`,
    // EKS writes control-plane logs to exactly this group; creating it first lets us set retention.
    clusterLogGroup: `/aws/eks/${clusterName}/cluster`,
    flowLogGroup: `/aws/vpc/${clusterName}/flow-logs`,
    flowLogRole: `${clusterName}-vpc-flow-logs`,
  };
}

/** The longest suffix appended to the cluster name for each AWS name length limit. */
export const NAME_LIMITS: readonly { readonly what: string; readonly limit: number; readonly name: (n: ResourceNames) => string }[] = [
  { what: "IAM role name", limit: 64, name: (n) => n.karpenterControllerRole },
  { what: "IAM role name", limit: 64, name: (n) => n.karpenterNodeRole },
  { what: "IAM role name", limit: 64, name: (n) => n.fargatePodExecutionRole },
  { what: "IAM role name", limit: 64, name: (n) => n.coreDnsRole },
  { what: "Lambda function name", limit: 64, name: (n) => n.coreDnsFunction },
  // "state-change" is the longest interruption rule suffix (src/karpenter/aws/interruption-rules.ts).
  { what: "EventBridge rule name", limit: 64, name: (n) => `${n.interruptionRulePrefix}state-change` },
  // As long as the rule's name: the limit the error message names is the rule's.
  { what: "IAM role name", limit: 64, name: (n) => n.karpenterWindowsNodeRole },
  { what: "IAM role name", limit: 64, name: (n) => n.ebsCsiDriverRole },
  { what: "IAM role name", limit: 64, name: (n) => n.vpcCniRole },
  { what: "IAM role name", limit: 64, name: (n) => n.flowLogRole },
  { what: "SQS queue name", limit: 80, name: (n) => n.interruptionQueue },
  { what: "IAM policy name", limit: 128, name: (n) => `${n.karpenterControllerPolicyPrefix}resource-discovery` },
];

/** The longest cluster name that keeps every derived name within its limit. */
export function maxClusterNameLength(): number {
  const probe = resourceNames("");
  return Math.min(...NAME_LIMITS.map((l) => l.limit - l.name(probe).length));
}
