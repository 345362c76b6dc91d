import { EKS_SUPPORT_CALENDAR, supportPhase } from "../eks/kubernetes-version-support";
import { type ListPrices, listPrices } from "../planner/data/list-prices";
import type { ClusterState } from "../planner/state/cluster-state";

// What the cluster costs whatever runs on it, reported apart from its nodes: the EKS control plane, at the standard
// or extended support rate its Kubernetes version is billed at on the day of the report. NAT gateways and load
// balancers are not in a cluster's Kubernetes objects, so the report cannot count them, and says so.

export interface BaseCost {
  readonly hourlyUsd: number;
  readonly items: readonly { readonly what: string; readonly hourlyUsd: number }[];
  readonly notes: readonly string[];
}

const day = (at: Date) => at.toISOString().slice(0, 10);

export function baseCost(state: Pick<ClusterState, "kubernetesVersion">, at: Date, prices: ListPrices = listPrices()): BaseCost {
  const notes = [
    `NAT gateways and load balancers are not in a cluster's Kubernetes objects and are not counted: a NAT gateway costs $${prices.natGatewayHourly}/hour plus $${prices.natGatewayPerGb}/GB it processes (${prices.region}, as of ${prices.asOf})`,
  ];
  const known = state.kubernetesVersion;
  const phase = known === undefined ? undefined : supportPhase(known.version, day(at));
  if (known === undefined || phase === undefined) {
    notes.push(
      known === undefined
        ? "the control plane's Kubernetes version is not known (no kubelet version in the state): priced at the standard support rate"
        : `Kubernetes ${known.version} is not in EKS's support calendar this project holds: priced at the standard support rate`,
    );
    return {
      hourlyUsd: prices.eksControlPlaneHourly.standard,
      items: [{ what: "EKS control plane (standard support)", hourlyUsd: prices.eksControlPlaneHourly.standard }],
      notes,
    };
  }
  const billed = phase === "standard" ? "standard" : "extended";
  if (phase === "ended")
    notes.push(
      `Kubernetes ${known.version}'s extended support ended on ${EKS_SUPPORT_CALENDAR[known.version].endOfExtendedSupport}: EKS upgrades such control planes by itself`,
    );
  if (known.from === "the newest kubelet")
    notes.push(`the control plane's version is taken from the newest kubelet (${known.version}): the control plane may be newer`);
  const what = `EKS control plane, Kubernetes ${known.version} (${billed} support${billed === "extended" ? `, since ${EKS_SUPPORT_CALENDAR[known.version].endOfStandardSupport}` : ""})`;
  return { hourlyUsd: prices.eksControlPlaneHourly[billed], items: [{ what, hourlyUsd: prices.eksControlPlaneHourly[billed] }], notes };
}
