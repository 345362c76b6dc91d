import { z } from "zod";
import { isZoneOfRegion } from "../config/aws-regions";
import { strictObject } from "../config/schema-helpers";
import {
  ALIAS_FAMILIES,
  ALIAS_MAX_LENGTH,
  AMI_FAMILIES,
  AMI_ID,
  aliasFamilyToAmiFamily,
  amiFamilyMismatchMessage,
  BUDGET_DURATION,
  BUDGET_NODES,
  BUDGET_SCHEDULE,
  COMPARISON_OPERATORS,
  CONSOLIDATION_POLICIES,
  DISRUPTION_REASONS,
  DURATION,
  DURATION_OR_NEVER,
  EVICTION_SIGNALS,
  EVICTION_THRESHOLD,
  LABEL_VALUE,
  MAX_BLOCK_DEVICE_MAPPINGS,
  MAX_BUDGETS,
  MAX_LABELS,
  MAX_REQUIREMENTS,
  MAX_SELECTOR_TAGS,
  MAX_SELECTOR_TERMS,
  MESSAGES,
  OPERATORS,
  QUALIFIED_KEY,
  QUANTITY,
  RESERVED_RESOURCES,
  restrictedLabelMessage,
  restrictedTagMessage,
  TAINT_EFFECTS,
  TAINT_VALUE,
  VOLUME_SIZE,
  VOLUME_TYPES,
  WINDOWS_ALIAS_FAMILIES,
} from "./crd-rules";

// The `nodeClasses` and `nodePools` fields of the cluster config: Karpenter EC2NodeClasses and NodePools.
// Single-field rules (patterns, enums, ranges) live in the zod schemas below; rules that relate several
// fields or objects (the CRDs' CEL rules, references between pools and classes) live in checkProvisioners,
// which reads the raw input so that it reports even when other fields are invalid.

// ---------------------------------------------------------------------------------------------------------
// Defaults

export const DEFAULT_NODE_CLASS_NAME = "default";
/**
 * `@latest` follows every new EKS-optimized AMI, and each release drifts (replaces) every node. Pin a version
 * such as `al2023@v20250807` in production so that AMI upgrades are a reviewed change.
 */
export const DEFAULT_AMI_ALIAS = "al2023@latest";
/**
 * Karpenter's own default for AL2023 is 20Gi; 50Gi leaves room for container images (GPU images alone are
 * 10 GB or more) at about 4 USD a month per node for gp3.
 */
export const DEFAULT_ROOT_VOLUME_SIZE = "50Gi";

// ---------------------------------------------------------------------------------------------------------
// Shared field schemas

/** DNS-1123 subdomain; at most 63 characters because Karpenter copies the name into a node label value. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const objectName = (kind: string, label: string) =>
  z
    .string({ error: `must be a string: the ${kind} name` })
    .max(63, { error: `must be at most 63 characters: the ${kind} name is the value of the ${label} node label` })
    .regex(DNS_SUBDOMAIN, {
      error: `must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (a Kubernetes ${kind} name)`,
    });

/** A quantity such as "1000Gi"; YAML integers (cpu: 1000) are accepted and written as strings. */
const quantity = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isInteger(v) ? String(v) : v),
    z
      .string({ error: `must be a ${what} quantity such as "1000", "1000Gi" or "500m"` })
      .regex(QUANTITY, { error: `must be a ${what} quantity such as "1000", "1000Gi" or "500m"` }),
  );

const labelValue = z.string().max(63, { error: "must be at most 63 characters (a label value)" }).regex(LABEL_VALUE, {
  error: "must be a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
});

const selectorTags = z
  .record(z.string(), z.string())
  .refine((tags) => Object.entries(tags).every(([k, v]) => k !== "" && v !== ""), { error: MESSAGES.emptySelectorTag })
  .refine((tags) => Object.keys(tags).length <= MAX_SELECTOR_TAGS, { error: `must hold at most ${MAX_SELECTOR_TAGS} tags` });

// ---------------------------------------------------------------------------------------------------------
// EC2NodeClass

