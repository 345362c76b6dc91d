import { configuredAddons, vpcCniEnvEnabled } from "../eks/addon-configuration";
import { checkAddonConfiguration } from "../eks/addon-schema-check";
import { versionSupportWarning } from "../eks/kubernetes-version-support";
import {
  amazonLinux2Warnings,
  bottlerocketOsVolumeWarnings,
  ignoredRequirementValues,
  nodeClassSecurityWarnings,
  prefixDelegationWarnings,
} from "../provisioners/provisioner-warnings";
import { wildcardMatches } from "../shared/eks-wildcard";
import { formatPath } from "../shared/format-issues";
import type { ClusterConfig } from "./cluster-schema";

/**
 * What a valid config does that is risky, one short line each, in a fixed order: a pure function of the
 * config, which the entry point prints on stderr at every synth (a warning only in manifest.json is one
 * nobody reads).
 */
export function configWarnings(
  config: Pick<ClusterConfig, "kubernetesVersion" | "cluster" | "access" | "karpenter" | "backend" | "addons" | "coreDns" | "nodeClasses" | "nodePools">,
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
  warnings.push(...nearClusterAdminAccess(config.access, karpenter.namespace));
  warnings.push(...nodeClassSecurityWarnings(config.nodeClasses));
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

/**
 * `edit` and `admin` where controllers run with IAM roles of their own: such a principal can start a pod under
 * the controller's service account (Karpenter's, aws-node's, the EBS CSI controller's) and act with its role and
 * its Kubernetes rights: launch instances, pass the node role, read every Secret the controller may. Close to
 * cluster-admin in effect; docs/security.md, Team access.
 */
function nearClusterAdminAccess(access: ClusterConfig["access"], karpenterNamespace: string): string[] {
  const controllerNamespaces = [...new Set(["kube-system", karpenterNamespace])];
  return access.flatMap((grant, i) => {
    if (grant.policy !== "edit" && grant.policy !== "admin") return [];
    const reached = controllerNamespaces.filter((ns) => grant.namespaces === undefined || grant.namespaces.some((pattern) => wildcardMatches(pattern, ns)));
    if (reached.length === 0) return [];
    const scope = grant.namespaces === undefined ? "cluster-wide" : `in ${reached.join(" and ")}`;
    return [
      `${formatPath(["access", i])}: ${grant.policy} ${scope} can run pods under the service accounts of the controllers there (${reached.map((ns) => controllersIn(ns, karpenterNamespace)).join("; ")}) and act with their IAM roles and rights: close to cluster-admin; scope it to the team's own namespaces`,
    ];
  });
}

/** The controllers with roles of their own that run in a namespace. */
function controllersIn(namespace: string, karpenterNamespace: string): string {
  const controllers = namespace === "kube-system" ? ["aws-node", "the EBS CSI controller"] : [];
  if (namespace === karpenterNamespace) controllers.push("Karpenter");
  return `${controllers.join(", ")} in ${namespace}`;
}
