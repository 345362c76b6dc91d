// The values of karpenter.sh/capacity-type: what a NodePool may launch and what an offering is.
// @see https://karpenter.sh/docs/concepts/nodepools/#capacity-type

export const CAPACITY_TYPES = ["spot", "on-demand", "reserved"] as const;

export type CapacityType = (typeof CAPACITY_TYPES)[number];
