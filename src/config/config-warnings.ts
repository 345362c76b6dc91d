import { configuredAddons, vpcCniEnvEnabled } from "../eks/addon-configuration";
import { checkAddonConfiguration } from "../eks/addon-schema-check";
import { versionSupportWarning } from "../eks/kubernetes-version-support";
import { amazonLinux2Warnings, bottlerocketOsVolumeWarnings, ignoredRequirementValues, prefixDelegationWarnings } from "../provisioners/provisioner-warnings";
import { formatPath } from "../shared/format-issues";
import type { ClusterConfig } from "./cluster-schema";

/**
 * What a valid config does that is risky, one short line each, in a fixed order: a pure function of the
 * config, which the entry point prints on stderr at every synth (a warning only in manifest.json is one
 * nobody reads).
 */
export function configWarnings(
  config: Pick<ClusterConfig, "kubernetesVersion" | "cluster" | "karpenter" | "backend" | "addons" | "coreDns" | "nodeClasses" | "nodePools">,
): string[] {
  const { cluster, karpenter, backend } = config;
  // HCP Terraform's own runners: their addresses are not published, and no VPC is theirs.
  const hostedRunners = backend.type === "cloud" && backend.executionMode === "remote";
  const openToInternet = cluster.publicAccessCidrs.includes("0.0.0.0/0");
  const warnings: string[] = [];
  const support = versionSupportWarning(config.kubernetesVersion, cluster.upgradePolicy);
  if (support !== undefined) warnings.push(support);
  if (cluster.endpointPublicAccess && openToInternet) {
    warnings.push(
      "the Kubernetes API is open to the whole internet (cluster.publicAccessCidrs includes 0.0.0.0/0): list only the ranges that deploy and operate the cluster, for production",
    );
  }
  if (!cluster.endpointPublicAccess) {
    // The Karpenter stack's helm and kubectl providers talk to the API server from wherever Terraform runs.
    const runner = hostedRunners
      ? "HCP Terraform's hosted runners (backend.executionMode: remote) cannot: run the workspaces in agent execution mode, with an agent in or connected to the VPC, and set backend.executionMode: agent"
      : "run it in the VPC or over a VPN or peering, or list its address in cluster.publicAccessCidrs (203.0.113.7/32)";
    warnings.push(`the Kubernetes API is private (cluster.publicAccessCidrs lists no range): the Karpenter stack's runner must reach the VPC; ${runner}`);
  }
  if (cluster.endpointPublicAccess && !openToInternet && hostedRunners) {
    // https://developer.hashicorp.com/terraform/cloud-docs/architectural-details/ip-ranges: the IP ranges API
    // "does not publish the ranges for workspaces or Stacks doing Terraform operations in remote execution mode".
    warnings.push(
      "cluster.publicAccessCidrs admits only the listed ranges, and HCP Terraform's hosted runners (backend.executionMode: remote) come from addresses it does not publish, so the Karpenter stack's helm and kubectl calls would be refused: run the workspaces in agent execution mode with an HCP Terraform agent in or next to the VPC (and allow its address, or rely on the private endpoint), then set backend.executionMode: agent; see docs/pipelines.md",
    );
  }
  if (hostedRunners && karpenter.kubernetesAuth === "exec") {
    warnings.push(
      "karpenter.kubernetesAuth is exec with backend.type cloud: HCP Terraform's hosted runners (backend.executionMode: remote) have no AWS CLI for `aws eks get-token`; use token, or an agent that has the AWS CLI",
    );
  }
  warnings.push(...addonSchemaWarnings(config));
  warnings.push(...amazonLinux2Warnings(config.nodeClasses));
  warnings.push(...bottlerocketOsVolumeWarnings(config.nodeClasses));
  if (vpcCniEnvEnabled(config.addons["vpc-cni"].configurationValues, "ENABLE_PREFIX_DELEGATION"))
    warnings.push(...prefixDelegationWarnings(config.nodeClasses));
  warnings.push(...ignoredRequirementValues(config.nodePools));
  return warnings;
}

/** Keys the dated add-on schemas lack (a later version may have them): said, not refused. */
function addonSchemaWarnings(config: Pick<ClusterConfig, "addons" | "coreDns">): string[] {
  return configuredAddons(config).flatMap(({ path, addon, values }) =>
    values === undefined
      ? []
      : checkAddonConfiguration(addon, values)
          .filter((f) => f.severity === "warning")
          .map((f) => `${formatPath([...path, ...f.path])}: ${f.message}`),
  );
}