/** The CEL rules of an alias, as one message: the first rule it breaks. */
function aliasProblem(alias: string): string | undefined {
  if (alias.length > ALIAS_MAX_LENGTH) return `must be at most ${ALIAS_MAX_LENGTH} characters`;
  if (!/^[a-zA-Z0-9]+@.+$/.test(alias)) return MESSAGES.aliasFormat;
  const [family, version] = alias.split("@");
  if (!(ALIAS_FAMILIES as readonly string[]).includes(family)) return MESSAGES.aliasFamily;
  if (WINDOWS_ALIAS_FAMILIES.includes(family) && version !== "latest") return MESSAGES.aliasWindowsLatest;
  return undefined;
}

const amiAlias = z.string().superRefine((alias, ctx) => {
  const message = aliasProblem(alias);
  if (message !== undefined) ctx.addIssue({ code: "custom", input: alias, message });
});

const amiSelectorTerm = strictObject({
  /** An EKS-optimized AMI, `family@version`. Must be the only term. */
  alias: amiAlias.optional(),
  id: z.string().regex(AMI_ID, { error: "must be an AMI id such as ami-0123456789abcdef0" }).optional(),
  /** The AMI's name (not its Name tag); `*` wildcards allowed. */
  name: z.string().min(1).optional(),
  /** Account ids, "self", "amazon" or "aws-marketplace"; with name or tags. */
  owner: z.string().min(1).optional(),
  /** An SSM parameter (name or ARN) holding the AMI id. */
  ssmParameter: z.string().min(1).optional(),
  tags: selectorTags.optional(),
});

const ebs = strictObject({
  volumeSize: z.string().regex(VOLUME_SIZE, { error: "must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)" }).optional(),
  volumeType: z.enum(VOLUME_TYPES).default("gp3"),
  iops: z.number().int().min(0).optional(),
  throughput: z.number().int().min(0).optional(),
  encrypted: z.boolean().default(true),
  kmsKeyID: z.string().min(1).optional(),
  snapshotID: z.string().min(1).optional(),
  deleteOnTermination: z.boolean().default(true),
});

const blockDeviceMapping = strictObject({
  deviceName: z.string().regex(/^\/dev\/[a-z0-9]+$/, { error: "must be a device name such as /dev/xvda" }),
  rootVolume: z.boolean().optional(),
  ebs: ebs.optional(),
});

const metadataOptions = strictObject({
  httpEndpoint: z.enum(["enabled", "disabled"]).default("enabled"),
  httpProtocolIPv6: z.enum(["enabled", "disabled"]).default("disabled"),
  /** 1 keeps pods (one network hop further away) from reaching the node's IMDS credentials. */
  httpPutResponseHopLimit: z.number().int().min(1, { error: "must be between 1 and 64" }).max(64, { error: "must be between 1 and 64" }).default(1),
  /** required = IMDSv2 only. */
  httpTokens: z.enum(["required", "optional"]).default("required"),
}).prefault({});

const reservedResources = z.record(z.string(), z.string().regex(QUANTITY, { error: 'must be a resource quantity such as "100m" or "1Gi"' }));
const evictionThresholds = z.record(
  z.string(),
  z.string().regex(EVICTION_THRESHOLD, { error: 'must be a percentage such as "10%" or a quantity such as "500Mi"' }),
);
const percent = z.number().int().min(0, { error: "must be between 0 and 100" }).max(100, { error: "must be between 0 and 100" });

const kubelet = strictObject({
  clusterDNS: z.array(z.string().min(1)).optional(),
  maxPods: z.number().int().min(0).optional(),
  podsPerCore: z.number().int().min(0).optional(),
  systemReserved: reservedResources.optional(),
  kubeReserved: reservedResources.optional(),
  evictionHard: evictionThresholds.optional(),
  evictionSoft: evictionThresholds.optional(),
  evictionSoftGracePeriod: z.record(z.string(), z.string().regex(DURATION, { error: 'must be a duration such as "1m30s"' })).optional(),
  evictionMaxPodGracePeriod: z.number().int().min(0).optional(),
  imageGCHighThresholdPercent: percent.optional(),
  imageGCLowThresholdPercent: percent.optional(),
  cpuCFSQuota: z.boolean().optional(),
});

