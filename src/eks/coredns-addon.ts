import type { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { EksFargateProfile } from "@cdktf/provider-aws/lib/eks-fargate-profile";
import { Construct } from "constructs";
import { configurationJson, projectAddonValues } from "./addon-configuration";
import { type CoreDnsSettings, DEFAULT_RESOLVE_CONFLICTS } from "./addon-settings";
import { managedAddon } from "./managed-addon";

export interface CoreDnsAddonProps {
  /** The cluster's name and Kubernetes version, as references to the cluster resource. */
  readonly cluster: { readonly name: string; readonly version: string };
  readonly settings: CoreDnsSettings;
  /** The add-on must come after the profile, or its pods are created unschedulable and it goes DEGRADED. */
  readonly kubeSystemProfile: EksFargateProfile;
}

/**
 * The managed coredns add-on, told to render its pods for Fargate (`computeType: fargate`, lowercase as the
 * node taint is), with the config's configuration over the project's. No Lambda, no patch; its version follows
 * the cluster's Kubernetes version unless pinned.
 */
export class CoreDnsAddon extends Construct {
  readonly addon: EksAddon;

  constructor(scope: Construct, id: string, props: CoreDnsAddonProps) {
    super(scope, id);
    const { settings } = props;
    this.addon = managedAddon(this, {
      addonName: "coredns",
      version: settings.version ?? "default",
      cluster: props.cluster,
      configurationValues: configurationJson(settings.configurationValues, projectAddonValues("coredns", { windowsNodes: false })),
      resolveConflicts: {
        onCreate: settings.resolveConflictsOnCreate ?? DEFAULT_RESOLVE_CONFLICTS.onCreate,
        onUpdate: settings.resolveConflictsOnUpdate ?? DEFAULT_RESOLVE_CONFLICTS.onUpdate,
      },
      dependsOn: [props.kubeSystemProfile],
    });
  }
}
