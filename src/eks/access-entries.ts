import { EksAccessEntry } from "@cdktf/provider-aws/lib/eks-access-entry";
import { EksAccessPolicyAssociation } from "@cdktf/provider-aws/lib/eks-access-policy-association";
import { Construct } from "constructs";
import { accessPolicyArn } from "../iam/arns";
import type { AwsContext } from "../iam/aws-context";

export interface AccessEntriesProps {
  readonly aws: AwsContext;
  readonly clusterName: string;
  /** The role Karpenter's nodes join with: an EC2_LINUX entry (STANDARD would not let kubelet register). */
  readonly nodeRoleArn: string;
  /**
   * The role of Windows nodes, if any: EC2_WINDOWS, which also grants the eks:kube-proxy-windows group that
   * Windows DNS resolution needs. A role has one access entry, hence a second role.
   */
  readonly windowsNodeRoleArn?: string;
  readonly adminPrincipalArns: readonly string[];
}

/** Who may reach the Kubernetes API: Karpenter's nodes, and the configured administrators. */
export class AccessEntries extends Construct {
  readonly nodeEntry: EksAccessEntry;
  readonly adminAssociations: readonly EksAccessPolicyAssociation[];

  constructor(scope: Construct, id: string, props: AccessEntriesProps) {
    super(scope, id);
    this.nodeEntry = new EksAccessEntry(this, "karpenter-node", { clusterName: props.clusterName, principalArn: props.nodeRoleArn, type: "EC2_LINUX" });
    if (props.windowsNodeRoleArn !== undefined) {
      new EksAccessEntry(this, "karpenter-windows-node", { clusterName: props.clusterName, principalArn: props.windowsNodeRoleArn, type: "EC2_WINDOWS" });
    }
    this.adminAssociations = props.adminPrincipalArns.map((principalArn, i) => {
      const entry = new EksAccessEntry(this, `admin-${i}`, { clusterName: props.clusterName, principalArn, type: "STANDARD" });
      return new EksAccessPolicyAssociation(this, `admin-${i}-policy`, {
        clusterName: props.clusterName,
        principalArn: entry.principalArn,
        policyArn: accessPolicyArn(props.aws.partition, "AmazonEKSClusterAdminPolicy"),
        accessScope: { type: "cluster" },
      });
    });
  }
}
