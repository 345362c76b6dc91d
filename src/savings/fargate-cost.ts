import { type ListPrices, listPrices } from "../planner/data/list-prices";
import { fargateSize } from "../planner/plan/fargate";
import type { PodGroup } from "../planner/workload/workload-model";

// What a Fargate pod costs: the size EKS provisioned for it, as its CapacityProvisioned annotation says
// ("0.25vCPU 0.5GB"), at the dated Fargate rates; a pod without the annotation at the size its requests round up
// to, as EKS sizes it.
// @see https://docs.aws.amazon.com/eks/latest/userguide/fargate-pod-configuration.html

export interface FargatePodCost {
  readonly namespace: string;
  readonly workload: string;
  readonly vcpu: number;
  readonly memoryGb: number;
  /** undefined when the pod is larger than any Fargate size (it would not run). */
  readonly hourlyUsd: number | undefined;
  readonly from: "CapacityProvisioned" | "requests";
}

/** "0.25vCPU 0.5GB" as numbers, or undefined when it says something else. */
export function capacityProvisioned(annotation: string): { readonly vcpu: number; readonly memoryGb: number } | undefined {
  const match = /^\s*([\d.]+)\s*vCPU\s+([\d.]+)\s*GB\s*$/i.exec(annotation);
  return match === null ? undefined : { vcpu: Number(match[1]), memoryGb: Number(match[2]) };
}

export function fargatePodCost(pod: { readonly group: PodGroup; readonly capacityProvisioned?: string }, prices: ListPrices = listPrices()): FargatePodCost {
  const base = { namespace: pod.group.namespace, workload: `${pod.group.kind}/${pod.group.name}` };
  const provisioned = pod.capacityProvisioned === undefined ? undefined : capacityProvisioned(pod.capacityProvisioned);
  if (provisioned !== undefined) {
    return {
      ...base,
      ...provisioned,
      hourlyUsd: provisioned.vcpu * prices.fargate.vcpuHourly + provisioned.memoryGb * prices.fargate.gbHourly,
      from: "CapacityProvisioned",
    };
  }
  const size = fargateSize({ cpuMillis: pod.group.pod.cpuMillis, memoryBytes: pod.group.pod.memoryBytes }, prices);
  return { ...base, vcpu: size?.vcpu ?? 0, memoryGb: size?.memoryGb ?? 0, hourlyUsd: size?.hourlyUsd, from: "requests" };
}
