import type { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { Construct } from "constructs";
import { type AddonVersion, COREDNS_RESOURCES } from "./addon-settings";
import { managedAddon } from "./managed-addon";

export interface CoreDnsAddonProps {
  /** The cluster's name and Kubernetes version, as references to the cluster resource. */
  readonly cluster: { readonly name: string; readonly version: string };
  readonly version: AddonVersion;
  /** The add-on must come after the profile, or its pods are created unschedulable and it goes DEGRADED. */
  readonly kubeSystemProfile: EksFargateProfile;
}

/**
 * The managed coredns add-on, told to render its pods for Fargate (`computeType: fargate`, lowercase as the
 * node taint is). No Lambda, no patch; its version follows the cluster's Kubernetes version.
 */
export class CoreDnsAddon extends Construct {
  readonly addon: EksAddon;

  constructor(scope: Construct, id: string, props: CoreDnsAddonProps) {
    super(scope, id);
    this.addon = managedAddon(this, {
      addonName: "coredns",
      version: props.version,
      cluster: props.cluster,
      configurationValues: JSON.stringify({ computeType: "fargate", resources: COREDNS_RESOURCES }),
      dependsOn: [props.kubeSystemProfile],
    });
  }
}