const nodeClassSchema = strictObject({
  /** The EC2NodeClass name, referenced by NodePools' `nodeClass`. */
  name: objectName("EC2NodeClass", "karpenter.k8s.aws/ec2nodeclass"),
  /** Shorthand for `amiSelectorTerms: [{ alias }]`. Default al2023@latest when amiSelectorTerms is absent. */
  amiAlias: amiAlias.optional(),
  /** Instead of amiAlias: AMIs by id, name, tags or SSM parameter (then amiFamily is required). */
  amiSelectorTerms: z
    .array(amiSelectorTerm)
    .min(1, { error: "must list at least one term" })
    .max(MAX_SELECTOR_TERMS, { error: `must list at most ${MAX_SELECTOR_TERMS} terms` })
    .optional(),
  /** The user-data and block-device format; implied by an alias, required without one. */
  amiFamily: z.enum(AMI_FAMILIES).optional(),
  /**
   * The node IAM role. Default: the role this project creates, which has the EKS access entry nodes need to
   * join; another role needs its own access entry (type EC2_LINUX).
   */
  role: z.string().min(1, { error: MESSAGES.roleEmpty }).optional(),
  /** An instance profile you manage, instead of role (for example when Karpenter may not call IAM). */
  instanceProfile: z.string().min(1, { error: MESSAGES.instanceProfileEmpty }).optional(),
  /** Size of the root volume (gp3, encrypted), default 50Gi. Not allowed with blockDeviceMappings. */
  rootVolumeSize: z.string().regex(VOLUME_SIZE, { error: "must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)" }).optional(),
  /** Full control over the volumes, replacing the default root volume. */
  blockDeviceMappings: z
    .array(blockDeviceMapping)
    .min(1, { error: "must list at least one volume (omit it for the default root volume)" })
    .max(MAX_BLOCK_DEVICE_MAPPINGS, { error: `must list at most ${MAX_BLOCK_DEVICE_MAPPINGS} volumes` })
    .optional(),
  metadataOptions,
  kubelet: kubelet.optional(),
  /** Merged by Karpenter with its own bootstrap user data; the format depends on the AMI family. */
  userData: z.string().optional(),
  /** Tags on the instances, volumes and launch templates, over the cluster's tags. */
  tags: z.record(z.string(), z.string({ error: "tag values must be strings (quote numbers and booleans in YAML)" })).default({}),
})
  // Here rather than in checkProvisioners: the transform below drops rootVolumeSize, so only this step can
  // still see whether the user set it.
  .superRefine(
    (nodeClass, ctx) => {
      if (nodeClass.rootVolumeSize !== undefined && nodeClass.blockDeviceMappings !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["rootVolumeSize"],
          input: nodeClass.rootVolumeSize,
          message: "applies to the default root volume only; with blockDeviceMappings, set ebs.volumeSize on the root volume there",
        });
      }
    },
    { when: () => true },
  )
  .transform((nodeClass) => ({
    ...nodeClass,
    // Defaults that depend on another field are filled here, after parsing, so that checkProvisioners (which
    // may see this output) can still tell whether the user set them.
    amiAlias: nodeClass.amiSelectorTerms === undefined ? (nodeClass.amiAlias ?? DEFAULT_AMI_ALIAS) : nodeClass.amiAlias,
    rootVolumeSize: nodeClass.blockDeviceMappings === undefined ? (nodeClass.rootVolumeSize ?? DEFAULT_ROOT_VOLUME_SIZE) : undefined,
  }));

export const nodeClassesSchema = z
  .array(nodeClassSchema)
  .min(1, { error: "must list at least one node class (omit nodeClasses for the default one)" })
  .prefault([{ name: DEFAULT_NODE_CLASS_NAME }]);

/** A node class with every default filled in. */
export type NodeClassConfig = z.output<typeof nodeClassSchema>;

// ---------------------------------------------------------------------------------------------------------
// NodePool

