import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { plural } from "../../shared/plural";
import { listPrices } from "../data/list-prices";
import type { ClusterModel } from "../model";
import type { Prices } from "../simulation/pool-offerings";
import type { ProvisioningResult } from "../simulation/provisioner";
import { domainKindOf } from "../simulation/topology-group";
import type { PodGroup } from "../workload/workload-model";
import type { DaemonSetJson } from "./daemon-set-report";
import type { PodDestinations } from "./pod-destinations";
import type { Scenario } from "./scenarios";

// What a reader needs to know to trust the numbers, or not: where the prices come from, what the plan had
// to assume, which preferences Karpenter would give up, and which constraints go beyond the model. The
// planner is never silently wrong: what it cannot model, it names.

export interface WarningInput {
  readonly cluster: ClusterModel;
  readonly catalogue: InstanceCatalogue;
  readonly prices: Prices;
  readonly nodeGroups: readonly PodGroup[];
  readonly destinations: PodDestinations;
  readonly runs: readonly { readonly scenario: Scenario; readonly result: ProvisioningResult }[];
  readonly daemonSets: readonly DaemonSetJson[];
}

export const NO_SPOT_OFFLINE =
  "no spot prices offline: a node whose NodePool allows spot is shown as spot, since Karpenter launches spot whenever it is allowed and offered, and is priced at the on-demand rate, an upper bound (the on-demand-only scenario shows what on-demand costs). Run with --live for spot prices.";

function pricingWarnings({ catalogue, cluster, prices }: WarningInput): string[] {
  const warnings: string[] = [];
  if (!prices.spotKnown) warnings.push(NO_SPOT_OFFLINE);
  if (catalogue.region !== cluster.region) {
    warnings.push(
      `instance prices are ${catalogue.region}'s (${catalogue.source.split(":")[0]}); ${cluster.region} differs: run with --live --region ${cluster.region}`,
    );
  }
  const fixed = listPrices();
  if (fixed.region !== cluster.region) warnings.push(`control plane, Fargate and NAT prices are ${fixed.region}'s list prices; ${cluster.region} may differ`);
  const windows = cluster.pools.filter((p) => p.nodeClass.os === "windows").map((p) => p.name);
  if (windows.length > 0)
    warnings.push(`Windows NodePools ${windows.join(", ")} are priced at Linux rates: the Windows license AWS adds per vCPU-hour is not included`);
  if (cluster.zones === undefined && prices.spotKnown)
    warnings.push("the cluster's zones are not known here (an existing VPC, or another region): spot prices of every zone are considered");
  return warnings;
}

/** Topology keys of the workload that the planner leaves out, with the pods that carry them. */
function beyondModel(groups: readonly PodGroup[]): string[] {
  const byKey = new Map<string, Set<string>>();
  for (const g of groups) {
    const terms = [g.pod.podAffinity, g.pod.preferredPodAffinity, g.pod.podAntiAffinity, g.pod.preferredPodAntiAffinity].flat();
    const keys = [...terms.map((t) => t.topologyKey), ...g.pod.topologySpread.map((s) => s.topologyKey)];
    for (const key of keys) if (domainKindOf(key) === undefined) byKey.set(key, (byKey.get(key) ?? new Set()).add(g.id));
  }
  return [...byKey.entries()].map(
    ([key, ids]) =>
      `pod affinity, anti-affinity or topology spread on ${key} is beyond the planner (it models kubernetes.io/hostname, zones and capacity types) and was left out, so the plan may need fewer nodes than Karpenter would launch: ${[...ids].join(", ")}`,
  );
}

