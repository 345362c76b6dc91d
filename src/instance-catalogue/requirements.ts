import type { RequirementOperator } from "../shared/vocabulary/requirement-operators";

// Node selector requirements evaluated against labels, with Kubernetes' semantics plus Karpenter's Gte/Lte:
// In, Exists, Gt, Lt, Gte and Lte need the label; NotIn and DoesNotExist are satisfied by its absence.
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#operators
// @see https://karpenter.sh/docs/concepts/nodepools/#spectemplatespecrequirements

export interface Requirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values?: readonly string[];
  /** Karpenter: how many distinct values the launch must be able to choose from. */
  readonly minValues?: number;
}

/** Kubernetes parses the label and the bound as integers; a label that is not one never satisfies Gt/Lt. */
function compare(label: string, bound: string | undefined, test: (a: number, b: number) => boolean): boolean {
  if (!/^-?\d+$/.test(label) || bound === undefined || !/^-?\d+$/.test(bound)) return false;
  return test(Number(label), Number(bound));
}

/** Does a label value (undefined: the label is absent) satisfy the requirement? */
export function satisfies(value: string | undefined, requirement: Requirement): boolean {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
      return value !== undefined && compare(value, values[0], (a, b) => a > b);
    case "Lt":
      return value !== undefined && compare(value, values[0], (a, b) => a < b);
    case "Gte":
      return value !== undefined && compare(value, values[0], (a, b) => a >= b);
    case "Lte":
      return value !== undefined && compare(value, values[0], (a, b) => a <= b);
  }
}

/** All requirements hold for a label lookup. */
export function satisfiesAll(label: (key: string) => string | undefined, requirements: readonly Requirement[]): boolean {
  for (const r of requirements) if (!satisfies(label(r.key), r)) return false;
  return true;
}

/**
 * The values of a finite domain (capacity types, zones) that a requirement leaves: what an offering-level
 * label can still be. DoesNotExist leaves nothing, since every offering carries these labels. Typed by the
 * domain's values, so capacity types stay capacity types.
 */
export function allowedValues<T extends string>(domain: readonly T[], requirement: Requirement): T[] {
  return domain.filter((value) => satisfies(value, requirement));
}

/** "kubernetes.io/arch In [amd64, arm64]" for messages. */
export function formatRequirement(r: Requirement): string {
  const values = r.values === undefined || r.values.length === 0 ? "" : ` [${r.values.join(", ")}]`;
  return `${r.key} ${r.operator}${values}`;
}
