/**
 * The Karpenter release this project is written for, and what follows from it. The controller IAM policy
 * (src/karpenter/controller-policy-statements.ts), the chart values and the CRD rules (src/provisioners)
 * are that release's; change them together.
 */
export const KARPENTER_VERSION = "1.14.1";

/**
 * Kubernetes minor versions that Karpenter 1.14 supports and EKS offers (Karpenter's compatibility matrix:
 * 1.36 needs >= 1.13; the oldest is the oldest EKS still runs in extended support).
 * @see https://karpenter.sh/v1.14/upgrading/compatibility/
 */
export const SUPPORTED_KUBERNETES_VERSIONS = ["1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36"] as const;

export const DEFAULT_KUBERNETES_VERSION = "1.35";
