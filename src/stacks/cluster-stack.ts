import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import type { Construct } from "constructs";
import { configureBackend } from "../backend/stack-backend";
import type { ClusterConfig } from "../config/cluster-schema";
import { AccessEntries } from "../eks/access-entries";
import { vpcCniEnvEnabled } from "../eks/addon-configuration";
import { ControlPlane } from "../eks/control-plane";
import { CoreAddons } from "../eks/core-addons";
import { CoreDnsAddon } from "../eks/coredns-addon";
import { systemFargateProfiles } from "../fargate/fargate-config";
import { FargateProfiles } from "../fargate/fargate-profiles";
import { awsContext } from "../iam/aws-context";
import { ClusterRoles } from "../iam/cluster-roles";
import { KarpenterAws } from "../karpenter/aws/karpenter-aws";
import { CoreDnsFixLambda } from "../lambda-coredns/coredns-fix-lambda";
import { ClusterNetwork } from "../network/cluster-network";
import { VpcFlowLogs } from "../network/flow-logs";
import { addClusterOutputs } from "../outputs/cluster-outputs";
import { isWindowsNodeClass } from "../provisioners/ami-selection";
import { resourceNames } from "../shared/resource-names";
import { LiteralTextStack } from "./literal-text-stack";

export interface ClusterStackProps {
  readonly config: ClusterConfig;
}

/** The AWS side of the cluster (aws provider only): network, IAM, EKS, Fargate, CoreDNS, Karpenter's AWS resources. */
export class ClusterStack extends LiteralTextStack {
  readonly fargateProfiles: FargateProfiles;
  readonly controlPlane: ControlPlane;

  constructor(scope: Construct, id: string, props: ClusterStackProps) {
    super(scope, id);
    const { config } = props;
    const names = resourceNames(config.name);
    const windowsNodes = config.nodeClasses.some(isWindowsNodeClass);

    new AwsProvider(this, "aws", { region: config.region, defaultTags: [{ tags: { ...config.tags } }] });
    configureBackend(this, { stackName: id, clusterName: config.name, region: config.region, backend: config.backend });
    const aws = awsContext(this, config.region);

    const network = new ClusterNetwork(this, "network", { clusterName: config.name, network: config.network });
    if (config.network.kind === "new" && config.network.flowLogs !== undefined) {
      new VpcFlowLogs(this, "flow-logs", { aws, names, vpcId: network.vpcId, ...config.network.flowLogs });
    }
    const podSecurityGroups = vpcCniEnvEnabled(config.addons["vpc-cni"].configurationValues, "ENABLE_POD_ENI");
    const roles = new ClusterRoles(this, "roles", {
      aws,
      names,
      windowsNodes,
      vpcResourceController: windowsNodes || podSecurityGroups,
      nodeSsm: config.karpenter.nodeSsm,
    });
    this.controlPlane = new ControlPlane(this, "eks", {
      aws,
      kubernetesVersion: config.kubernetesVersion,
      settings: config.cluster,
      names,
      clusterRole: roles.cluster,
      privateSubnetIds: network.privateSubnetIds,
    });
    const { cluster } = this.controlPlane;
    const nodeRoles = [roles.karpenterNode, ...(roles.karpenterWindowsNode ? [roles.karpenterWindowsNode] : [])];

    const access = new AccessEntries(this, "access", {
      aws,
      clusterName: cluster.name,
      nodeRoleArn: roles.karpenterNode.role.arn,
      windowsNodeRoleArn: roles.karpenterWindowsNode?.role.arn,
      adminPrincipalArns: config.cluster.adminPrincipalArns,
      grants: config.access,
      creator: config.cluster.creatorAdmin === "bootstrap" ? "bootstrap" : config.cluster.creatorAdmin ? "managed" : "none",
      clusterBootstrapsCreator: cluster.accessConfig.bootstrapClusterCreatorAdminPermissions,
    });

    this.fargateProfiles = new FargateProfiles(this, "fargate", {
      clusterName: cluster.name,
      podExecutionRoleArn: roles.fargatePodExecution.role.arn,
      privateSubnetIds: network.privateSubnetIds,
      system: systemFargateProfiles(config.karpenter.namespace),
      extra: config.fargate.profiles,
      dependsOn: roles.fargatePodExecution.attachments,
    });
    // CoreDNS, and every add-on with a Deployment, waits for the kube-system profile: pods created before it
    // would stay Pending.
    const kubeSystemProfile = this.fargateProfiles.kubeSystem;

    new CoreAddons(this, "addons", {
      aws,
      names,
      cluster,
      settings: config.addons,
      oidc: { providerArn: this.controlPlane.oidcProvider.arn, issuerHost: this.controlPlane.oidcIssuerHost },
      kubeSystemProfile,
      windowsNodes,
    });

    if (config.coreDns.mode === "lambda") {
      new CoreDnsFixLambda(this, "coredns", {
        aws,
        names,
        cluster,
        clusterSecurityGroupId: this.controlPlane.clusterSecurityGroupId,
        vpcId: network.vpcId,
        privateSubnetIds: network.privateSubnetIds,
        kubeSystemProfile,
        privateEndpoint: config.cluster.endpointPrivateAccess,
        logRetentionDays: config.cluster.logRetentionDays,
      });
    } else {
      new CoreDnsAddon(this, "coredns", { cluster, settings: config.coreDns, kubeSystemProfile });
    }

    const karpenter = new KarpenterAws(this, "karpenter", {
      settings: config.karpenter,
      names,
      aws,
      nodeRoleArns: nodeRoles.map((r) => r.role.arn),
      oidcProviderArn: this.controlPlane.oidcProvider.arn,
      oidcIssuerHost: this.controlPlane.oidcIssuerHost,
    });

    addClusterOutputs(this, {
      clusterName: config.name,
      region: config.region,
      controlPlane: this.controlPlane,
      network,
      nodeRole: roles.karpenterNode,
      karpenter,
      access,
    });
  }
}
