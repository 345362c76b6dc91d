import { plural } from "../../shared/plural";
import { VENDED_LOG_PRICES } from "../data/cloudwatch-log-prices";
import { type ListPrices, listPrices } from "../data/list-prices";
import type { ClusterModel } from "../model";
import type { PodGroup } from "../workload/workload-model";
import { fargateSize } from "./fargate";
import { roundUsd } from "./plan-types";

// What the design itself costs, whatever the workload: the control plane, the Fargate pods it always runs
// (CoreDNS, Karpenter, the add-ons that run a Deployment), the NAT gateways its network creates. And, apart,
// what the workload's pods cost on Fargate when its namespaces have a profile.

export interface BaseCosts {
  readonly items: readonly { readonly what: string; readonly hourlyUsd: number }[];
  readonly hourlyUsd: number;
  readonly warnings: readonly string[];
}

export function baseCosts(cluster: ClusterModel, prices: ListPrices = listPrices()): BaseCosts {
  const items: { what: string; hourlyUsd: number }[] = [];
  const warnings: string[] = [];
  const support = cluster.controlPlaneSupport;
  const version = cluster.kubernetesVersion;
  const until = cluster.standardSupportEndsIsEstimate ? `${cluster.standardSupportEnds} at the earliest` : cluster.standardSupportEnds;
  const supportNote =
    support === "extended"
      ? `extended support: Kubernetes ${version} left standard support on ${cluster.standardSupportEnds}`
      : cluster.upgradePolicy === "extended"
        ? `standard support until ${until}; $${prices.eksControlPlaneHourly.extended}/hour from then, as upgradePolicy is extended`
        : `standard support until ${until}; then EKS upgrades it, as upgradePolicy is standard`;
  items.push({ what: `EKS control plane (${supportNote})`, hourlyUsd: prices.eksControlPlaneHourly[support] });

  for (const pods of cluster.fargateSystemPods) {
    const size = fargateSize(pods.requests, prices);
    if (size === undefined) {
      warnings.push(`${pods.namespace}/${pods.name} is larger than any Fargate size; it is not priced`);
      continue;
    }
    items.push({
      what: `Fargate: ${pods.name}, ${plural(pods.replicas, "pod")} of ${size.vcpu} vCPU / ${size.memoryGb} GB (${pods.source})`,
      hourlyUsd: roundUsd(pods.replicas * size.hourlyUsd),
    });
  }

  if (cluster.natGateways > 0) {
    items.push({
      what: `NAT gateways: ${cluster.natGateways} (hourly charge; data processed, $${prices.natGatewayPerGb}/GB, not included)`,
      hourlyUsd: roundUsd(cluster.natGateways * prices.natGatewayHourly),
    });
  }

  if (cluster.flowLogTraffic !== undefined) {
    // No hourly charge: named, at $0, so the reader knows the bill grows with the traffic logged.
    const { ingestedPerGb, storedPerGbMonth } = VENDED_LOG_PRICES;
    items.push({
      what: `VPC flow logs (${cluster.flowLogTraffic}) to CloudWatch Logs: $${ingestedPerGb.toFixed(2)}/GB ingested and $${storedPerGbMonth.toFixed(2)}/GB-month stored, by volume (not included)`,
      hourlyUsd: 0,
    });
  }

  return { items, hourlyUsd: roundUsd(items.reduce((sum, i) => sum + i.hourlyUsd, 0)), warnings };
}

/** The workload's pods that run on Fargate, by namespace, at the size Fargate rounds each pod up to. */
export function fargateWorkloadCosts(fargateGroups: readonly PodGroup[], prices: ListPrices = listPrices()): BaseCosts {
  const items: { what: string; hourlyUsd: number }[] = [];
  const warnings: string[] = [];
  const byNamespace = new Map<string, { pods: number; hourlyUsd: number }>();
  for (const group of fargateGroups) {
    const size = fargateSize({ cpuMillis: group.pod.cpuMillis, memoryBytes: group.pod.memoryBytes }, prices);
    if (size === undefined) {
      warnings.push(`${group.id} runs on Fargate but is larger than any Fargate size (4 vCPU / 30 GB): EKS will not schedule it`);
      continue;
    }
    const entry = byNamespace.get(group.namespace) ?? { pods: 0, hourlyUsd: 0 };
    entry.pods += group.replicas;
    entry.hourlyUsd += group.replicas * size.hourlyUsd;
    byNamespace.set(group.namespace, entry);
  }
  for (const [namespace, entry] of [...byNamespace.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    items.push({ what: `Fargate: namespace ${namespace}, ${plural(entry.pods, "pod")}`, hourlyUsd: roundUsd(entry.hourlyUsd) });
  }
  return { items, hourlyUsd: roundUsd(items.reduce((sum, i) => sum + i.hourlyUsd, 0)), warnings };
}
