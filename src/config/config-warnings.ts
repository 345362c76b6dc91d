import { versionSupportWarning } from "../eks/kubernetes-version-support";
import { amazonLinux2Warnings, bottlerocketOsVolumeWarnings, ignoredRequirementValues } from "../provisioners/provisioner-warnings";
import type { ClusterConfig } from "./cluster-schema";

/**
 * What a valid config does that is risky, one short line each, in a fixed order: a pure function of the
 * config, which the entry point prints on stderr at every synth (a warning only in manifest.json is one
 * nobody reads).
 */
export function configWarnings(config: Pick<ClusterConfig, "kubernetesVersion" | "cluster" | "karpenter" | "backend" | "nodeClasses" | "nodePools">): string[] {
  const { cluster, karpenter, backend } = config;
  const hcpTerraform = backend.type === "cloud";
  const warnings: string[] = [];
  const support = versionSupportWarning(config.kubernetesVersion, cluster.upgradePolicy);
  if (support !== undefined) warnings.push(support);
  if (cluster.endpointPublicAccess && cluster.publicAccessCidrs.includes("0.0.0.0/0")) {
    warnings.push(
      "the Kubernetes API is open to the whole internet (cluster.publicAccessCidrs includes 0.0.0.0/0): narrow it, or set cluster.endpointPublicAccess: false, for production",
    );
  }
  if (!cluster.endpointPublicAccess) {
    // The Karpenter stack's helm and kubectl providers talk to the API server from wherever Terraform runs.
    const runner = hcpTerraform
      ? "HCP Terraform's hosted runners cannot: use an agent in or connected to the VPC"
      : "run it in the VPC, or over a VPN or peering";
    warnings.push(
      `the Kubernetes API has a private endpoint only (cluster.endpointPublicAccess: false): the Karpenter stack's runner must reach the VPC; ${runner}`,
    );
  }
  if (hcpTerraform && karpenter.kubernetesAuth === "exec") {
    warnings.push(
      "karpenter.kubernetesAuth is exec with backend.type cloud: HCP Terraform's hosted runners have no AWS CLI for `aws eks get-token`; use token, or an agent that has the AWS CLI",
    );
  }
  warnings.push(...amazonLinux2Warnings(config.nodeClasses));
  warnings.push(...bottlerocketOsVolumeWarnings(config.nodeClasses));
  warnings.push(...ignoredRequirementValues(config.nodePools));
  return warnings;
}
