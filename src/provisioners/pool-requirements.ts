import { LABEL } from "../shared/vocabulary/well-known-labels";
import type { NodeSelectorRequirementWithMinValues } from "./karpenter-api";
import { DEFAULT_INSTANCE_CATEGORIES } from "./provisioner-defaults";

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
    ...isIn(LABEL.arch, pool.architectures),
    ...isIn(LABEL.os, [os]),
    ...isIn(LABEL.capacityType, pool.capacityTypes),
    ...isIn(LABEL.instanceCategory, instanceCategoriesOf(pool)),
    ...isIn(LABEL.instanceFamily, pool.instanceFamilies),
    ...isIn(LABEL.instanceSize, pool.instanceSizes),
    // "Gt 2" for minGeneration 3: Gte exists only since Karpenter 1.14, Gt reads the same everywhere.
    { key: LABEL.instanceGeneration, operator: "Gt", values: [String(pool.minGeneration - 1)] },
    ...isIn(LABEL.zone, pool.zones),
  ];
}

/** The category of an instance family: its leading letters ("g" for g5, "inf" for inf2, "u" for u-6tb1). */
export function instanceCategoryOf(family: string): string {
  return /^[a-z]+/.exec(family)?.[0] ?? family;
}
