import type { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { Construct } from "constructs";
import type { AddonVersion } from "./addon-settings";
import { managedAddon } from "./managed-addon";

export interface CoreDnsAddonProps {
  /** The cluster's name and Kubernetes version, as references to the cluster resource. */
  readonly cluster: { readonly name: string; readonly version: string };
  readonly version: AddonVersion;
  /** The add-on must come after the profile, or its pods are created unschedulable and it goes DEGRADED. */
  readonly kubeSystemProfile: EksFargateProfile;
}

/**
 * Fargate sizes each pod from its requests (plus 256 MB for its own agents), so 0.25 vCPU / 256M lands on
 * the smallest size, 0.25 vCPU / 0.5 GB. No CPU limit: throttled DNS shows up as timeouts everywhere.
 */
export const COREDNS_RESOURCES = { requests: { cpu: "0.25", memory: "256M" }, limits: { memory: "256M" } } as const;

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
