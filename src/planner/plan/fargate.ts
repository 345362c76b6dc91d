import { wildcardMatches } from "../../shared/eks-wildcard";
import { GIB, MIB } from "../../shared/quantity";
import { type ListPrices, listPrices } from "../data/list-prices";
import type { FargateProfileModel, PodResources } from "../model";

// EKS on Fargate: which pods it takes (a profile selector matches the namespace and labels), the size it
// rounds a pod up to, and what that costs. The data is the dated list-price file `npm run catalogue` writes (list-prices.ts).
// @see https://docs.aws.amazon.com/eks/latest/userguide/fargate-pod-configuration.html

export interface FargateSize {
  readonly vcpu: number;
  readonly memoryGb: number;
  readonly hourlyUsd: number;
}

/**
 * The profile that takes pods of this namespace and labels, if any: one of its selectors matches the namespace,
 * and each of the selector's labels matches one of the pod's. Where several profiles match, EKS uses the first
 * by name; they all run the pod on Fargate at the same price.
 */
export function fargateProfileFor(
  namespace: string,
  labels: Readonly<Record<string, string>>,
  profiles: readonly FargateProfileModel[],
): FargateProfileModel | undefined {
  const byName = [...profiles].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return byName.find((p) =>
    p.selectors.some(
      (s) =>
        wildcardMatches(s.namespace, namespace) &&
        Object.entries(s.labels).every(([k, v]) =>
          Object.entries(labels).some(([podKey, podValue]) => wildcardMatches(k, podKey) && wildcardMatches(v, podValue)),
        ),
    ),
  );
}

/**
 * The smallest supported vCPU/memory combination that holds the pod's requests plus Fargate's per-pod
 * memory for kubelet, kube-proxy and containerd; undefined when no size is that large.
 */
export function fargateSize(requests: PodResources, prices: ListPrices = listPrices()): FargateSize | undefined {
  const vcpuNeeded = requests.cpuMillis / 1000;
  const memoryNeeded = (requests.memoryBytes + prices.fargate.podOverheadMiB * MIB) / GIB;
  for (const size of prices.fargate.sizes) {
    if (size.vcpu < vcpuNeeded) continue;
    const memoryGb = size.memoryGb.find((gb) => gb >= memoryNeeded - 1e-9);
    if (memoryGb !== undefined) return { vcpu: size.vcpu, memoryGb, hourlyUsd: size.vcpu * prices.fargate.vcpuHourly + memoryGb * prices.fargate.gbHourly };
  }
  return undefined;
}
