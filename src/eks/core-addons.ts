import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { Construct } from "constructs";
import { managedPolicyArn } from "../iam/arns";
import type { AwsContext } from "../iam/aws-context";
import { irsaTrust } from "../iam/irsa-trust";
import { ServiceRole } from "../iam/service-role";
import type { ResourceNames } from "../shared/resource-names";
import { configurationJson, projectAddonValues } from "./addon-configuration";
import type { AddonSettings, AddonsSettings } from "./addon-settings";
import { managedAddon } from "./managed-addon";

export interface CoreAddonsProps {
  readonly aws: AwsContext;
  readonly names: ResourceNames;
  /** The cluster's name and Kubernetes version, as references to the cluster resource. */
  readonly cluster: { readonly name: string; readonly version: string };
  readonly settings: AddonsSettings;
  /** For the add-ons whose controllers run on Fargate and call AWS with IRSA. */
  readonly oidc: { readonly providerArn: string; readonly issuerHost: string };
  /** Add-ons with a Deployment run it on Fargate: their pods must be created after the kube-system profile. */
  readonly kubeSystemProfile: EksFargateProfile;
  /** Windows nodes need IPAM from the VPC resource controller, switched on through the vpc-cni add-on (addon-configuration.ts). */
  readonly windowsNodes: boolean;
}

/** The EBS CSI controller's service account, as the add-on creates it. */
const EBS_CSI_SERVICE_ACCOUNT = { namespace: "kube-system", name: "ebs-csi-controller-sa" };

/**
 * The managed add-ons beside CoreDNS: vpc-cni and kube-proxy always (DaemonSets, which run once Karpenter has
 * launched nodes), and the optional ones the config lists.
 */
export class CoreAddons extends Construct {
  constructor(scope: Construct, id: string, props: CoreAddonsProps) {
    super(scope, id);
    const { settings, cluster } = props;
    const oidc = { oidcProviderArn: props.oidc.providerArn, issuerHost: props.oidc.issuerHost };
    /** What an add-on of the config gets: its version, configuration (over the project's) and resolve modes. */
    const fromConfig = (addonName: keyof AddonsSettings, addon: AddonSettings) => ({
      addonName,
      version: addon.version,
      cluster,
      configurationValues: configurationJson(addon.configurationValues, projectAddonValues(addonName, { windowsNodes: props.windowsNodes })),
      resolveConflicts: { onCreate: addon.resolveConflictsOnCreate, onUpdate: addon.resolveConflictsOnUpdate },
    });
    // aws-node calls EC2 for network interfaces and addresses: with a role of its own (IRSA), the nodes' role,
    // which every pod on a node can reach through IMDS, needs none of that.
    // @see https://docs.aws.amazon.com/eks/latest/userguide/cni-iam-role.html
    const vpcCniRole = new ServiceRole(this, "vpc-cni-role", {
      roleName: props.names.vpcCniRole,
      description: `aws-node (vpc-cni) of ${props.names.cluster} (IRSA)`,
      trust: [irsaTrust({ sid: "AwsNodeWebIdentity", ...oidc, namespace: "kube-system", serviceAccount: "aws-node" })],
      managedPolicyArns: [managedPolicyArn(props.aws.partition, "AmazonEKS_CNI_Policy")],
    });
    managedAddon(this, { ...fromConfig("vpc-cni", settings["vpc-cni"]), serviceAccountRoleArn: vpcCniRole.role.arn, dependsOn: vpcCniRole.attachments });
    managedAddon(this, fromConfig("kube-proxy", settings["kube-proxy"]));

    const podIdentityAgent = settings["eks-pod-identity-agent"];
    if (podIdentityAgent !== undefined) managedAddon(this, fromConfig("eks-pod-identity-agent", podIdentityAgent));

    const ebsCsiDriver = settings["aws-ebs-csi-driver"];
    if (ebsCsiDriver !== undefined) {
      const role = new ServiceRole(this, "ebs-csi-driver-role", {
        roleName: props.names.ebsCsiDriverRole,
        description: `EBS CSI driver controller of ${props.names.cluster} (IRSA)`,
        trust: [
          irsaTrust({
            sid: "EbsCsiControllerWebIdentity",
            ...oidc,
            namespace: EBS_CSI_SERVICE_ACCOUNT.namespace,
            serviceAccount: EBS_CSI_SERVICE_ACCOUNT.name,
          }),
        ],
        managedPolicyArns: [managedPolicyArn(props.aws.partition, "service-role/AmazonEBSCSIDriverPolicy")],
      });
      managedAddon(this, {
        ...fromConfig("aws-ebs-csi-driver", ebsCsiDriver),
        serviceAccountRoleArn: role.role.arn,
        dependsOn: [props.kubeSystemProfile, ...role.attachments],
      });
    }

    const metricsServer = settings["metrics-server"];
    if (metricsServer !== undefined) {
      managedAddon(this, { ...fromConfig("metrics-server", metricsServer), dependsOn: [props.kubeSystemProfile] });
    }
  }
}