const taint = strictObject({
  key: z
    .string()
    .min(1)
    .max(316)
    .regex(QUALIFIED_KEY, { error: "must be a taint key such as nvidia.com/gpu: an optional DNS prefix and '/', then letters, digits, '-', '_' and '.'" }),
  value: z.string().regex(TAINT_VALUE, { error: "must start and end with a letter or digit; letters, digits, '-', '_', '.' and one '/' inside" }).optional(),
  effect: z.enum(TAINT_EFFECTS),
});

const budget = strictObject({
  /** How many nodes may be disrupted at once: a count ("5") or a percentage ("10%"). */
  nodes: z.preprocess(
    (v) => (typeof v === "number" && Number.isInteger(v) ? String(v) : v),
    z.string().regex(BUDGET_NODES, { error: 'must be a node count such as "5" or a percentage such as "10%"' }),
  ),
  /** Cron schedule (UTC) when the budget starts; needs duration. */
  schedule: z.string().regex(BUDGET_SCHEDULE, { error: 'must be a cron expression such as "0 9 * * mon-fri" or a macro such as @daily' }).optional(),
  duration: z.string().regex(BUDGET_DURATION, { error: 'must be a duration in hours and minutes such as "8h" or "1h30m"' }).optional(),
  reasons: z.array(z.enum(DISRUPTION_REASONS)).optional(),
});

const requirement = strictObject({
  key: z
    .string()
    .max(316, { error: "must be at most 316 characters" })
    .regex(QUALIFIED_KEY, { error: "must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'" }),
  operator: z.enum(OPERATORS),
  values: z.array(labelValue).optional(),
  /** How many distinct values a launch must be able to choose from (spot diversity). */
  minValues: z.number().int().min(1, { error: "must be between 1 and 50" }).max(50, { error: "must be between 1 and 50" }).optional(),
});

const lowercaseName = (what: string, example: string) =>
  z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, { error: `must be an instance ${what} such as ${example}` });

const nonEmptyList = <T extends z.ZodType>(item: T) => z.array(item).min(1, { error: "must list at least one value (omit the field to leave it open)" });

const DEFAULT_CATEGORIES = ["c", "m", "r"];

const nodePoolSchema = strictObject({
  /** The NodePool name. */
  name: objectName("NodePool", "karpenter.sh/nodepool"),
  /** The `name` of one of nodeClasses. */
  nodeClass: z.string().default(DEFAULT_NODE_CLASS_NAME),
  architectures: nonEmptyList(z.enum(["amd64", "arm64"])).default(["amd64", "arm64"]),
  /** reserved = On-Demand Capacity Reservations selected by the node class. */
  capacityTypes: nonEmptyList(z.enum(["spot", "on-demand", "reserved"])).default(["spot", "on-demand"]),
  /** Default c, m and r (compute, general purpose, memory) unless instanceFamilies is set. */
  instanceCategories: nonEmptyList(z.string().regex(/^[a-z]+$/, { error: "must be an instance category such as c, m, r, g or p" })).optional(),
  instanceFamilies: nonEmptyList(lowercaseName("family", "m7g or g5")).optional(),
  instanceSizes: nonEmptyList(lowercaseName("size", "xlarge or 2xlarge")).optional(),
  /** Oldest instance generation allowed: 3 excludes m1, c1, m2, t1 and friends. */
  minGeneration: z.number().int().min(1, { error: "must be at least 1" }).default(3),
  /** Zones of the cluster's region to launch in; default all zones with Karpenter subnets. */
  zones: nonEmptyList(z.string()).optional(),
  /** Labels on every node of the pool. */
  labels: z
    .record(z.string(), labelValue)
    .refine((labels) => Object.keys(labels).length <= MAX_LABELS, { error: `must hold at most ${MAX_LABELS} labels` })
    .default({}),
  taints: z.array(taint).default([]),
  /** Taints that a DaemonSet removes once the node is ready (ignored when scheduling). */
  startupTaints: z.array(taint).default([]),
  /** Upper bounds on the pool's total resources; a guard against runaway scaling and cost. */
  limits: z.record(z.string(), quantity("resource")).default({ cpu: "1000", memory: "1000Gi" }),
  /** Higher weights are tried first (1-100). */
  weight: z.number().int().min(1, { error: "must be between 1 and 100" }).max(100, { error: "must be between 1 and 100" }).optional(),
  consolidationPolicy: z.enum(CONSOLIDATION_POLICIES).default("WhenEmptyOrUnderutilized"),
  consolidateAfter: z.string().regex(DURATION_OR_NEVER, { error: 'must be a duration such as "30s", "1m" or "1h30m", or "Never"' }).default("1m"),
  budgets: z
    .array(budget)
    .max(MAX_BUDGETS, { error: `must list at most ${MAX_BUDGETS} budgets` })
    .default([{ nodes: "10%" }]),
  /** Nodes are replaced after this age (picks up new AMIs); "Never" disables it. */
  expireAfter: z.string().regex(DURATION_OR_NEVER, { error: 'must be a duration such as "720h", or "Never"' }).default("720h"),
  /** How long a draining node waits for its pods before they are deleted; default forever. */
  terminationGracePeriod: z.string().regex(DURATION, { error: 'must be a duration such as "48h" or "30m"' }).optional(),
  /** Extra raw requirements, ANDed with those above. */
  requirements: z
    .array(requirement)
    .max(MAX_REQUIREMENTS, { error: `must list at most ${MAX_REQUIREMENTS} requirements` })
    .default([]),
}).transform((pool) => ({
  ...pool,
  instanceCategories: pool.instanceCategories ?? (pool.instanceFamilies === undefined ? DEFAULT_CATEGORIES : undefined),
}));

