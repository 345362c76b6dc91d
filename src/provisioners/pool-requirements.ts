import type { NodeSelectorRequirementWithMinValues } from "./karpenter-api";
import { DEFAULT_INSTANCE_CATEGORIES } from "./provisioner-defaults";

/** Well-known label keys the pool's fields turn into requirements. */
export const REQUIREMENT_KEYS = {
  architecture: "kubernetes.io/arch",
  os: "kubernetes.io/os",
  capacityType: "karpenter.sh/capacity-type",
  instanceCategory: "karpenter.k8s.aws/instance-category",
  instanceFamily: "karpenter.k8s.aws/instance-family",
  instanceSize: "karpenter.k8s.aws/instance-size",
  instanceGeneration: "karpenter.k8s.aws/instance-generation",
  zone: "topology.kubernetes.io/zone",
} as const;

/** The fields of a pool that select instances. */
export interface InstanceSelection {
  readonly architectures: readonly string[];
  readonly capacityTypes: readonly string[];
  readonly instanceCategories?: readonly string[];
  readonly instanceFamilies?: readonly string[];
  readonly instanceSizes?: readonly string[];
  readonly minGeneration: number;
  readonly zones?: readonly string[];
}

/** The categories a pool allows: the listed ones, the default ones, or any when families are named. */
export function instanceCategoriesOf(pool: Pick<InstanceSelection, "instanceCategories" | "instanceFamilies">): readonly string[] | undefined {
  return pool.instanceCategories ?? (pool.instanceFamilies === undefined ? DEFAULT_INSTANCE_CATEGORIES : undefined);
}

const isIn = (key: string, values: readonly string[] | undefined): NodeSelectorRequirementWithMinValues[] =>
  values === undefined ? [] : [{ key, operator: "In", values: [...values] }];

/**
 * The requirements a NodePool gets from its pool's fields, in the order it renders them; the CRD counts them
 * with the pool's own `requirements` against its limit of 100.
 */
export function selectionRequirements(pool: InstanceSelection, os: "linux" | "windows"): NodeSelectorRequirementWithMinValues[] {
  return [
    ...isIn(REQUIREMENT_KEYS.architecture, pool.architectures),
    ...isIn(REQUIREMENT_KEYS.os, [os]),
    ...isIn(REQUIREMENT_KEYS.capacityType, pool.capacityTypes),
    ...isIn(REQUIREMENT_KEYS.instanceCategory, instanceCategoriesOf(pool)),
    ...isIn(REQUIREMENT_KEYS.instanceFamily, pool.instanceFamilies),
    ...isIn(REQUIREMENT_KEYS.instanceSize, pool.instanceSizes),
    // "Gt 2" for minGeneration 3: Gte exists only since Karpenter 1.14, Gt reads the same everywhere.
    { key: REQUIREMENT_KEYS.instanceGeneration, operator: "Gt", values: [String(pool.minGeneration - 1)] },
    ...isIn(REQUIREMENT_KEYS.zone, pool.zones),
  ];
}

/** The category of an instance family: its leading letters ("g" for g5, "inf" for inf2, "u" for u-6tb1). */
export function instanceCategoryOf(family: string): string {
  return /^[a-z]+/.exec(family)?.[0] ?? family;
}
