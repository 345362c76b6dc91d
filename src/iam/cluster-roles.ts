import { Construct } from "constructs";
import type { ResourceNames } from "../shared/resource-names";
import { managedPolicyArn } from "./arns";
import type { AwsContext } from "./aws-context";
import { ServiceRole } from "./service-role";

export interface ClusterRolesProps {
  readonly aws: AwsContext;
  readonly names: ResourceNames;
  /** Whether a node class launches Windows nodes: they need a role of their own. */
  readonly windowsNodes: boolean;
  /**
   * Whether the VPC resource controller, which runs with the cluster role, hands out network interfaces:
   * Windows pods' addresses, and the branch interfaces of security groups for pods (vpc-cni ENABLE_POD_ENI).
   * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html
   * @see https://docs.aws.amazon.com/eks/latest/userguide/security-groups-for-pods.html
   */
  readonly vpcResourceController: boolean;
  /** Whether nodes get Session Manager (AmazonSSMManagedInstanceCore). */
  readonly nodeSsm: boolean;
}

/**
 * The node role of Karpenter's getting-started template (v1.14) less two policies. AmazonEKS_CNI_Policy goes to
 * aws-node's own IRSA role on the vpc-cni add-on, as EKS recommends ("assign it to a separate role"), so every
 * pod on a node does not inherit network-interface rights. AmazonSSMManagedInstanceCore (Session Manager on the
 * nodes) is opt-in, `karpenter.nodeSsm`; SSM's Default Host Management Configuration gives it account-wide
 * without an instance policy.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/cni-iam-role.html
 * @see https://docs.aws.amazon.com/systems-manager/latest/userguide/managed-instances-default-host-management.html
 */
const NODE_POLICIES = ["AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly"];
const SSM_POLICY = "AmazonSSMManagedInstanceCore";

/**
 * The three roles every groupless cluster needs: the control plane's, the Fargate pod execution role, and
 * the role Karpenter passes to the EC2 nodes it launches; with Windows node classes, a fourth for those
 * nodes, because an IAM role has one access entry and Windows nodes need one of type EC2_WINDOWS.
 */
export class ClusterRoles extends Construct {
  readonly cluster: ServiceRole;
  readonly fargatePodExecution: ServiceRole;
  readonly karpenterNode: ServiceRole;
  readonly karpenterWindowsNode?: ServiceRole;

  constructor(scope: Construct, id: string, props: ClusterRolesProps) {
    super(scope, id);
    const { aws, names } = props;
    const nodePolicies = [...NODE_POLICIES, ...(props.nodeSsm ? [SSM_POLICY] : [])];
    this.cluster = new ServiceRole(this, "cluster", {
      roleName: names.clusterRole,
      description: `EKS control plane of ${names.cluster}`,
      trust: [
        {
          sid: "EksAssumeRole",
          effect: "Allow",
          actions: ["sts:AssumeRole", "sts:TagSession"],
          principals: [{ type: "Service", identifiers: ["eks.amazonaws.com"] }],
          // Confused-deputy guard: EKS accepts both keys in a cluster role's trust (since 2025); the cluster's
          // ARN is known before it exists.
          // @see https://docs.aws.amazon.com/eks/latest/userguide/cross-service-confused-deputy-prevention.html
          conditions: [
            { test: "StringEquals", variable: "aws:SourceAccount", values: [aws.accountId] },
            { test: "ArnLike", variable: "aws:SourceArn", values: [`arn:${aws.partition}:eks:${aws.region}:${aws.accountId}:cluster/${names.cluster}`] },
          ],
        },
      ],
      managedPolicyArns: [
        managedPolicyArn(aws.partition, "AmazonEKSClusterPolicy"),
        ...(props.vpcResourceController ? [managedPolicyArn(aws.partition, "AmazonEKSVPCResourceController")] : []),
      ],
    });
    this.fargatePodExecution = new ServiceRole(this, "fargate-pod-execution", {
      roleName: names.fargatePodExecutionRole,
      description: `Fargate pod execution role of ${names.cluster}`,
      trust: [
        {
          sid: "FargatePodsAssumeRole",
          effect: "Allow",
          actions: ["sts:AssumeRole"],
          principals: [{ type: "Service", identifiers: ["eks-fargate-pods.amazonaws.com"] }],
          // Confused-deputy guard from the EKS user guide: only this cluster's Fargate profiles.
          // https://docs.aws.amazon.com/eks/latest/userguide/pod-execution-role.html
          conditions: [
            {
              test: "ArnLike",
              variable: "aws:SourceArn",
              values: [`arn:${aws.partition}:eks:${aws.region}:${aws.accountId}:fargateprofile/${names.cluster}/*`],
            },
          ],
        },
      ],
      managedPolicyArns: [managedPolicyArn(aws.partition, "AmazonEKSFargatePodExecutionRolePolicy")],
    });
    const nodeTrust = [
      { sid: "Ec2AssumeRole", effect: "Allow", actions: ["sts:AssumeRole"], principals: [{ type: "Service", identifiers: [`ec2.${aws.dnsSuffix}`] }] },
    ] as const;
    this.karpenterNode = new ServiceRole(this, "karpenter-node", {
      roleName: names.karpenterNodeRole,
      description: `EC2 nodes that Karpenter launches for ${names.cluster}`,
      trust: nodeTrust,
      managedPolicyArns: nodePolicies.map((n) => managedPolicyArn(aws.partition, n)),
    });
    if (props.windowsNodes) {
      this.karpenterWindowsNode = new ServiceRole(this, "karpenter-windows-node", {
        roleName: names.karpenterWindowsNodeRole,
        description: `Windows EC2 nodes that Karpenter launches for ${names.cluster}`,
        trust: nodeTrust,
        managedPolicyArns: nodePolicies.map((n) => managedPolicyArn(aws.partition, n)),
      });
    }
  }
}
