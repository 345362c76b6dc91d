// The OpenAPI `pattern`s of Karpenter 1.14's CRDs (pkg/apis/crds/karpenter.sh_nodepools.yaml and
// karpenter.k8s.aws_ec2nodeclasses.yaml), anchored where the CRD's are not (`ami-[0-9a-z]+` would accept
// "xami-1"). The API server is the real judge; these copies let synth say the same before anything is applied.

/** consolidateAfter and expireAfter. */
export const DURATION_OR_NEVER = /^(([0-9]+(s|m|h))+|Never)$/;
/** terminationGracePeriod: no "Never". */
export const DURATION = /^([0-9]+(s|m|h))+$/;
export const BUDGET_NODES = /^((100|[0-9]{1,2})%|[0-9]+)$/;
export const BUDGET_DURATION = /^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$/;
/** A Kubernetes resource quantity ("1000", "1000Gi", "500m"). */
export const QUANTITY = /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;
/** Label keys, requirement keys, taint keys and taint values: an optional DNS-subdomain prefix and "/", then a name. */
export const QUALIFIED_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** Label values and requirement values (at most 63 characters). */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
export const AMI_ID = /^ami-[0-9a-z]+$/;
export const VOLUME_SIZE =
  /^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$/;
/** evictionHard / evictionSoft values: a percentage or a quantity. */
export const EVICTION_THRESHOLD =
  /^((\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%||(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$/;
export const CAPACITY_RESERVATION_ID = /^cr-[0-9a-z]+$/;
export const AWS_ACCOUNT_ID = /^[0-9]{12}$/;