export const nodePoolsSchema = z
  .array(nodePoolSchema)
  .min(1, { error: "must list at least one NodePool: Karpenter launches every workload node from one (omit nodePools for the default pool)" })
  .prefault([{ name: "default" }]);

/** A NodePool with every default filled in. */
export type NodePoolConfig = z.output<typeof nodePoolSchema>;

/** How many requirements a pool's own fields generate (see renderNodePool); counted against the CRD's 100. */
export function generatedRequirementCount(pool: {
  instanceCategories?: unknown;
  instanceFamilies?: unknown;
  instanceSizes?: unknown;
  zones?: unknown;
}): number {
  // arch, os, capacity type and generation are always present.
  return 4 + [pool.instanceCategories, pool.instanceFamilies, pool.instanceSizes, pool.zones].filter((v) => v !== undefined).length;
}

// ---------------------------------------------------------------------------------------------------------
// Checks across fields and objects

type Path = (string | number)[];
type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o: Raw, key: string): boolean => o[key] !== undefined;

/**
 * The CEL rules of the two CRDs that involve more than one field, and the references between pools and
 * classes. Runs even when single fields failed, so every read is defensive. What it sees is zod's value
 * for each list: parsed (defaults filled) where parsing succeeded, the raw input where it did not.
 */
export function checkProvisioners(input: { nodeClasses: unknown; nodePools: unknown; region: string | undefined }, ctx: z.RefinementCtx): void {
  const issue = (path: Path, value: unknown, message: string) => ctx.addIssue({ code: "custom", path, input: value, message });

  const classes = input.nodeClasses === undefined ? [{ name: DEFAULT_NODE_CLASS_NAME }] : Array.isArray(input.nodeClasses) ? input.nodeClasses : undefined;
  if (Array.isArray(input.nodeClasses)) {
    checkUniqueNames(input.nodeClasses, ["nodeClasses"], "node class", issue);
    input.nodeClasses.forEach((nodeClass, i) => {
      if (isRecord(nodeClass)) checkNodeClass(nodeClass, ["nodeClasses", i], issue);
    });
  }
  const classNames = classes && [...new Set(classes.map((c) => (isRecord(c) ? c.name : undefined)).filter((n): n is string => typeof n === "string"))];

  // Omitted nodePools arrive here already replaced by the default pool.
  const pools = input.nodePools === undefined ? [{ name: "default" }] : input.nodePools;
  if (!Array.isArray(pools)) return;
  checkUniqueNames(pools, ["nodePools"], "NodePool", issue);
  pools.forEach((pool, i) => {
    if (isRecord(pool)) checkNodePool(pool, ["nodePools", i], { classNames, region: input.region }, issue);
  });
  checkWindowsArchitectures(classes ?? [], pools, issue);
}

