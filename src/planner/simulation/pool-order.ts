import type { PoolModel } from "../model";

/**
 * Karpenter tries NodePools by descending weight; equal weights by name, later in the alphabet first.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/nodepool/nodepool.go (OrderByWeight)
 */
export function poolOrder(pools: readonly PoolModel[]): PoolModel[] {
  return [...pools].sort((a, b) => b.weight - a.weight || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}
