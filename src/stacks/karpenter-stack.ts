import { DataAwsEksCluster } from "@cdktf/provider-aws/lib/data-aws-eks-cluster";
import { DataAwsIamRole } from "@cdktf/provider-aws/lib/data-aws-iam-role";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { Fn } from "cdktf";
import type { Construct } from "constructs";
import { configureBackend } from "../backend/stack-backend";
import type { ClusterConfig } from "../config/cluster-schema";
import { FlowSchemas } from "../karpenter/kubernetes/flow-schemas";
import { KarpenterNamespace } from "../karpenter/kubernetes/karpenter-namespace";
import { KarpenterReleases } from "../karpenter/kubernetes/karpenter-releases";
import { ProvisionerManifests } from "../karpenter/kubernetes/provisioner-manifests";
import { configureKubernetesProviders } from "../kubernetes/kubernetes-providers";
import { addKarpenterOutputs } from "../outputs/karpenter-outputs";
import { clusterNodeClassContext, renderProvisioners } from "../provisioners/render-provisioners";
import { resourceNames } from "../shared/resource-names";
import { LiteralTextStack } from "./literal-text-stack";

export interface KarpenterStackProps {
  readonly config: ClusterConfig;
}

/**
 * The Kubernetes side of Karpenter: its namespace (kubernetes), CRDs and controller (Helm), the FlowSchemas,
 * and the NodePools and EC2NodeClasses (kubectl: custom resources whose CRDs come from the same apply). It finds the cluster by name, so it plans on its own once the cluster stack has
 * been applied; the app declares that order.
 */
export class KarpenterStack extends LiteralTextStack {
  constructor(scope: Construct, id: string, props: KarpenterStackProps) {
    super(scope, id);
    const { config } = props;
    const names = resourceNames(config.name);

    new AwsProvider(this, "aws", { region: config.region, defaultTags: [{ tags: { ...config.tags } }] });
    configureBackend(this, { stackName: id, clusterName: config.name, region: config.region, backend: config.backend });

    const cluster = new DataAwsEksCluster(this, "cluster", { name: names.cluster });
    configureKubernetesProviders(this, {
      clusterName: names.cluster,
      region: config.region,
      auth: config.karpenter.kubernetesAuth,
      host: cluster.endpoint,
      clusterCaCertificate: Fn.base64decode(cluster.certificateAuthority.get(0).data),
    });
    const controllerRole = new DataAwsIamRole(this, "controller-role", { name: names.karpenterControllerRole });

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

    addKarpenterOutputs(this, { karpenterVersion: config.karpenter.version, namespace: config.karpenter.namespace, provisioners });
  }
}
