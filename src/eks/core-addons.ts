import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { Construct } from "constructs";
import { managedPolicyArn } from "../iam/arns";
import type { AwsContext } from "../iam/aws-context";
import { irsaTrust } from "../iam/irsa-trust";
import { ServiceRole } from "../iam/service-role";
import type { ResourceNames } from "../shared/resource-names";
import type { AddonsSettings } from "./addon-settings";
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
  /** Windows nodes need IPAM from the VPC resource controller, switched on through the vpc-cni add-on. */
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
    managedAddon(this, {
      addonName: "vpc-cni",
      version: settings["vpc-cni"].version,
      cluster,
      // The add-on owns the amazon-vpc-cni ConfigMap where the VPC resource controller reads this switch:
      // written there by hand it would be overwritten at the add-on's next update.
      // (aws/containers-roadmap#2341; an update then stops on a ConfigurationConflict: amazon-vpc-cni-k8s#2877.)
      // The key is the add-on schema's, a string as cdk-eks-blueprints passes it (cdk-eks-blueprints#935).
      // @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html
      configurationValues: props.windowsNodes ? JSON.stringify({ enableWindowsIpam: "true" }) : undefined,
    });
    managedAddon(this, { addonName: "kube-proxy", version: settings["kube-proxy"].version, cluster });

    const podIdentityAgent = settings["eks-pod-identity-agent"];
    if (podIdentityAgent !== undefined) managedAddon(this, { addonName: "eks-pod-identity-agent", version: podIdentityAgent.version, cluster });

    const ebsCsiDriver = settings["aws-ebs-csi-driver"];
    if (ebsCsiDriver !== undefined) {
      const role = new ServiceRole(this, "ebs-csi-driver-role", {
        roleName: props.names.ebsCsiDriverRole,
        description: `EBS CSI driver controller of ${props.names.cluster} (IRSA)`,
        trust: [
          irsaTrust({
            sid: "EbsCsiControllerWebIdentity",
            oidcProviderArn: props.oidc.providerArn,
            issuerHost: props.oidc.issuerHost,
            namespace: EBS_CSI_SERVICE_ACCOUNT.namespace,
            serviceAccount: EBS_CSI_SERVICE_ACCOUNT.name,
          }),
        ],
        managedPolicyArns: [managedPolicyArn(props.aws.partition, "service-role/AmazonEBSCSIDriverPolicy")],
      });
      managedAddon(this, {
        addonName: "aws-ebs-csi-driver",
        version: ebsCsiDriver.version,
        cluster,
        serviceAccountRoleArn: role.role.arn,
        dependsOn: [props.kubeSystemProfile, ...role.attachments],
      });
    }

    const metricsServer = settings["metrics-server"];
    if (metricsServer !== undefined) {
      managedAddon(this, { addonName: "metrics-server", version: metricsServer.version, cluster, dependsOn: [props.kubeSystemProfile] });
    }
  }
}
