import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { IamOpenidConnectProvider } from "@cdktf/provider-aws/lib/iam-openid-connect-provider";
import { KmsAlias } from "@cdktf/provider-aws/lib/kms-alias";
import { KmsKey } from "@cdktf/provider-aws/lib/kms-key";
import { Fn } from "cdktf";
import { Construct } from "constructs";
import type { AwsContext } from "../iam/aws-context";
import { PolicyDocument } from "../iam/policy-document";
import type { ServiceRole } from "../iam/service-role";
import { DISCOVERY_TAG } from "../network/discovery-tag";
import type { ResourceNames } from "../shared/resource-names";
import type { ClusterSettings } from "./cluster-settings";

export interface ControlPlaneProps {
  readonly aws: AwsContext;
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
      policy: secretsKeyPolicy(this, props.aws, props.clusterRole.role.arn, settings.secretsKeyAdministrators).json,
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
        // The creator's admin is an access entry of this project's (access-entries.ts) unless the config keeps
        // EKS's implicit one. EKS cannot change this after creation, so a change would replace the cluster:
        // clusters created with it keep it (the creator entry's plan-time check says what to set).
        bootstrapClusterCreatorAdminPermissions: settings.creatorAdmin === "bootstrap",
      },
      // Explicit, so the review shows what happens when the version leaves standard support.
      upgradePolicy: { supportType: settings.upgradePolicy === "extended" ? "EXTENDED" : "STANDARD" },
      // The role must hold its policy before EKS assumes it, and the log group must exist before EKS writes.
      dependsOn: [...props.clusterRole.attachments, logGroup],
      lifecycle: { ignoreChanges: ["access_config[0].bootstrap_cluster_creator_admin_permissions"] },
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

/**
 * What a key administrator may do: AWS's key administrator set, everything but using the key, with its
 * wildcards named. `kms:Create*` would include kms:CreateGrant, with which an administrator (by default, any
 * principal of the account whose IAM policy allows it) could grant itself Decrypt; grants are allowed below
 * only to AWS services acting for a resource. CreateKey and CreateCustomKeyStore do not apply to a key policy.
 */
const KEY_ADMINISTRATION = [
  "kms:CreateAlias",
  "kms:Describe*",
  "kms:Enable*",
  "kms:List*",
  "kms:Put*",
  "kms:Update*",
  "kms:Revoke*",
  "kms:Disable*",
  "kms:Get*",
  "kms:Delete*",
  "kms:TagResource",
  "kms:UntagResource",
  "kms:ScheduleKeyDeletion",
  "kms:CancelKeyDeletion",
  "kms:RotateKeyOnDemand",
];

/**
 * The secrets key's own policy, naming who may do what: administrators (the account through IAM, or the
 * principals listed and the identity running Terraform) and one user, the cluster role, with what EKS's
 * envelope encryption needs. No one else may encrypt or decrypt with it.
 * @see https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html
 * @see https://docs.aws.amazon.com/eks/latest/userguide/enable-kms.html
 */
function secretsKeyPolicy(scope: Construct, aws: AwsContext, clusterRoleArn: string, administrators: readonly string[] | undefined): PolicyDocument {
  const admins = administrators === undefined ? [`arn:${aws.partition}:iam::${aws.accountId}:root`] : [aws.callerPrincipalArn, ...administrators];
  return new PolicyDocument(scope, "secrets-key-policy", [
    { sid: "KeyAdministration", effect: "Allow", actions: KEY_ADMINISTRATION, resources: ["*"], principals: [{ type: "AWS", identifiers: admins }] },
    {
      // EKS creates a grant for the cluster role with the creating identity's credentials when it creates (or
      // encrypts) the cluster; a grant for anything but an AWS resource is refused.
      sid: "GrantsForAwsResources",
      effect: "Allow",
      actions: ["kms:CreateGrant"],
      resources: ["*"],
      principals: [{ type: "AWS", identifiers: admins }],
      conditions: [{ test: "Bool", variable: "kms:GrantIsForAWSResource", values: ["true"] }],
    },
    {
      sid: "ClusterEncryption",
      effect: "Allow",
      actions: ["kms:Encrypt", "kms:Decrypt", "kms:ListGrants", "kms:DescribeKey"],
      resources: ["*"],
      principals: [{ type: "AWS", identifiers: [clusterRoleArn] }],
    },
  ]);
}
