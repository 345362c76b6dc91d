import type { PolicyStatement } from "./policy-statement";

export interface IrsaTrustProps {
  readonly sid: string;
  /** The cluster's IAM OIDC provider. */
  readonly oidcProviderArn: string;
  /** The issuer without "https://", as IAM prefixes the condition keys with it. */
  readonly issuerHost: string;
  readonly namespace: string;
  readonly serviceAccount: string;
}

/**
 * IRSA: only this service account, in this namespace, of this cluster may assume the role, and only with a
 * token meant for STS. Pods on Fargate have no EKS Pod Identity, so the controllers that run there use this.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/associate-service-account-role.html
 */
export function irsaTrust(props: IrsaTrustProps): PolicyStatement {
  return {
    sid: props.sid,
    effect: "Allow",
    actions: ["sts:AssumeRoleWithWebIdentity"],
    principals: [{ type: "Federated", identifiers: [props.oidcProviderArn] }],
    conditions: [
      { test: "StringEquals", variable: `${props.issuerHost}:sub`, values: [`system:serviceaccount:${props.namespace}:${props.serviceAccount}`] },
      { test: "StringEquals", variable: `${props.issuerHost}:aud`, values: ["sts.amazonaws.com"] },
    ],
  };
}
