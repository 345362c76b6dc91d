import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { IamOpenidConnectProvider } from "@cdktf/provider-aws/lib/iam-openid-connect-provider";
import { KmsAlias } from "@cdktf/provider-aws/lib/kms-alias";
import { KmsKey } from "@cdktf/provider-aws/lib/kms-key";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import type { ServiceRole } from "../iam/service-role";
import { DISCOVERY_TAG } from "../network/discovery-tag";
import type { ResourceNames } from "../shared/resource-names";
import type { ClusterSettings } from "./cluster-settings";

export interface ControlPlaneProps {
  readonly kubernetesVersion: string;
  readonly settings: ClusterSettings;
  readonly names: ResourceNames;
  readonly clusterRole: ServiceRole;
  readonly privateSubnetIds: readonly string[];
}

/**
 * The EKS cluster itself, with no node groups: secrets envelope-encrypted with a rotating KMS key, control
 * plane logs kept for a bounded time, access entries instead of the aws-auth ConfigMap, and the OIDC
 * provider that IRSA needs (Karpenter runs on Fargate, where EKS Pod Identity does not work).
 */
export class ControlPlane extends Construct {
  readonly cluster: EksCluster;
  readonly oidcProvider: IamOpenidConnectProvider;
  readonly clusterSecurityGroupId: string;
  /** The OIDC issuer without "https://": IRSA trust conditions are keyed by it. */
  readonly oidcIssuerHost: string;

  constructor(scope: Construct, id: string, props: ControlPlaneProps) {
    super(scope, id);
    const { settings, names } = props;

    const secretsKey = new KmsKey(this, "secrets-key", {
      description: `Envelope encryption of Kubernetes secrets in EKS cluster ${names.cluster}`,
      enableKeyRotation: true,
      deletionWindowInDays: 30,
    });
    new KmsAlias(this, "secrets-key-alias", { name: names.secretsKeyAlias, targetKeyId: secretsKey.keyId });

    // EKS creates this group on first log with no expiry; owning it sets retention and lets destroy remove it.
    const logGroup = new CloudwatchLogGroup(this, "log-group", { name: names.clusterLogGroup, retentionInDays: settings.logRetentionDays });

    this.cluster = new EksCluster(this, "cluster", {
      name: names.cluster,
      version: props.kubernetesVersion,
      roleArn: props.clusterRole.role.arn,
      vpcConfig: {
        subnetIds: [...props.privateSubnetIds],
        endpointPrivateAccess: settings.endpointPrivateAccess,
        endpointPublicAccess: settings.endpointPublicAccess,
        publicAccessCidrs: settings.endpointPublicAccess ? [...settings.publicAccessCidrs] : undefined,
      },
      encryptionConfig: { provider: { keyArn: secretsKey.arn }, resources: ["secrets"] },
      enabledClusterLogTypes: [...settings.logTypes],
      accessConfig: {
        // API only: access entries are managed here; the aws-auth ConfigMap of the original is gone.
        authenticationMode: "API",
        bootstrapClusterCreatorAdminPermissions: settings.creatorAdmin,
      },
      // Explicit, so the review shows what happens when the version leaves standard support.
      upgradePolicy: { supportType: settings.upgradePolicy === "extended" ? "EXTENDED" : "STANDARD" },
      // The role must hold its policy before EKS assumes it, and the log group must exist before EKS writes.
      dependsOn: [...props.clusterRole.attachments, logGroup],
    });

    this.clusterSecurityGroupId = this.cluster.vpcConfig.clusterSecurityGroupId;
    // EKS creates the cluster security group; the tag lets Karpenter's EC2NodeClass select it for nodes.
    new Ec2Tag(this, "cluster-security-group-discovery-tag", { resourceId: this.clusterSecurityGroupId, key: DISCOVERY_TAG, value: names.cluster });

    const issuer = this.cluster.identity.get(0).oidc.get(0).issuer;
    // No thumbprint: IAM trusts the EKS OIDC endpoint's CA itself (aws provider >= 5.81 makes it optional).
    this.oidcProvider = new IamOpenidConnectProvider(this, "oidc-provider", { url: issuer, clientIdList: ["sts.amazonaws.com"] });
    this.oidcIssuerHost = Fn.replace(this.oidcProvider.url, "https://", "");
  }
}
