import { Construct } from "constructs";
import { TerraformStack } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { configureBackend } from "../backend/stack-backend";
import { ClusterConfig } from "../config/schema";
import { resourceNames } from "../config/resource-names";
import { AccessEntries } from "../eks/access-entries";
import { ControlPlane } from "../eks/control-plane";
import { CoreAddons } from "../eks/core-addons";
import { FargateProfiles } from "../fargate/fargate-profiles";
import { awsContext } from "../iam/aws-context";
import { ClusterRoles } from "../iam/cluster-roles";
import { ClusterNetwork } from "../network/cluster-network";

export interface ClusterStackProps {
  readonly config: ClusterConfig;
}

/** The AWS side of the cluster (aws provider only): network, IAM, EKS, Fargate, CoreDNS, Karpenter's AWS resources. */
export class ClusterStack extends TerraformStack {
  readonly fargateProfiles: FargateProfiles;
  readonly controlPlane: ControlPlane;

  constructor(scope: Construct, id: string, props: ClusterStackProps) {
    super(scope, id);
    const { config } = props;
    const names = resourceNames(config.name);

    new AwsProvider(this, "aws", { region: config.region, defaultTags: [{ tags: { ...config.tags } }] });
    configureBackend(this, id, config.backend);
    const aws = awsContext(this, config.region);

    const network = new ClusterNetwork(this, "network", { clusterName: config.name, network: config.network });
    const roles = new ClusterRoles(this, "roles", { aws, names });
    this.controlPlane = new ControlPlane(this, "eks", { config, names, clusterRole: roles.cluster, privateSubnetIds: network.privateSubnetIds });
    const clusterName = this.controlPlane.cluster.name;

    new AccessEntries(this, "access", { aws, clusterName, nodeRoleArn: roles.karpenterNode.role.arn, adminPrincipalArns: config.cluster.adminPrincipalArns });
    new CoreAddons(this, "addons", { clusterName });

    const karpenterNamespace = config.karpenter.namespace;
    this.fargateProfiles = new FargateProfiles(this, "fargate", {
      clusterName,
      podExecutionRoleArn: roles.fargatePodExecution.role.arn,
      privateSubnetIds: network.privateSubnetIds,
      profiles: [
        { name: "kube-system", namespaces: ["kube-system"] },
        // In kube-system, Karpenter is covered by the profile above.
        ...(karpenterNamespace === "kube-system" ? [] : [{ name: "karpenter", namespaces: [karpenterNamespace] }]),
        ...config.fargate.profiles,
      ],
      dependsOn: roles.fargatePodExecution.attachments,
    });
  }
}
