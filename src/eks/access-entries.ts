import { EksAccessEntry } from "@cdktf/provider-aws/lib/eks-access-entry";
import { EksAccessPolicyAssociation } from "@cdktf/provider-aws/lib/eks-access-policy-association";
import { type IResolvable, Op, type TerraformResourceLifecycle } from "cdktf";
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
  /**
   * The creating identity's cluster-admin: an entry managed here, EKS's implicit one
   * (bootstrapClusterCreatorAdminPermissions), or none.
   */
  readonly creator: "managed" | "bootstrap" | "none";
  /** The cluster's bootstrap flag as EKS reports it: a managed creator entry on a cluster EKS gave one would collide. */
  readonly clusterBootstrapsCreator: boolean | IResolvable;
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

    // The creator's cluster-admin: recorded once, for whoever runs the first apply. Its principal comes from
    // the caller's session, so without ignore_changes an apply by another role would move cluster-admin to that
    // role and take it from the creator. Moving it is a deliberate act: docs/security.md, Team access.
    const creator =
      props.creator === "managed"
        ? new EksAccessEntry(this, "creator", {
            clusterName: props.clusterName,
            // A role, not its session (access entries refuse sessions).
            principalArn: props.aws.callerPrincipalArn,
            type: "STANDARD",
            lifecycle: {
              ignoreChanges: ["principal_arn"],
              precondition: [
                {
                  condition: Op.not(props.clusterBootstrapsCreator),
                  errorMessage:
                    "cluster.creatorAdmin: this cluster was created with EKS's implicit creator entry (bootstrap_cluster_creator_admin_permissions), which a managed entry would collide with; set cluster.creatorAdmin: bootstrap to keep it",
                },
              ],
            },
          })
        : undefined;
    if (creator !== undefined) {
      new EksAccessPolicyAssociation(this, "creator-policy", {
        clusterName: props.clusterName,
        principalArn: creator.principalArn,
        policyArn: accessPolicyArn(props.aws.partition, "AmazonEKSClusterAdminPolicy"),
        accessScope: { type: "cluster" },
      });
    }

    // EKS allows one entry per principal, and the creator already has one (this project's, recorded at the first
    // apply, or EKS's implicit one for the identity that created the cluster): an entry for it here would fail
    // half way through the apply, so the plan refuses it first.
    const notTheCreator = (principalArn: string, field: string): TerraformResourceLifecycle | undefined => {
      if (props.creator === "none") return undefined;
      // Read only here: the caller's session is a data source, created when first asked for.
      const creatorArn = creator?.principalArn ?? props.aws.callerPrincipalArn;
      return {
        precondition: [
          {
            condition: Op.neq(creatorArn, principalArn),
            errorMessage: `${field}: ${principalArn} is the cluster's creator, which already has an access entry (cluster.creatorAdmin); remove it from ${field}, or set creatorAdmin: false`,
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
