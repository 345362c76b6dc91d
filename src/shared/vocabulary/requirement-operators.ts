// The operators of a node selector requirement: Kubernetes' six and the Gte and Lte Karpenter 1.14 adds.
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#operators
// @see https://karpenter.sh/docs/concepts/nodepools/#spectemplatespecrequirements

export const REQUIREMENT_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"] as const;

export type RequirementOperator = (typeof REQUIREMENT_OPERATORS)[number];

/** The operators that compare one integer value. */
export const COMPARISON_OPERATORS: readonly RequirementOperator[] = ["Gt", "Lt", "Gte", "Lte"];

export const isRequirementOperator = (value: unknown): value is RequirementOperator =>
  typeof value === "string" && (REQUIREMENT_OPERATORS as readonly string[]).includes(value);
