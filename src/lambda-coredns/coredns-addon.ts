import { Construct } from "constructs";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";

export interface CoreDnsAddonProps {
  readonly clusterName: string;
  /** The add-on must come after the profile, or its pods are created unschedulable and it goes DEGRADED. */
  readonly kubeSystemProfile: EksFargateProfile;
}

/** Fargate sizes each pod from its requests: 0.25 vCPU / 0.5 GB is the smallest size. */
const COREDNS_RESOURCES = { cpu: "0.25", memory: "256M" };

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
      configurationValues: JSON.stringify({ computeType: "fargate", resources: { requests: COREDNS_RESOURCES, limits: COREDNS_RESOURCES } }),
      // EKS installs a self-managed CoreDNS at cluster creation; the add-on takes it over.
      resolveConflictsOnCreate: "OVERWRITE",
      resolveConflictsOnUpdate: "OVERWRITE",
      dependsOn: [props.kubeSystemProfile],
    });
  }
}
