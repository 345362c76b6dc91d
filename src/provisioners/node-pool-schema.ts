import { z } from "zod";
import { parseQuantity } from "../shared/quantity";
import { checkedString, repeatedIndexes, strictObject, withChecks } from "../shared/schema-helpers";
import { CAPACITY_TYPES } from "../shared/vocabulary/capacity-types";
import { COMPARISON_OPERATORS, REQUIREMENT_OPERATORS } from "../shared/vocabulary/requirement-operators";
import { cronScheduleProblem } from "./cron-schedule";
import { goDuration, labelKey, labels, labelValue, lowercaseName, nonEmptyList, objectName, quantity, taint } from "./field-schemas";
import { instanceCategoryOf, selectionRequirements } from "./pool-requirements";
import { DEFAULT_MIN_GENERATION, DEFAULT_NODE_CLASS_NAME, DEFAULT_NODE_POOL_NAME } from "./provisioner-defaults";
import { CONSOLIDATION_POLICIES, DISRUPTION_REASONS, MAX_BUDGETS, MAX_LABELS, MAX_REQUIREMENTS } from "./rules/crd-limits";
import { MESSAGES } from "./rules/crd-messages";
import { BUDGET_DURATION, BUDGET_NODES, DURATION, DURATION_OR_NEVER } from "./rules/crd-patterns";
import { isNonNegativeInt64, WELL_KNOWN_VALUES } from "./rules/runtime-validation";

// The `nodePools` field of the cluster config: Karpenter NodePools, with the CRD's rules.

/** A count ("5") or a percentage ("10%"); YAML integers are accepted and written as strings. */
const budgetNodes = z.preprocess(
  (v) => (typeof v === "number" && Number.isInteger(v) ? String(v) : v),
  z.string().regex(BUDGET_NODES, { error: 'must be a node count such as "5" or a percentage such as "10%"' }),
);

/** True for a quantity below zero ("-5", "-0.5Gi"); "-0" is zero. */
const isNegativeQuantity = (quantity: string): boolean => (parseQuantity(quantity) ?? 0) < 0;

/**
 * Karpenter accepts any quantity here (the CRD's pattern allows a sign, and its runtime validation has no limits
 * rule), but a pool counts as over its limits when its usage exceeds them: below zero it never launches a node.
 * Zero is allowed, and documented, as the way to pause a pool.
 */
const limit = quantity("resource").refine((q) => !isNegativeQuantity(q), {
  error: "must not be negative: the pool would be over its limit from the start and never launch a node (0 pauses a pool)",
});

const budget = withChecks(
  strictObject({
    /** How many nodes may be disrupted at once. */
    nodes: budgetNodes,
    /** Cron schedule (UTC) when the budget starts; needs duration. */
    schedule: checkedString((schedule) => {
      const problem = cronScheduleProblem(schedule);
      return problem === undefined ? undefined : `must be a cron schedule such as "0 9 * * mon-fri" (UTC) or a macro such as @daily: ${problem}`;
    }).optional(),
    duration: goDuration(z.string().regex(BUDGET_DURATION, { error: 'must be a duration in hours and minutes such as "8h" or "1h30m"' })).optional(),
    reasons: z.array(z.enum(DISRUPTION_REASONS)).optional(),
  }),
  [
    {
      reads: ["schedule", "duration"],
      check: (b, report) => {
        if ((b.schedule === undefined) !== (b.duration === undefined)) report([], b, MESSAGES.budgetScheduleDuration);
      },
    },
  ],
);

