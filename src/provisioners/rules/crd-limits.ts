// The closed sets (OpenAPI `enum`) and bounds (`maxItems`, `maxLength`) of Karpenter 1.14's CRDs, beside the
// Karpenter and Kubernetes vocabulary in src/shared/vocabulary, which the CRDs share with the rest.

export const ALIAS_MAX_LENGTH = 30;
export const VOLUME_TYPES = ["standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"] as const;
export const CONSOLIDATION_POLICIES = ["WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"] as const;
export const DISRUPTION_REASONS = ["Underutilized", "Empty", "Drifted"] as const;
export const MAX_REQUIREMENTS = 100;
export const MAX_BUDGETS = 50;
export const MAX_LABELS = 100;
export const MAX_SELECTOR_TERMS = 30;
export const MAX_BLOCK_DEVICE_MAPPINGS = 50;
export const MAX_SELECTOR_TAGS = 20;
export const EVICTION_SIGNALS = [
  "memory.available",
  "nodefs.available",
  "nodefs.inodesFree",
  "imagefs.available",
  "imagefs.inodesFree",
  "pid.available",
] as const;
export const RESERVED_RESOURCES = ["cpu", "memory", "ephemeral-storage", "pid"] as const;
