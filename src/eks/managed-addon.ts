import { DataAwsEksAddonVersion } from "@cdktf/provider-aws/lib/data-aws-eks-addon-version";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { ITerraformDependable } from "cdktf";
import type { Construct } from "constructs";
import type { AddonVersion } from "./addon-settings";

export interface ManagedAddonProps {
  readonly addonName: string;
  readonly version: AddonVersion;
  /** The cluster's name and Kubernetes version, as references to the cluster resource. */
  readonly cluster: { readonly name: string; readonly version: string };
  /** The configuration_values JSON (addon-configuration.ts). */
  readonly configurationValues?: string;
  readonly resolveConflicts: { readonly onCreate: string; readonly onUpdate: string };
  readonly serviceAccountRoleArn?: string;
  readonly dependsOn?: readonly ITerraformDependable[];
}

/**
 * An EKS managed add-on at a resolved version. Unless pinned, the version is EKS's answer for the cluster's
 * Kubernetes version, read from the cluster resource: on a Kubernetes upgrade Terraform updates the control
 * plane first, then reads the add-on's new version and updates the add-on. The add-on's id is its name, so
 * existing add-ons keep their Terraform address.
 */
export function managedAddon(scope: Construct, props: ManagedAddonProps): EksAddon {
  const { addonName, version } = props;
  const addonVersion =
    version === "default" || version === "latest"
      ? new DataAwsEksAddonVersion(scope, `${addonName}-version`, {
          addonName,
          kubernetesVersion: props.cluster.version,
          mostRecent: version === "latest",
        }).version
      : version;
  return new EksAddon(scope, addonName, {
    clusterName: props.cluster.name,
    addonName,
    addonVersion,
    configurationValues: props.configurationValues,
    serviceAccountRoleArn: props.serviceAccountRoleArn,
    // EKS installs self-managed copies of vpc-cni, kube-proxy and CoreDNS at cluster creation: by default
    // the managed add-on takes them over, and an update wins over fields edited by hand.
    resolveConflictsOnCreate: props.resolveConflicts.onCreate,
    resolveConflictsOnUpdate: props.resolveConflicts.onUpdate,
    dependsOn: props.dependsOn && [...props.dependsOn],
  });
}
