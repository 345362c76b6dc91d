import type { TerraformStack } from "cdktf";
import type { AccessEntries } from "../eks/access-entries";
import type { ControlPlane } from "../eks/control-plane";
import type { ServiceRole } from "../iam/service-role";
import type { KarpenterAws } from "../karpenter/aws/karpenter-aws";
import type { ClusterNetwork } from "../network/cluster-network";
import { addOutputs } from "./stack-outputs";

export interface ClusterOutputsProps {
  readonly clusterName: string;
  readonly region: string;
  readonly controlPlane: ControlPlane;
  readonly network: ClusterNetwork;
  readonly nodeRole: ServiceRole;
  readonly karpenter: KarpenterAws;
  readonly access: AccessEntries;
}

/** The cluster stack's outputs: what another workspace, a pipeline or a person needs to reach the cluster. */
export function addClusterOutputs(stack: TerraformStack, props: ClusterOutputsProps): void {
  const { controlPlane, network, nodeRole, karpenter, access } = props;
  const { cluster } = controlPlane;
  addOutputs(stack, {
    cluster_name: { value: cluster.name, description: "The EKS cluster's name." },
    cluster_arn: { value: cluster.arn, description: "The EKS cluster's ARN." },
    cluster_version: { value: cluster.version, description: "The control plane's Kubernetes version." },
    cluster_endpoint: { value: cluster.endpoint, description: "The Kubernetes API server's URL." },
    cluster_certificate_authority_data: {
      value: cluster.certificateAuthority.get(0).data,
      description: "The cluster's CA certificate, base64-encoded PEM (public: clients verify the API server's TLS with it).",
    },
    cluster_security_group_id: {
      value: controlPlane.clusterSecurityGroupId,
      description: "The security group EKS created for the cluster; nodes get it too.",
    },
    oidc_issuer_url: { value: cluster.identity.get(0).oidc.get(0).issuer, description: "The cluster's OIDC issuer, for IRSA trust policies." },
    oidc_provider_arn: {
      value: controlPlane.oidcProvider.arn,
      description: "The IAM OIDC provider of the issuer, the principal of IRSA trust policies.",
    },
    vpc_id: { value: network.vpcId, description: "The VPC of the cluster." },
    private_subnet_ids: { value: network.privateSubnetIds, description: "Subnets of the control plane's interfaces, Fargate pods and Karpenter's nodes." },
    public_subnet_ids: { value: network.publicSubnetIds, description: "Subnets for internet-facing load balancers (tagged kubernetes.io/role/elb)." },
    node_role_name: { value: nodeRole.role.name, description: "The IAM role of the nodes Karpenter launches (EC2NodeClass spec.role)." },
    node_role_arn: { value: nodeRole.role.arn, description: "The ARN of the nodes' IAM role." },
    karpenter_controller_role_arn: { value: karpenter.controllerRole.role.arn, description: "The Karpenter controller's IRSA role." },
    karpenter_interruption_queue_name: {
      value: karpenter.interruptionQueue.queue.name,
      description: "The SQS queue Karpenter reads interruption events from.",
    },
    access_entries: {
      value: access.grantAssociations.map(({ grant, policyArn, association }) => ({
        principal_arn: association.principalArn,
        policy_arn: policyArn,
        namespaces: grant.namespaces ?? [],
      })),
      description: "The teams' access (config `access`): each principal with a policy, cluster-wide (no namespaces) or in the namespaces listed.",
    },
    update_kubeconfig_command: {
      value: `aws eks update-kubeconfig --region ${props.region} --name ${props.clusterName}`,
      description: "Adds the cluster to your kubeconfig.",
    },
  });
}
