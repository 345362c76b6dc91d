import { DataAwsIamSessionContext } from "@cdktf/provider-aws/lib/data-aws-iam-session-context";
import { EksAccessEntry } from "@cdktf/provider-aws/lib/eks-access-entry";
import { EksAccessPolicyAssociation } from "@cdktf/provider-aws/lib/eks-access-policy-association";
import { Op, type TerraformResourceLifecycle } from "cdktf";
import { Construct } from "constructs";
import { accessPolicyArn } from "../iam/arns";
import type { AwsContext } from "../iam/aws-context";
import { ACCESS_POLICIES, type AccessGrant } from "./access-settings";

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
  /** The config's `access`: teams' roles and users with their policies. */
  readonly grants: readonly AccessGrant[];
  /** Whether EKS gives the creating identity an entry of its own (bootstrapClusterCreatorAdminPermissions). */
  readonly creatorHasEntry: boolean;
}

/** "team-a" from "arn:aws:iam::123456789012:role/teams/team-a": an id that stays when the list is reordered. */
function grantId(principalArn: string): string {
  return `access-${principalArn.split(":")[4]}-${principalArn
    .split(":")
    .slice(5)
    .join(":")
    .replace(/[^A-Za-z0-9-]+/g, "-")}`;
}

/** One access scope: the namespaces, or the whole cluster. */
const scopeOf = (grant: AccessGrant) => (grant.namespaces === undefined ? { type: "cluster" } : { type: "namespace", namespaces: [...grant.namespaces] });

/** Who may reach the Kubernetes API: Karpenter's nodes, the configured administrators and teams. */
export class AccessEntries extends Construct {
  readonly nodeEntry: EksAccessEntry;
  readonly adminAssociations: readonly EksAccessPolicyAssociation[];
  /** Each team grant's association, in the config's order. */
  readonly grantAssociations: readonly { readonly grant: AccessGrant; readonly policyArn: string; readonly association: EksAccessPolicyAssociation }[];

  constructor(scope: Construct, id: string, props: AccessEntriesProps) {
    super(scope, id);
    this.nodeEntry = new EksAccessEntry(this, "karpenter-node", { clusterName: props.clusterName, principalArn: props.nodeRoleArn, type: "EC2_LINUX" });
    if (props.windowsNodeRoleArn !== undefined) {
      new EksAccessEntry(this, "karpenter-windows-node", { clusterName: props.clusterName, principalArn: props.windowsNodeRoleArn, type: "EC2_WINDOWS" });
    }

    // EKS allows one entry per principal, and the creating identity already has one: an entry for it here
    // would fail half way through the apply, so the plan refuses it first.
    let caller: DataAwsIamSessionContext | undefined;
    const notTheCreator = (principalArn: string, field: string): TerraformResourceLifecycle | undefined => {
      if (!props.creatorHasEntry) return undefined;
      caller ??= new DataAwsIamSessionContext(this, "caller", { arn: props.aws.callerArn });
      return {
        precondition: [
          {
            condition: Op.neq(caller.issuerArn, principalArn),
            errorMessage: `${field}: ${principalArn} is the identity creating the cluster, which EKS already gives an access entry (cluster.creatorAdmin); remove it from ${field}, or set creatorAdmin: false`,
          },
        ],
      };
    };

    this.adminAssociations = props.adminPrincipalArns.map((principalArn, i) => {
      const entry = new EksAccessEntry(this, `admin-${i}`, {
        clusterName: props.clusterName,
        principalArn,
        type: "STANDARD",
        lifecycle: notTheCreator(principalArn, "cluster.adminPrincipalArns"),
      });
      return new EksAccessPolicyAssociation(this, `admin-${i}-policy`, {
        clusterName: props.clusterName,
        principalArn: entry.principalArn,
        policyArn: accessPolicyArn(props.aws.partition, "AmazonEKSClusterAdminPolicy"),
        accessScope: { type: "cluster" },
      });
    });

    const entries = new Map<string, EksAccessEntry>();
    this.grantAssociations = props.grants.map((grant) => {
      let entry = entries.get(grant.principalArn);
      if (entry === undefined) {
        entry = new EksAccessEntry(this, grantId(grant.principalArn), {
          clusterName: props.clusterName,
          principalArn: grant.principalArn,
          type: "STANDARD",
          lifecycle: notTheCreator(grant.principalArn, "access"),
        });
        entries.set(grant.principalArn, entry);
      }
      const policyArn = accessPolicyArn(props.aws.partition, ACCESS_POLICIES[grant.policy]);
      const association = new EksAccessPolicyAssociation(this, `${grantId(grant.principalArn)}-${grant.policy}`, {
        clusterName: props.clusterName,
        principalArn: entry.principalArn,
        policyArn,
        accessScope: scopeOf(grant),
      });
      return { grant, policyArn, association };
    });
  }
}
