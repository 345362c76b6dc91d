import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { type TerraformStack, Token } from "cdktf";
import { ref } from "cdktf/lib/tfExpression";
import { KubectlProvider } from "../../.gen/providers/kubectl/provider";
import { TERRAFORM_1_10 } from "../shared/terraform-version";

export interface KubernetesProvidersProps {
  readonly clusterName: string;
  readonly region: string;
  /** token: the ephemeral aws_eks_cluster_auth; exec: `aws eks get-token` per request. */
  readonly auth: "token" | "exec";
  /** The API server's URL. */
  readonly host: string;
  /** The cluster's CA certificate, PEM. */
  readonly clusterCaCertificate: string;
}

/**
 * The ephemeral EKS token; providers read it, state never holds it. A reference, not the text "${...}": the
 * stacks escape every literal `${` (literal-text-stack.ts), and cdktf 0.21 knows no ephemeral resources.
 */
const CLUSTER_TOKEN = Token.asString(ref("ephemeral.aws_eks_cluster_auth.cluster.token"));

const EXEC_API_VERSION = "client.authentication.k8s.io/v1beta1";

/**
 * The helm, kubernetes and kubectl providers, all three authenticated the same way against the same cluster.
 * Token auth by default: HCP Terraform's hosted runners have no AWS CLI for exec.
 */
export function configureKubernetesProviders(stack: TerraformStack, props: KubernetesProvidersProps): void {
  const { host, clusterCaCertificate } = props;
  if (props.auth === "token") {
    // Ephemeral (Terraform >= 1.10): the token configures the providers and is never written to state or
    // plan. The data source of the same name would persist a 15-minute cluster-admin token in state.
    stack.addOverride("ephemeral.aws_eks_cluster_auth.cluster", { name: props.clusterName });
    stack.addOverride("terraform.required_version", TERRAFORM_1_10);
  }
  // No env in exec: cdktf lowercases provider map keys (AWS_PROFILE would become aws_profile); the AWS CLI
  // reads the runner's own environment anyway.
  const exec = { apiVersion: EXEC_API_VERSION, command: "aws", args: ["eks", "get-token", "--cluster-name", props.clusterName, "--region", props.region] };
  // Helm's provider takes exec as an object, the other two as a one-item list.
  const credentials = props.auth === "token" ? { token: CLUSTER_TOKEN } : undefined;
  new HelmProvider(stack, "helm", { kubernetes: { host, clusterCaCertificate, ...(credentials ?? { exec }) } });
  new KubernetesProvider(stack, "kubernetes", { host, clusterCaCertificate, ...(credentials ?? { exec: [exec] }) });
  new KubectlProvider(stack, "kubectl", {
    host,
    clusterCaCertificate,
    ...(credentials ?? { exec: [exec] }),
    // Never fall back to the operator's ~/.kube/config.
    loadConfigFile: false,
    // The CRDs come from a release in the same apply; discovery may lag a few seconds behind.
    applyRetryCount: 3,
  });
}
