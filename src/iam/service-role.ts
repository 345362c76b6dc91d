import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { Construct } from "constructs";
import { PolicyDocument } from "./policy-document";
import type { PolicyStatement } from "./policy-statement";

export interface ServiceRoleProps {
  readonly roleName: string;
  readonly description: string;
  /** Who may assume the role. */
  readonly trust: readonly PolicyStatement[];
  /** Managed policy ARNs, attached one by one. */
  readonly managedPolicyArns: readonly string[];
}

/**
 * An IAM role with its trust policy and managed policies. Attachments use aws_iam_role_policy_attachment:
 * the exclusive aws_iam_policy_attachment of the original detaches the policy from every other role.
 */
export class ServiceRole extends Construct {
  readonly role: IamRole;
  readonly attachments: readonly IamRolePolicyAttachment[];

  constructor(scope: Construct, id: string, props: ServiceRoleProps) {
    super(scope, id);
    const trust = new PolicyDocument(this, "trust", props.trust);
    this.role = new IamRole(this, "role", { name: props.roleName, description: props.description, assumeRolePolicy: trust.json });
    this.attachments = props.managedPolicyArns.map(
      (policyArn) => new IamRolePolicyAttachment(this, `attach-${policyArn.split("/").pop()}`, { role: this.role.name, policyArn }),
    );
  }
}
