import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { Construct } from "constructs";

export interface CoreDnsAddonProps {
  readonly clusterName: string;
  /** The add-on must come after the profile, or its pods are created unschedulable and it goes DEGRADED. */
  readonly kubeSystemProfile: EksFargateProfile;
}

/**
 * Fargate sizes each pod from its requests (plus 256 MB for its own agents), so 0.25 vCPU / 256M lands on
 * the smallest size, 0.25 vCPU / 0.5 GB. No CPU limit: throttled DNS shows up as timeouts everywhere.
 */
const COREDNS_RESOURCES = { requests: { cpu: "0.25", memory: "256M" }, limits: { memory: "256M" } };

/**
 * The managed coredns add-on, told to render its pods for Fargate (`computeType: fargate`, lowercase as the
 * node taint is). No Lambda, no patch; EKS keeps it updated.
 */
export class CoreDnsAddon extends Construct {
  readonly addon: EksAddon;

  constructor(scope: Construct, id: string, props: CoreDnsAddonProps) {
    super(scope, id);
    this.addon = new EksAddon(this, "coredns", {
      clusterName: props.clusterName,
      addonName: "coredns",
      configurationValues: JSON.stringify({ computeType: "fargate", resources: COREDNS_RESOURCES }),
      // EKS installs a self-managed CoreDNS at cluster creation; the add-on takes it over.
      resolveConflictsOnCreate: "OVERWRITE",
      resolveConflictsOnUpdate: "OVERWRITE",
      dependsOn: [props.kubeSystemProfile],
    });
  }
}