const requirement = withChecks(
  strictObject({
    key: labelKey,
    operator: z.enum(REQUIREMENT_OPERATORS),
    values: z.array(labelValue).optional(),
    /** How many distinct values a launch must be able to choose from (spot diversity). */
    minValues: z.number().int().min(1, { error: "must be between 1 and 50" }).max(50, { error: "must be between 1 and 50" }).optional(),
  }),
  [
    {
      reads: ["operator", "values"],
      check: ({ operator, values }, report) => {
        if (operator === "In" && (values ?? []).length === 0) report(["values"], values, MESSAGES.inNeedsValues);
        if (COMPARISON_OPERATORS.includes(operator) && !(values?.length === 1 && isNonNegativeInt64(values[0]))) {
          report(["values"], values, MESSAGES.comparisonNeedsInteger);
        }
      },
    },
    {
      reads: ["operator", "values", "minValues"],
      check: ({ operator, values, minValues }, report) => {
        const count = values?.length ?? 0;
        if (operator === "In" && minValues !== undefined && count > 0 && count < minValues) report(["minValues"], minValues, MESSAGES.minValuesExceedValues);
      },
    },
    {
      reads: ["key", "operator", "values", "minValues"],
      check: ({ key, operator, values = [], minValues }, report) => {
        const known = WELL_KNOWN_VALUES[key];
        if (known === undefined || operator !== "In" || values.length === 0) return;
        const valid = values.filter((v) => known.values.includes(v));
        const expected = `Karpenter knows ${known.values.join(", ")} for ${key}; ${known.otherwise}`;
        if (valid.length === 0) report(["values"], values, `has no valid value: ${expected}`);
        else if (minValues !== undefined && valid.length < minValues)
          report(["minValues"], minValues, `is more than the ${valid.length} valid values: ${expected}`);
      },
    },
  ],
);

const nodePoolFields = strictObject({
  /** The NodePool name. */
  name: objectName("NodePool", "karpenter.sh/nodepool"),
  /** The `name` of one of nodeClasses. */
  nodeClass: z.string().default(DEFAULT_NODE_CLASS_NAME),
  architectures: nonEmptyList(z.enum(["amd64", "arm64"])).default(["amd64", "arm64"]),
  /** reserved = On-Demand Capacity Reservations selected by the node class. */
  capacityTypes: nonEmptyList(z.enum(CAPACITY_TYPES)).default(["spot", "on-demand"]),
  /** Default c, m and r (compute, general purpose, memory) unless instanceFamilies is set. */
  instanceCategories: nonEmptyList(z.string().regex(/^[a-z]+$/, { error: "must be an instance category such as c, m, r, g or p" })).optional(),
  instanceFamilies: nonEmptyList(lowercaseName("family", "m7g or g5")).optional(),
  instanceSizes: nonEmptyList(lowercaseName("size", "xlarge or 2xlarge")).optional(),
  /** Oldest instance generation allowed: 3 excludes m1, c1, m2, t1 and friends. */
  minGeneration: z.number().int().min(1, { error: "must be at least 1" }).default(DEFAULT_MIN_GENERATION),
  /** Zones of the cluster's region to launch in; default all zones with Karpenter subnets. */
  zones: nonEmptyList(z.string()).optional(),
  /** Labels on every node of the pool. */
  labels: labels(MAX_LABELS).default({}),
  taints: z.array(taint).default([]),
  /** Taints that a DaemonSet removes once the node is ready (ignored when scheduling). */
  startupTaints: z.array(taint).default([]),
  /** Upper bounds on the pool's total resources; a guard against runaway scaling and cost. */
  limits: z.record(z.string(), limit).default({ cpu: "1000", memory: "1000Gi" }),
  /** Higher weights are tried first (1-100). */
  weight: z.number().int().min(1, { error: "must be between 1 and 100" }).max(100, { error: "must be between 1 and 100" }).optional(),
  consolidationPolicy: z.enum(CONSOLIDATION_POLICIES).default("WhenEmptyOrUnderutilized"),
  consolidateAfter: goDuration(z.string().regex(DURATION_OR_NEVER, { error: 'must be a duration such as "30s", "1m" or "1h30m", or "Never"' })).default("1m"),
  budgets: z
    .array(budget)
    .max(MAX_BUDGETS, { error: `must list at most ${MAX_BUDGETS} budgets` })
    .default([{ nodes: "10%" }]),
  /** Nodes are replaced after this age (picks up new AMIs); "Never" disables it. */
  expireAfter: goDuration(z.string().regex(DURATION_OR_NEVER, { error: 'must be a duration such as "720h", or "Never"' })).default("720h"),
  /** How long a draining node waits for its pods before they are deleted; default forever. */
  terminationGracePeriod: goDuration(z.string().regex(DURATION, { error: 'must be a duration such as "48h" or "30m"' })).optional(),
  /**
   * Accept instance names the instance catalogue does not list (a family AWS launched after the catalogue's
   * date), and skip the check that some type matches the pool. Refreshing the catalogue is the better way.
   */
  allowUnknownInstances: z.boolean().optional(),
  /** Extra raw requirements, ANDed with those above. */
  requirements: z
    .array(requirement)
    .max(MAX_REQUIREMENTS, { error: `must list at most ${MAX_REQUIREMENTS} requirements` })
    .default([]),
});

