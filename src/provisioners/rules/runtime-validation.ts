import type { CapacityType } from "../../shared/vocabulary/capacity-types";
import { LABEL } from "../../shared/vocabulary/well-known-labels";

// Karpenter's runtime validation (pkg/apis/v1/nodeclaim_validation.go), which runs after admission: a NodePool
// that breaks it is stored, then stays NotReady and launches nothing.

/** A label whose requirement values are a closed set, and what happens to a pool that names none of them. */
export interface KnownValues {
  readonly values: readonly string[];
  readonly otherwise: string;
}

/**
 * Labels with known values. capacity-type's are checked by Karpenter's runtime validation
 * (validateWellKnownValues): an `In` requirement with none of them keeps the NodePool NotReady, and unknown
 * values beside known ones are logged and dropped. Tenancy's two are the only ones any instance type offers
 * (the AWS provider's computeRequirements), whether or not the provider registers them for that check.
 */
export const WELL_KNOWN_VALUES: Readonly<Record<string, KnownValues>> = {
  [LABEL.capacityType]: {
    values: ["on-demand", "spot", "reserved"] satisfies CapacityType[],
    otherwise: "Karpenter's runtime validation keeps its NodePool NotReady, and it launches nothing",
  },
  [LABEL.instanceTenancy]: {
    values: ["default", "dedicated"],
    otherwise: "no instance type offers another, so the pool never launches a node",
  },
};

/** Gt, Lt, Gte and Lte values: strconv.Atoi in Karpenter, so a non-negative int64. */
export function isNonNegativeInt64(value: string): boolean {
  return /^[0-9]{1,19}$/.test(value) && BigInt(value) <= 2n ** 63n - 1n;
}
