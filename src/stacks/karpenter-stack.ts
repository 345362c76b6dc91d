import { DataAwsEksCluster } from "@cdktf/provider-aws/lib/data-aws-eks-cluster";
import { DataAwsIamRole } from "@cdktf/provider-aws/lib/data-aws-iam-role";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Fn, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { KubectlProvider } from "../../.gen/providers/kubectl/provider";
import { configureBackend } from "../backend/stack-backend";
import type { ClusterConfig } from "../config/cluster-schema";
import { FlowSchemas } from "../karpenter/kubernetes/flow-schemas";
import { KarpenterNamespace } from "../karpenter/kubernetes/karpenter-namespace";
import { KarpenterReleases } from "../karpenter/kubernetes/karpenter-releases";
import { ProvisionerManifests } from "../karpenter/kubernetes/provisioner-manifests";
import { clusterNodeClassContext, renderProvisioners } from "../provisioners/render-provisioners";
import { resourceNames } from "../shared/resource-names";
import { TERRAFORM_1_10 } from "../shared/terraform-version";
import { addOutputs } from "./stack-outputs";

export interface KarpenterStackProps {
  readonly config: ClusterConfig;
}

/** Terraform address of the ephemeral EKS token; providers read it, state never holds it. */
const CLUSTER_TOKEN = "${ephemeral.aws_eks_cluster_auth.cluster.token}";

const EXEC_API_VERSION = "client.authentication.k8s.io/v1beta1";

/**
 * The Kubernetes side of Karpenter: its namespace (kubernetes), CRDs and controller (Helm), the FlowSchemas,
 * and the NodePools and EC2NodeClasses (kubectl: custom resources whose CRDs come from the same apply). It finds the cluster by name, so it plans on its own once the cluster stack has
 * been applied; the app declares that order.
 */
export class KarpenterStack extends TerraformStack {
  constructor(scope: Construct, id: string, props: KarpenterStackProps) {
    super(scope, id);
    const { config } = props;
    const names = resourceNames(config.name);

    new AwsProvider(this, "aws", { region: config.region, defaultTags: [{ tags: { ...config.tags } }] });
    configureBackend(this, { stackName: id, clusterName: config.name, region: config.region, backend: config.backend });

    const cluster = new DataAwsEksCluster(this, "cluster", { name: names.cluster });
    const useToken = config.karpenter.kubernetesAuth === "token";
    if (useToken) {
      // Ephemeral (Terraform >= 1.10): the token configures the providers and is never written to state or
      // plan. The data source of the same name would persist a 15-minute cluster-admin token in state.
      this.addOverride("ephemeral.aws_eks_cluster_auth.cluster", { name: names.cluster });
      this.addOverride("terraform.required_version", TERRAFORM_1_10);
    }
    // No env in exec: cdktf lowercases provider map keys (AWS_PROFILE would become aws_profile); the AWS CLI
    // reads the runner's own environment anyway.
    const exec = { apiVersion: EXEC_API_VERSION, command: "aws", args: ["eks", "get-token", "--cluster-name", names.cluster, "--region", config.region] };
    const controllerRole = new DataAwsIamRole(this, "controller-role", { name: names.karpenterControllerRole });

    const host = cluster.endpoint;
    const clusterCaCertificate = Fn.base64decode(cluster.certificateAuthority.get(0).data);
    // Token auth by default: HCP Terraform's hosted runners have no AWS CLI for exec.
    new HelmProvider(this, "helm", { kubernetes: { host, clusterCaCertificate, ...(useToken ? { token: CLUSTER_TOKEN } : { exec }) } });
    new KubernetesProvider(this, "kubernetes", { host, clusterCaCertificate, ...(useToken ? { token: CLUSTER_TOKEN } : { exec: [exec] }) });
    new KubectlProvider(this, "kubectl", {
      host,
      clusterCaCertificate,
      ...(useToken ? { token: CLUSTER_TOKEN } : { exec: [exec] }),
      // Never fall back to the operator's ~/.kube/config.
      loadConfigFile: false,
      // The CRDs come from a release in the same apply; discovery may lag a few seconds behind.
      applyRetryCount: 3,
    });

    // kube-system exists already and is not this stack's to label.
    const ownsNamespace = config.karpenter.namespace !== "kube-system";
    const namespace = ownsNamespace
      ? new KarpenterNamespace(this, "karpenter-namespace", { name: config.karpenter.namespace, kubernetesVersion: config.kubernetesVersion }).namespace
      : undefined;
    const releases = new KarpenterReleases(this, "karpenter", {
      namespace,
      clusterName: config.name,
      region: config.region,
      settings: config.karpenter,
      clusterEndpoint: cluster.endpoint,
      controllerRoleArn: controllerRole.arn,
      interruptionQueueName: names.interruptionQueue,
    });

    if (ownsNamespace) {
      new FlowSchemas(this, "flow-schemas", { namespace: config.karpenter.namespace, controller: releases.controller });
    }

    const provisioners = renderProvisioners(config, clusterNodeClassContext(config));
    new ProvisionerManifests(this, "provisioners", { provisioners, controller: releases.controller });

    addOutputs(this, {
      karpenter_version: { value: config.karpenter.version, description: "The Karpenter release (both charts) this stack installs." },
      karpenter_namespace: { value: config.karpenter.namespace, description: "The namespace of the Karpenter controller." },
      node_class_names: { value: provisioners.nodeClasses.map((c) => c.object.metadata.name), description: "The EC2NodeClasses this stack applies." },
      node_pool_names: { value: provisioners.nodePools.map((p) => p.object.metadata.name), description: "The NodePools this stack applies." },
    });
  }
}
