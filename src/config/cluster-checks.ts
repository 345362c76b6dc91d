import { configurationConflicts, configuredAddons, type JsonObject, projectAddonValues } from "../eks/addon-configuration";
import { checkAddonConfiguration } from "../eks/addon-schema-check";
import { principalPartitionProblem } from "../iam/principal-arn";
import { vpcZones } from "../network/network-config";
import { clusterDnsProblem } from "../network/service-range";
import { al2Aliases, isWindowsNodeClass, LAST_AL2_KUBERNETES_VERSION } from "../provisioners/ami-selection";
import type { NodeClassConfig } from "../provisioners/node-class-schema";
import type { NodePoolConfig } from "../provisioners/node-pool-schema";
import { zoneProblem } from "../shared/availability-zones";
import { resourceNames } from "../shared/resource-names";
import type { FieldCheck, IssuePath } from "../shared/schema-helpers";

/** The fields of a cluster config that the checks below read. */
interface CheckedFields {
  readonly name: string;
  readonly cluster: {
    readonly adminPrincipalArns: readonly string[];
    readonly secretsKeyAdministrators?: readonly string[];
    readonly creatorAdmin: boolean | "bootstrap";
  };
  readonly access: readonly { readonly principalArn: string; readonly policy: string }[];
  readonly addons: Readonly<Record<string, { readonly configurationValues?: JsonObject } | undefined>>;
  readonly coreDns: { readonly configurationValues?: JsonObject };
  readonly kubernetesVersion: string;
  readonly region: string;
  readonly network: { readonly vpcId?: string; readonly vpcCidr?: string; readonly availabilityZones?: readonly string[] };
  readonly nodeClasses: readonly NodeClassConfig[];
  readonly nodePools: readonly NodePoolConfig[];
}

/** "1.33" → 133, to compare Kubernetes minor versions. */
const minor = (version: string): number => {
  const [major, rest] = version.split(".").map(Number);
  return major * 100 + rest;
};

