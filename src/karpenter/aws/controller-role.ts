import { IamPolicy } from "@cdktf/provider-aws/lib/iam-policy";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { Construct } from "constructs";
import { irsaTrust } from "../../iam/irsa-trust";
import { PolicyDocument } from "../../iam/policy-document";
import type { ResourceNames } from "../../shared/resource-names";
import { SERVICE_ACCOUNT } from "../karpenter-release";
import { type ControllerPolicyScope, controllerPolicyName, karpenterControllerPolicies } from "./controller-policy-statements";

export interface ControllerRoleProps {
  readonly names: ResourceNames;
  readonly namespace: string;
  readonly oidcProviderArn: string;
  /** The OIDC issuer without "https://". */
  readonly oidcIssuerHost: string;
  readonly policyScope: ControllerPolicyScope;
}

/**
 * The Karpenter controller's role, assumed through IRSA: the controller runs on Fargate, where EKS Pod
 * Identity does not work. Only the chart's service account in the configured namespace may assume it.
 */
export class ControllerRole extends Construct {
  readonly role: IamRole;

  constructor(scope: Construct, id: string, props: ControllerRoleProps) {
    super(scope, id);
    const trust = new PolicyDocument(this, "trust", [
      irsaTrust({
        sid: "KarpenterServiceAccountWebIdentity",
        oidcProviderArn: props.oidcProviderArn,
        issuerHost: props.oidcIssuerHost,
        namespace: props.namespace,
        serviceAccount: SERVICE_ACCOUNT,
      }),
    ]);
    this.role = new IamRole(this, "role", {
      name: props.names.karpenterControllerRole,
      description: `Karpenter controller of ${props.names.cluster} (IRSA)`,
      assumeRolePolicy: trust.json,
    });
    for (const policy of karpenterControllerPolicies(props.policyScope)) {
      const document = new PolicyDocument(this, `${policy.name}-document`, policy.statements);
      const managed = new IamPolicy(this, policy.name, {
        name: controllerPolicyName(props.names.karpenterControllerPolicyPrefix, policy.name),
        description: `Karpenter controller ${policy.name} permissions for ${props.names.cluster}`,
        policy: document.json,
      });
      new IamRolePolicyAttachment(this, `${policy.name}-attachment`, { role: this.role.name, policyArn: managed.arn });
    }
  }
}
