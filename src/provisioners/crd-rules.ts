/**
 * Facts copied from Karpenter 1.14's CRDs (pkg/apis/crds/karpenter.sh_nodepools.yaml and
 * karpenter.k8s.aws_ec2nodeclasses.yaml): the OpenAPI patterns and enums, and the messages of the CEL rules
 * (x-kubernetes-validations). The API server is the real judge; these copies let `cdktf synth` report the
 * same problems before anything is applied. Messages are verbatim so a user can search them upstream.
 */

// ---------------------------------------------------------------------------------------------------------
// Patterns (OpenAPI `pattern`), anchored where the CRD's are not (`ami-[0-9a-z]+` would accept "xami-1").

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

// ---------------------------------------------------------------------------------------------------------
// Enums and bounds

export const AMI_FAMILIES = ["AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025"] as const;
export const ALIAS_FAMILIES = ["al2", "al2023", "bottlerocket", "windows2019", "windows2022", "windows2025"] as const;
export const WINDOWS_ALIAS_FAMILIES: readonly string[] = ["windows2019", "windows2022", "windows2025"];
export const ALIAS_MAX_LENGTH = 30;
export const VOLUME_TYPES = ["standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"] as const;
export const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"] as const;
export const COMPARISON_OPERATORS: readonly string[] = ["Gt", "Lt", "Gte", "Lte"];
export const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"] as const;
export const CONSOLIDATION_POLICIES = ["WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"] as const;
export const DISRUPTION_REASONS = ["Underutilized", "Empty", "Drifted"] as const;
export const MAX_REQUIREMENTS = 100;
export const MAX_BUDGETS = 50;
export const MAX_LABELS = 100;
export const MAX_SELECTOR_TERMS = 30;
export const MAX_BLOCK_DEVICE_MAPPINGS = 50;
export const MAX_SELECTOR_TAGS = 20;
export const CAPACITY_RESERVATION_ID = /^cr-[0-9a-z]+$/;
export const AWS_ACCOUNT_ID = /^[0-9]{12}$/;
export const EVICTION_SIGNALS = [
  "memory.available",
  "nodefs.available",
  "nodefs.inodesFree",
  "imagefs.available",
  "imagefs.inodesFree",
  "pid.available",
] as const;
export const RESERVED_RESOURCES = ["cpu", "memory", "ephemeral-storage", "pid"] as const;

// ---------------------------------------------------------------------------------------------------------
// CEL messages (x-kubernetes-validations), verbatim

export const MESSAGES = {
  reservationTermEmpty: "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']",
  reservationIdExclusive: "'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term",
  budgetScheduleDuration: "'schedule' must be set with 'duration'",
  inNeedsValues: "requirements with operator 'In' must have a value defined",
  comparisonNeedsInteger: "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
  minValuesExceedValues: "requirements with 'minValues' must have at least that many values specified in the 'values' field",
  exactlyOneRoleOrProfile: "must specify exactly one of ['role', 'instanceProfile']",
  roleEmpty: "role cannot be empty",
  instanceProfileEmpty: "instanceProfile cannot be empty",
  amiFamilyRequired: "must specify amiFamily if amiSelectorTerms does not contain an alias",
  amiTermEmpty: "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']",
  amiIdExclusive: "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
  aliasExclusiveFields: "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
  aliasExclusiveTerms: "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms",
  aliasFormat: "'alias' is improperly formatted, must match the format 'family@version'",
  aliasFamily: `family is not supported, must be one of the following: ${ALIAS_FAMILIES.map((f) => `'${f}'`).join(", ")}`,
  aliasWindowsLatest: "windows families may only specify version 'latest'",
  emptySelectorTag: "empty tag keys or values aren't supported",
  emptyTagKey: "empty tag keys aren't supported",
  singleRootVolume: "must have only one blockDeviceMappings with rootVolume",
  snapshotOrSize: "snapshotID or volumeSize must be defined",
  imageGC: "imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent",
  evictionSoftWithoutGrace: "evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod",
  evictionGraceWithoutSoft: "evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft",
  evictionKeys: (field: string) => `valid keys for ${field} are [${EVICTION_SIGNALS.map((s) => `'${s}'`).join(",")}]`,
  reservedKeys: (field: string) => `valid keys for ${field} are [${RESERVED_RESOURCES.map((s) => `'${s}'`).join(",")}]`,
  reservedNegative: (field: string) => `${field} value cannot be a negative resource quantity`,
} as const;