/** Checks that relate sections owned by different rooms. */
export const CLUSTER_CHECKS: readonly FieldCheck<CheckedFields>[] = [
  {
    reads: ["kubernetesVersion", "nodeClasses.*.amiAlias", "nodeClasses.*.amiSelectorTerms"],
    check: ({ kubernetesVersion, nodeClasses }, report) => {
      if (minor(kubernetesVersion) <= minor(LAST_AL2_KUBERNETES_VERSION)) return;
      nodeClasses.forEach((nodeClass, i) => {
        for (const { alias, path } of al2Aliases(nodeClass)) {
          report(
            ["nodeClasses", i, ...path],
            alias,
            `EKS publishes no Amazon Linux 2 AMI for Kubernetes ${kubernetesVersion} (${LAST_AL2_KUBERNETES_VERSION} was the last), so the alias would find none and the node class never become Ready; use al2023@latest or bottlerocket@latest`,
          );
        }
      });
    },
  },
  {
    // The controller may pass only this cluster's node roles to EC2 (its PassRole statement), and only they
    // have the access entries that let nodes join: EC2_LINUX, and EC2_WINDOWS for the Windows role.
    reads: ["name", "nodeClasses.*.role", "nodeClasses.*.amiAlias", "nodeClasses.*.amiSelectorTerms", "nodeClasses.*.amiFamily"],
    check: ({ name, nodeClasses }, report) => {
      const names = resourceNames(name);
      nodeClasses.forEach((nodeClass, i) => {
        const nodeRole = isWindowsNodeClass(nodeClass) ? names.karpenterWindowsNodeRole : names.karpenterNodeRole;
        if (nodeClass.role !== undefined && nodeClass.role !== nodeRole) {
          report(
            ["nodeClasses", i, "role"],
            nodeClass.role,
            `must be ${nodeRole} or omitted: Karpenter may pass only this cluster's node roles, and only they may join the cluster`,
          );
        }
      });
    },
  },
  {
    // A pool zone without a subnet of the new VPC would leave its NodeClaims unlaunchable.
    reads: ["region", "network.vpcId", "network.availabilityZones", "nodePools.*.zones"],
    check: ({ region, network, nodePools }, report) => {
      if (network.vpcId !== undefined) return;
      const zones = vpcZones(network, region);
      nodePools.forEach((pool, i) => {
        pool.zones?.forEach((zone, j) => {
          // A name that is no zone of the region is reported once, by the provisioners' zone check.
          if (zoneProblem(zone, region) === undefined && !zones.includes(zone)) {
            report(["nodePools", i, "zones", j], zone, `has no subnet in this VPC; the VPC's zones are ${zones.join(", ")}`);
          }
        });
      });
    },
  },
  {
    // The kubelet hands these addresses to every pod as its DNS server; the service range is the VPC's to decide.
    reads: ["network.vpcId", "network.vpcCidr", "nodeClasses.*.kubelet.clusterDNS"],
    check: ({ network, nodeClasses }, report) => {
      nodeClasses.forEach((nodeClass, i) => {
        nodeClass.kubelet?.clusterDNS?.forEach((address, j) => {
          const problem = clusterDnsProblem(address, network);
          if (problem !== undefined) report(["nodeClasses", i, "kubelet", "clusterDNS", j], address, problem);
        });
      });
    },
  },
  {
    // The project's own values in an add-on's configuration are what the cluster needs to work; the rest must
    // fit the add-on's published schema where the project holds a dated copy.
    reads: ["addons", "coreDns.configurationValues", "nodeClasses.*.amiAlias", "nodeClasses.*.amiSelectorTerms", "nodeClasses.*.amiFamily"],
    check: ({ addons, coreDns, nodeClasses }, report) => {
      const context = { windowsNodes: nodeClasses.some(isWindowsNodeClass) };
      for (const { path, addon, values } of configuredAddons({ addons, coreDns })) {
        for (const conflict of configurationConflicts(values, projectAddonValues(addon, context))) {
          report([...path, ...conflict.path], conflict.value, conflict.message);
        }
        for (const finding of values === undefined ? [] : checkAddonConfiguration(addon, values)) {
          if (finding.severity === "error") report([...path, ...finding.path], finding.value, finding.message);
        }
      }
    },
  },
  {
    // An ARN of another partition names no principal this cluster's IAM can see: EKS refuses the entry, and a
    // key policy naming it locks its administrators out.
    reads: ["region", "cluster.adminPrincipalArns", "cluster.secretsKeyAdministrators", "access.*.principalArn"],
    check: ({ region, cluster, access }, report) => {
      const principals: [IssuePath, string][] = [
        ...cluster.adminPrincipalArns.map((arn, i): [IssuePath, string] => [["cluster", "adminPrincipalArns", i], arn]),
        ...(cluster.secretsKeyAdministrators ?? []).map((arn, i): [IssuePath, string] => [["cluster", "secretsKeyAdministrators", i], arn]),
        ...access.map((grant, i): [IssuePath, string] => [["access", i, "principalArn"], grant.principalArn]),
      ];
      for (const [path, arn] of principals) {
        const problem = principalPartitionProblem(arn, region);
        if (problem !== undefined) report(path, arn, problem);
      }
      access.forEach((grant, i) => {
        if (cluster.adminPrincipalArns.includes(grant.principalArn)) {
          report(
            ["access", i, "principalArn"],
            grant.principalArn,
            "is also in cluster.adminPrincipalArns, which already gives it an access entry (cluster-admin), and EKS allows one per principal: keep one of the two",
          );
        }
      });
    },
  },
  {
    // Someone must hold cluster-admin, or the Karpenter stack (helm, kubectl) could not be deployed at all.
    reads: ["cluster.creatorAdmin", "cluster.adminPrincipalArns", "access.*.policy"],
    check: ({ cluster, access }, report) => {
      if (cluster.creatorAdmin === false && cluster.adminPrincipalArns.length === 0 && !access.some((grant) => grant.policy === "cluster-admin")) {
        report(
          ["cluster", "creatorAdmin"],
          false,
          "cannot be false without another administrator (cluster.adminPrincipalArns, or an access entry with policy cluster-admin): nobody could administer the cluster, and the Karpenter stack could not be deployed",
        );
      }
    },
  },
];