/** EKS runs Windows nodes on amd64 only: a pool that allows arm64 with a Windows class finds no instance type. */
function checkWindowsArchitectures(classes: readonly unknown[], pools: readonly unknown[], issue: Report): void {
  const windowsAlias = (alias: unknown) => typeof alias === "string" && alias.toLowerCase().startsWith("windows");
  const isWindows = (c: Raw) =>
    windowsAlias(c.amiAlias) ||
    (Array.isArray(c.amiSelectorTerms) && c.amiSelectorTerms.some((t) => isRecord(t) && windowsAlias(t.alias))) ||
    (typeof c.amiFamily === "string" && c.amiFamily.startsWith("Windows"));
  const windowsClasses = new Set(classes.filter((c): c is Raw => isRecord(c) && isWindows(c)).map((c) => c.name));
  pools.forEach((pool, i) => {
    if (!isRecord(pool) || !windowsClasses.has(pool.nodeClass ?? DEFAULT_NODE_CLASS_NAME)) return;
    if (Array.isArray(pool.architectures) && pool.architectures.includes("arm64")) {
      issue(
        ["nodePools", i, "architectures"],
        pool.architectures,
        `must be [amd64] with the Windows node class ${String(pool.nodeClass)}: EKS runs Windows nodes on amd64 only`,
      );
    }
  });
}

type Report = (path: Path, value: unknown, message: string) => void;

function checkUniqueNames(items: readonly unknown[], path: Path, what: string, issue: Report): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const name = isRecord(item) ? item.name : undefined;
    if (typeof name !== "string") return;
    if (seen.has(name)) issue([...path, i, "name"], name, `is listed twice; each ${what} name may appear once`);
    seen.add(name);
  });
}

function checkNodeClass(c: Raw, path: Path, issue: Report): void {
  if (has(c, "amiAlias") && has(c, "amiSelectorTerms")) {
    issue([...path, "amiSelectorTerms"], c.amiSelectorTerms, "cannot be combined with amiAlias; set one of them");
  }
  if (has(c, "role") && has(c, "instanceProfile")) {
    issue(path, { role: c.role, instanceProfile: c.instanceProfile }, MESSAGES.exactlyOneRoleOrProfile);
  }

  // The terms the EC2NodeClass will carry: the explicit list, or the alias shorthand (or its default).
  const terms: unknown[] | undefined = Array.isArray(c.amiSelectorTerms)
    ? c.amiSelectorTerms
    : c.amiSelectorTerms === undefined
      ? [{ alias: typeof c.amiAlias === "string" ? c.amiAlias : DEFAULT_AMI_ALIAS }]
      : undefined;
  if (terms !== undefined) {
    if (Array.isArray(c.amiSelectorTerms)) checkAmiSelectorTerms(terms, [...path, "amiSelectorTerms"], issue);
    const aliases = terms.map((t) => (isRecord(t) && typeof t.alias === "string" ? t.alias : undefined)).filter((a): a is string => a !== undefined);
    if (terms.length > 0 && aliases.length === 0 && !has(c, "amiFamily")) issue([...path, "amiFamily"], undefined, MESSAGES.amiFamilyRequired);
    if (typeof c.amiFamily === "string" && (AMI_FAMILIES as readonly string[]).includes(c.amiFamily)) {
      for (const family of new Set(aliases.map((a) => a.split("@")[0]))) {
        if (!(ALIAS_FAMILIES as readonly string[]).includes(family)) continue;
        if (c.amiFamily !== "Custom" && c.amiFamily !== aliasFamilyToAmiFamily(family))
          issue([...path, "amiFamily"], c.amiFamily, amiFamilyMismatchMessage(family));
      }
    }
  }

  if (isRecord(c.tags)) {
    for (const key of Object.keys(c.tags)) {
      const message = restrictedTagMessage(key);
      if (message !== undefined) issue([...path, "tags", key], key, message);
    }
  }

  if (Array.isArray(c.blockDeviceMappings)) {
    const roots = c.blockDeviceMappings.filter((m) => isRecord(m) && m.rootVolume === true);
    if (roots.length > 1)
      issue(
        [...path, "blockDeviceMappings"],
        roots.map((m) => (m as Raw).deviceName),
        MESSAGES.singleRootVolume,
      );
    c.blockDeviceMappings.forEach((m, j) => {
      if (isRecord(m) && isRecord(m.ebs) && !has(m.ebs, "snapshotID") && !has(m.ebs, "volumeSize")) {
        issue([...path, "blockDeviceMappings", j, "ebs"], m.ebs, MESSAGES.snapshotOrSize);
      }
    });
  }

  if (isRecord(c.kubelet)) checkKubelet(c.kubelet, [...path, "kubelet"], issue);
}