/** "if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias" for an alias family. */
export function amiFamilyMismatchMessage(aliasFamily: string): string {
  const family = aliasFamilyToAmiFamily(aliasFamily);
  const article = /^[AEIOU]/.test(family) ? "an" : "a";
  return `if set, amiFamily must be '${family}' or 'Custom' when using ${article} ${family} alias`;
}

/** "al2023" → "AL2023": the amiFamily an alias family implies. */
export function aliasFamilyToAmiFamily(aliasFamily: string): (typeof AMI_FAMILIES)[number] {
  const found = AMI_FAMILIES.find((f) => f.toLowerCase() === aliasFamily);
  if (found === undefined) throw new Error(`unknown alias family ${aliasFamily}`);
  return found;
}

// ---------------------------------------------------------------------------------------------------------
// Runtime validation (pkg/apis/v1/nodeclaim_validation.go), which runs after admission: a NodePool that
// breaks it is stored, then stays NotReady and launches nothing.

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
  "karpenter.sh/capacity-type": {
    values: ["on-demand", "spot", "reserved"],
    otherwise: "Karpenter's runtime validation keeps its NodePool NotReady, and it launches nothing",
  },
  "karpenter.k8s.aws/instance-tenancy": {
    values: ["default", "dedicated"],
    otherwise: "no instance type offers another, so the pool never launches a node",
  },
};

/** Gt, Lt, Gte and Lte values: strconv.Atoi in Karpenter, so a non-negative int64. */
export function isNonNegativeInt64(value: string): boolean {
  return /^[0-9]{1,19}$/.test(value) && BigInt(value) <= 2n ** 63n - 1n;
}

// ---------------------------------------------------------------------------------------------------------
// Restricted label keys (NodePool template labels and requirement keys)

/** The karpenter.k8s.aws labels a NodePool may use; every other key of that domain is restricted. */
export const WELL_KNOWN_AWS_LABELS: readonly string[] = [
  "instance-tenancy",
  "capacity-reservation-type",
  "capacity-reservation-id",
  "capacity-reservation-interruptible",
  "ec2nodeclass",
  "instance-encryption-in-transit-supported",
  "nitro-sandbox",
  "instance-category",
  "instance-hypervisor",
  "instance-family",
  "instance-generation",
  "instance-local-nvme",
  "instance-size",
  "instance-cpu",
  "instance-cpu-manufacturer",
  "instance-cpu-sustained-clock-speed-mhz",
  "instance-memory",
  "instance-ebs-bandwidth",
  "instance-network-bandwidth",
  "instance-gpu-name",
  "instance-gpu-manufacturer",
  "instance-gpu-count",
  "instance-gpu-memory",
  "instance-accelerator-name",
  "instance-accelerator-manufacturer",
  "instance-accelerator-count",
  "instance-capability-flex",
  "placement-group-id",
  "placement-group-partition",
].map((name) => `karpenter.k8s.aws/${name}`);

const domainOf = (key: string): string => key.split("/")[0];

/**
 * The CEL message a label or requirement key breaks, or undefined. The CRD has one rule per restriction;
 * the API server would report each broken rule, but one key breaks at most one of them here, so one line.
 */
export function restrictedLabelMessage(key: string): string | undefined {
  if (key === "karpenter.sh/nodepool") return 'label "karpenter.sh/nodepool" is restricted';
  if (key === "kubernetes.io/hostname") return 'label "kubernetes.io/hostname" is restricted';
  if (domainOf(key).endsWith("karpenter.sh") && key !== "karpenter.sh/capacity-type") return 'label domain "karpenter.sh" is restricted';
  if (domainOf(key).endsWith("karpenter.k8s.aws") && !WELL_KNOWN_AWS_LABELS.includes(key)) return 'label domain "karpenter.k8s.aws" is restricted';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Restricted EC2NodeClass tags: Karpenter sets these itself and its IAM policy conditions rely on them.

export function restrictedTagMessage(key: string): string | undefined {
  if (key === "") return MESSAGES.emptyTagKey;
  if (key === "eks:eks-cluster-name") return "tag contains a restricted tag matching eks:eks-cluster-name";
  if (key.startsWith("kubernetes.io/cluster")) return "tag contains a restricted tag matching kubernetes.io/cluster/";
  for (const exact of ["karpenter.sh/nodepool", "karpenter.sh/nodeclaim", "karpenter.k8s.aws/ec2nodeclass"]) {
    if (key === exact) return `tag contains a restricted tag matching ${exact}`;
  }
  return undefined;
}