function topologyWarnings({ cluster, nodeGroups, runs }: WarningInput): string[] {
  const warnings = beyondModel(nodeGroups);
  const zonal = nodeGroups.filter((g) =>
    [...g.pod.topologySpread.map((s) => s.topologyKey), ...[g.pod.podAffinity, g.pod.podAntiAffinity].flat().map((t) => t.topologyKey)].some(
      (k) => domainKindOf(k) === "zone",
    ),
  );
  if (cluster.zones === undefined && zonal.length > 0) {
    warnings.push(
      `the cluster's zones are not known here (an existing VPC, or another region): zone constraints are planned on ${cluster.zoneCount} stand-in zones (one per private subnet or zone of the config): ${zonal.map((g) => g.id).join(", ")}`,
    );
  }
  for (const run of runs.filter((r, i) => i === 0 || r.scenario.scaleUp === true)) {
    const relaxed = run.result.relaxed;
    if (relaxed.length === 0) continue;
    warnings.push(
      `Karpenter gives up preferences it cannot meet, one at a time (${run.scenario.name === "as-configured" ? "as configured" : run.scenario.name}): ${relaxed.map((r) => `${r.id}: ${plural(r.count, "pod")} placed without ${r.gaveUp}`).join("; ")}`,
    );
  }
  return warnings;
}

function autoscalingWarnings({ nodeGroups, runs }: WarningInput): string[] {
  const max = runs.find((r) => r.scenario.scaleUp === true);
  if (max === undefined) return [];
  const scaled = nodeGroups.filter((g) => g.autoscaling !== undefined);
  const warnings = [
    `autoscaled workloads are planned at their minimum replicas; the autoscaled-max scenario adds their maximum: ${scaled.map((g) => `${g.id} ${g.replicas} to ${g.autoscaling?.maxReplicas} (${g.autoscaling?.source})`).join(", ")}`,
  ];
  const stuck = max.result.unschedulable;
  if (stuck.length > 0) {
    const limited = [
      ...new Set(
        stuck.flatMap((u) => [...u.reason.matchAll(/NodePool ([^:]+): its limits are reached \(([^)]*)\)/g)].map((m) => `NodePool ${m[1]} (${m[2]})`)),
      ),
    ];
    const pods = stuck.reduce((n, u) => n + u.count, 0);
    warnings.push(
      `at the autoscalers' maximum, ${plural(pods, "pod")} find no node${limited.length > 0 ? `: the limits of ${limited.join(", ")} stop the growth` : " (see the autoscaled-max scenario)"}`,
    );
  }
  return warnings;
}

function daemonSetWarnings({ nodeGroups, daemonSets }: WarningInput): string[] {
  if (daemonSets.length === 0 || nodeGroups.some((g) => g.replicas > 0)) return [];
  return [
    `the workload has DaemonSets only: Karpenter launches no node for them (it provisions for pending pods); each adds its requests to every node it runs on: ${daemonSets.map((d) => `${d.id} ${d.cpuMillis}m CPU / ${Math.round(d.memoryBytes / 1024 / 1024)} MiB`).join(", ")}`,
  ];
}

const pods = (n: number) => plural(n, "pod");

/** Pods the steady state leaves out (Jobs), and pods already bound to a node: what the plan does with them. */
function placementWarnings({ destinations }: WarningInput): string[] {
  const warnings: string[] = [];
  const jobs = [...destinations.jobs.nodes, ...destinations.jobs.held.map((h) => h.group)];
  if (jobs.length > 0) {
    const each = jobs.map((g) => `${g.id} (${pods(g.replicas)}${g.kind === "CronJob" ? ", CronJob" : ""})`);
    warnings.push(
      `Jobs and CronJobs run to completion: the steady scenarios leave their pods out, and jobs-burst adds them at their parallelism onto the as-configured nodes: ${each.join(", ")}`,
    );
  }
  if (destinations.boundToNodes.length > 0) {
    const each = destinations.boundToNodes.map((g) => `${g.id} (${pods(g.replicas)} on ${g.boundTo})`);
    warnings.push(
      `pods that name their node (spec.nodeName) are bound to it already: Karpenter provisions nothing for them, and the plan launches no node for them: ${each.join(", ")}`,
    );
  }
  return warnings;
}

export function planWarnings(input: WarningInput): string[] {
  return [...pricingWarnings(input), ...placementWarnings(input), ...topologyWarnings(input), ...autoscalingWarnings(input), ...daemonSetWarnings(input)];
}
