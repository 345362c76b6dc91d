import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { Construct } from "constructs";

export interface CoreAddonsProps {
  readonly clusterName: string;
}

/**
 * vpc-cni and kube-proxy as managed add-ons, at EKS's default version for the cluster's Kubernetes version.
 * Both are DaemonSets: they only run once Karpenter has launched nodes. CoreDNS is handled separately
 * (src/lambda-coredns) because it must be moved to Fargate.
 */
export class CoreAddons extends Construct {
  constructor(scope: Construct, id: string, props: CoreAddonsProps) {
    super(scope, id);
    for (const addonName of ["vpc-cni", "kube-proxy"]) {
      new EksAddon(this, addonName, {
        clusterName: props.clusterName,
        addonName,
        // EKS installs self-managed copies at cluster creation; the managed add-on takes them over.
        resolveConflictsOnCreate: "OVERWRITE",
        resolveConflictsOnUpdate: "OVERWRITE",
      });
    }
  }
}
