import type { Budget, ConsolidationPolicy } from "./karpenter-api";

/**
 * Defaults of node classes and NodePools that more than one module names: the default class and pool (the
 * schemas' defaults), and those that depend on another field, which the renderers and the checks that
 * reason about rendered requirements apply (ami-selection, pool-requirements).
 */

export const DEFAULT_NODE_CLASS_NAME = "default";
export const DEFAULT_NODE_POOL_NAME = "default";

/**
 * Unless amiSelectorTerms are given. `@latest` follows every new EKS-optimized AMI, and each release drifts
 * (replaces) every node: pin a version such as `al2023@v20250807` in production so that AMI upgrades are a
 * reviewed change.
 */
export const DEFAULT_AMI_ALIAS = "al2023@latest";

/**
 * Unless blockDeviceMappings are given. Karpenter's own default for AL2023 is 20Gi; 50Gi leaves room for
 * container images (GPU images alone are 10 GB or more) at about 4 USD a month per node for gp3.
 */
export const DEFAULT_ROOT_VOLUME_SIZE = "50Gi";

/** Compute, general purpose and memory optimized; unless instanceFamilies is set. */
export const DEFAULT_INSTANCE_CATEGORIES: readonly string[] = ["c", "m", "r"];

/** Oldest instance generation a pool allows unless it says otherwise: 3 leaves out m1, c1, m2, t1 and friends. */
export const DEFAULT_MIN_GENERATION = 3;

/**
 * The NodePool CRD's defaults for spec.disruption (karpenter.sh_nodepools.yaml, v1.14.1): the block defaults to
 * {consolidateAfter: 0s}, the policy to WhenEmptyOrUnderutilized, the budgets to one of 10%. The config's pools
 * take the policy and budgets from here; its consolidateAfter default is its own (1m). A NodePool object read
 * from a cluster gets these where it leaves them out.
 */
export const CRD_DISRUPTION_DEFAULTS: {
  readonly consolidationPolicy: ConsolidationPolicy;
  readonly consolidateAfter: string;
  readonly budgets: readonly Budget[];
} = {
  consolidationPolicy: "WhenEmptyOrUnderutilized",
  consolidateAfter: "0s",
  budgets: [{ nodes: "10%" }],
};