export const nodePoolSchema = withChecks(nodePoolFields, [
  {
    // Karpenter's runtime validation keeps one set of key and effect for both lists (validateTaints in
    // nodeclaim_validation.go) and reports the second as a duplicate; the value plays no part.
    reads: ["taints", "startupTaints"],
    check: ({ taints, startupTaints }, report) => {
      const all = [...taints.map((taint, i) => ({ taint, path: ["taints", i] })), ...startupTaints.map((taint, i) => ({ taint, path: ["startupTaints", i] }))];
      for (const i of repeatedIndexes(all, ({ taint }) => `${taint.key}\0${taint.effect}`)) {
        const { taint, path } = all[i];
        report(
          path,
          taint,
          `duplicate taint Key/Effect pair ${taint.key}=${taint.effect} (Karpenter's message): taints and startupTaints together may hold each key and effect once`,
        );
      }
    },
  },
  {
    reads: ["instanceFamilies", "instanceCategories"],
    check: ({ instanceFamilies, instanceCategories }, report) => {
      if (instanceFamilies === undefined || instanceCategories === undefined) return;
      instanceFamilies.forEach((family, k) => {
        const category = instanceCategoryOf(family);
        if (!instanceCategories.includes(category)) {
          report(
            ["instanceFamilies", k],
            family,
            `is in instance category "${category}", which instanceCategories (${instanceCategories.join(", ")}) leaves out, so no instance type could match; add "${category}" to instanceCategories or remove this family`,
          );
        }
      });
    },
  },
  {
    reads: ["requirements", "architectures", "capacityTypes", "instanceCategories", "instanceFamilies", "instanceSizes", "minGeneration", "zones"],
    check: (pool, report) => {
      // The operating system requirement is always one, whatever the node class.
      const generated = selectionRequirements(pool, "linux").length;
      if (pool.requirements.length + generated > MAX_REQUIREMENTS) {
        report(
          ["requirements"],
          pool.requirements.length,
          `must list at most ${MAX_REQUIREMENTS - generated} requirements: the CRD allows ${MAX_REQUIREMENTS} and this pool's other fields generate ${generated}`,
        );
      }
    },
  },
]);

export const nodePoolsSchema = withChecks(
  z
    .array(nodePoolSchema)
    .min(1, { error: "must list at least one NodePool: Karpenter launches every workload node from one (omit nodePools for the default pool)" }),
  [
    {
      reads: ["*.name"],
      check: (pools, report) => {
        for (const i of repeatedIndexes(pools, (p) => p.name)) report([i, "name"], pools[i].name, "is listed twice; each NodePool name may appear once");
      },
    },
  ],
).prefault([{ name: DEFAULT_NODE_POOL_NAME }]);

/** A NodePool as the config writes it, simple defaults filled in (see provisioner-defaults for the others). */
export type NodePoolConfig = z.output<typeof nodePoolSchema>;