function checkAmiSelectorTerms(terms: readonly unknown[], path: Path, issue: Report): void {
  const hasAlias = terms.some((t) => isRecord(t) && has(t, "alias"));
  if (hasAlias && terms.length !== 1) issue(path, terms, MESSAGES.aliasExclusiveTerms);
  terms.forEach((term, j) => {
    if (!isRecord(term)) return;
    const set = (...keys: string[]) => keys.some((k) => has(term, k));
    if (!set("tags", "id", "name", "alias", "ssmParameter")) issue([...path, j], term, MESSAGES.amiTermEmpty);
    if (has(term, "id") && set("alias", "tags", "name", "owner")) issue([...path, j], term, MESSAGES.amiIdExclusive);
    if (has(term, "alias") && set("id", "tags", "name", "owner")) issue([...path, j], term, MESSAGES.aliasExclusiveFields);
  });
}

function checkKubelet(k: Raw, path: Path, issue: Report): void {
  const high = k.imageGCHighThresholdPercent;
  const low = k.imageGCLowThresholdPercent;
  if (typeof high === "number" && typeof low === "number" && high <= low) issue([...path, "imageGCHighThresholdPercent"], high, MESSAGES.imageGC);

  for (const field of ["evictionHard", "evictionSoft", "evictionSoftGracePeriod"]) {
    const map = k[field];
    if (!isRecord(map)) continue;
    for (const key of Object.keys(map)) {
      if (!(EVICTION_SIGNALS as readonly string[]).includes(key)) issue([...path, field, key], key, MESSAGES.evictionKeys(field));
    }
  }
  const soft = isRecord(k.evictionSoft) ? Object.keys(k.evictionSoft) : undefined;
  const grace = isRecord(k.evictionSoftGracePeriod) ? Object.keys(k.evictionSoftGracePeriod) : undefined;
  for (const key of soft ?? []) {
    if (!grace?.includes(key)) issue([...path, "evictionSoft", key], key, MESSAGES.evictionSoftWithoutGrace);
  }
  for (const key of grace ?? []) {
    if (!soft?.includes(key)) issue([...path, "evictionSoftGracePeriod", key], key, MESSAGES.evictionGraceWithoutSoft);
  }

  for (const field of ["kubeReserved", "systemReserved"]) {
    const map = k[field];
    if (!isRecord(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      if (!(RESERVED_RESOURCES as readonly string[]).includes(key)) issue([...path, field, key], key, MESSAGES.reservedKeys(field));
      else if (typeof value === "string" && value.startsWith("-")) issue([...path, field, key], value, MESSAGES.reservedNegative(field));
    }
  }
}

/** The category of an instance family: its leading letters ("g" for g5, "inf" for inf2, "u" for u-6tb1). */
export function instanceCategoryOf(family: string): string {
  return /^[a-z]+/.exec(family)?.[0] ?? family;
}

function checkNodePool(p: Raw, path: Path, context: { classNames: string[] | undefined; region: string | undefined }, issue: Report): void {
  const { classNames, region } = context;
  const nodeClass = p.nodeClass ?? DEFAULT_NODE_CLASS_NAME;
  if (classNames !== undefined && classNames.length > 0 && typeof nodeClass === "string" && !classNames.includes(nodeClass)) {
    // The user may not have written "default": it is the default of nodeClass, and of nodePools.
    const hint = nodeClass === DEFAULT_NODE_CLASS_NAME ? ` (the default node class; set nodeClass, or keep a node class named ${DEFAULT_NODE_CLASS_NAME})` : "";
    issue([...path, "nodeClass"], nodeClass, `must name one of the nodeClasses: ${classNames.join(", ")}${hint}`);
  }

  if (region !== undefined && Array.isArray(p.zones)) {
    p.zones.forEach((zone, k) => {
      if (typeof zone === "string" && !isZoneOfRegion(zone, region)) {
        issue([...path, "zones", k], zone, `is not an availability zone of ${region}; expected ${region} followed by a zone letter, such as ${region}a`);
      }
    });
  }

  if (Array.isArray(p.instanceFamilies) && Array.isArray(p.instanceCategories)) {
    const categories = p.instanceCategories.filter((c): c is string => typeof c === "string");
    p.instanceFamilies.forEach((family, k) => {
      if (typeof family !== "string") return;
      const category = instanceCategoryOf(family);
      if (!categories.includes(category)) {
        issue(
          [...path, "instanceFamilies", k],
          family,
          `is in instance category "${category}", which instanceCategories (${categories.join(
            ", ",
          )}) leaves out, so no instance type could match; add "${category}" to instanceCategories or remove this family`,
        );
      }
    });
  }

  if (isRecord(p.labels)) {
    for (const key of Object.keys(p.labels)) {
      if (key.length > 316 || !QUALIFIED_KEY.test(key)) {
        issue([...path, "labels", key], key, "must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'");
        continue;
      }
      const message = restrictedLabelMessage(key);
      if (message !== undefined) issue([...path, "labels", key], key, message);
    }
  }

  if (Array.isArray(p.requirements)) {
    const generated = generatedRequirementCount({
      instanceCategories: p.instanceCategories ?? (p.instanceFamilies === undefined ? DEFAULT_CATEGORIES : undefined),
      instanceFamilies: p.instanceFamilies,
      instanceSizes: p.instanceSizes,
      zones: p.zones,
    });
    if (p.requirements.length <= MAX_REQUIREMENTS && p.requirements.length + generated > MAX_REQUIREMENTS) {
      issue(
        [...path, "requirements"],
        p.requirements.length,
        `must list at most ${MAX_REQUIREMENTS - generated} requirements: the CRD allows ${MAX_REQUIREMENTS} and this pool's other fields generate ${generated}`,
      );
    }
    p.requirements.forEach((r, j) => {
      if (isRecord(r)) checkRequirement(r, [...path, "requirements", j], issue);
    });
  }

  if (Array.isArray(p.budgets)) {
    p.budgets.forEach((b, k) => {
      if (isRecord(b) && has(b, "schedule") !== has(b, "duration")) issue([...path, "budgets", k], b, MESSAGES.budgetScheduleDuration);
    });
  }
}

function checkRequirement(r: Raw, path: Path, issue: Report): void {
  if (typeof r.key === "string") {
    const message = restrictedLabelMessage(r.key);
    if (message !== undefined) issue([...path, "key"], r.key, message);
  }
  const values = Array.isArray(r.values) ? r.values : [];
  if (r.operator === "In" && values.length === 0) issue([...path, "values"], r.values, MESSAGES.inNeedsValues);
  if (typeof r.operator === "string" && COMPARISON_OPERATORS.includes(r.operator)) {
    if (!(values.length === 1 && typeof values[0] === "string" && /^[0-9]{1,18}$/.test(values[0])))
      issue([...path, "values"], r.values, MESSAGES.comparisonNeedsInteger);
  }
  if (r.operator === "In" && typeof r.minValues === "number" && values.length > 0 && values.length < r.minValues) {
    issue([...path, "minValues"], r.minValues, MESSAGES.minValuesExceedValues);
  }
}
