import { z } from "zod";
import { closestNames } from "../shared/closest-names";
import { parseQuantity } from "../shared/quantity";
import { checkedString, repeatedIndexes, strictObject, withCheckedKeys, withChecks } from "../shared/schema-helpers";
import { CAPACITY_TYPES } from "../shared/vocabulary/capacity-types";
import { COMPARISON_OPERATORS, REQUIREMENT_OPERATORS } from "../shared/vocabulary/requirement-operators";
import { cronScheduleProblem } from "./cron-schedule";
import { goDuration, labelKey, labels, labelValue, lowercaseName, nonEmptyList, objectName, quantity, taint } from "./field-schemas";
import { instanceCategoryOf, selectionRequirements } from "./pool-requirements";
import {
  CRD_DISRUPTION_DEFAULTS,
  DEFAULT_INSTANCE_CATEGORIES,
  DEFAULT_MIN_GENERATION,
  DEFAULT_NODE_CLASS_NAME,
  DEFAULT_NODE_POOL_NAME,
} from "./provisioner-defaults";
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
/**
 * The resources Karpenter counts against a pool's limits: its NodeClaims' capacity (cpu, memory, pods,
 * ephemeral-storage and extended resources, which are domain-qualified: nvidia.com/gpu) and, since 1.14, their
 * number. Karpenter takes any key, and one no node has is never exceeded: `cpus: "100"` silently leaves the pool
 * with no CPU limit at all.
 * @see https://karpenter.sh/docs/concepts/nodepools/#speclimits
 */
const COUNTED_RESOURCES = ["cpu", "memory", "pods", "ephemeral-storage", "nodes"] as const;

function limitKeyProblem(key: string): string | undefined {
  if ((COUNTED_RESOURCES as readonly string[]).includes(key) || /^[a-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(key)) return undefined;
  const near = closestNames(key, COUNTED_RESOURCES, 1);
  return `is not a resource Karpenter counts, so it would limit nothing${near.length > 0 ? ` (did you mean ${near[0]}?)` : ""}; allowed: ${COUNTED_RESOURCES.join(", ")}, or an extended resource such as nvidia.com/gpu`;
}

const limit = quantity("resource").refine((q) => !isNegativeQuantity(q), {
  error: "must not be negative: the pool would be over its limit from the start and never launch a node (0 pauses a pool)",
});

const budget = withChecks(
  strictObject({
    nodes: budgetNodes.meta({
      description: 'How many nodes may be disrupted at once: a count ("5") or a percentage ("10%") of the pool\'s nodes; "0" blocks.',
    }),
    schedule: checkedString((schedule) => {
      const problem = cronScheduleProblem(schedule);
      return problem === undefined ? undefined : `must be a cron schedule such as "0 9 * * mon-fri" (UTC) or a macro such as @daily: ${problem}`;
    })
      .optional()
      .meta({
        description:
          "When the budget starts, a cron schedule in UTC (`0 9 * * mon-fri`, `@daily`), with `duration`. Checked as Karpenter's cron parser reads it: six fields, `61 9 * * *`, `mon-fry` are refused (the budget would fail closed and block disruption).",
      }),
    duration: goDuration(z.string().regex(BUDGET_DURATION, { error: 'must be a duration in hours and minutes such as "8h" or "1h30m"' }))
      .optional()
      .meta({ description: 'How long the budget holds after each `schedule` start, in hours and minutes ("8h", "1h30m").' }),
    reasons: z.array(z.enum(DISRUPTION_REASONS)).optional().meta({ defaultText: "all", description: "The disruptions the budget limits." }),
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
    key: labelKey.meta({ description: "A node label key; the rules of `labels` keys apply." }),
    operator: z.enum(REQUIREMENT_OPERATORS).meta({ description: "`Gt`, `Lt`, `Gte` and `Lte` compare one integer value." }),
    values: z.array(labelValue).optional().meta({ description: "The values; at least one for `In`, exactly one integer for the comparisons." }),
    minValues: z
      .number()
      .int()
      .min(1, { error: "must be between 1 and 50" })
      .max(50, { error: "must be between 1 and 50" })
      .optional()
      .meta({ description: "How many distinct values of the key a launch must be able to choose from (spot diversity)." }),
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
  name: objectName("NodePool", "karpenter.sh/nodepool").meta({ description: "The NodePool name: a DNS subdomain of at most 63 characters." }),
  nodeClass: z.string().default(DEFAULT_NODE_CLASS_NAME).meta({ description: "The `name` of one of `nodeClasses`." }),
  architectures: nonEmptyList(z.enum(["amd64", "arm64"]))
    .default(["amd64", "arm64"])
    .meta({ description: "Keep arm64 for Graviton savings; your images must be multi-arch." }),
  capacityTypes: nonEmptyList(z.enum(CAPACITY_TYPES)).default(["spot", "on-demand"]).meta({
    description:
      "Karpenter launches spot whenever it is allowed and offered. `reserved` needs `capacityReservationSelectorTerms` on the pool's node class: Karpenter launches reserved capacity only from the reservations a class selects.",
  }),
  instanceCategories: nonEmptyList(z.string().regex(/^[a-z]+$/, { error: "must be an instance category such as c, m, r, g or p" }))
    .optional()
    .meta({
      defaultText: `\`[${DEFAULT_INSTANCE_CATEGORIES.join(", ")}]\``,
      description: "Instance categories (compute, general purpose, memory, ...); unless `instanceFamilies` is set.",
    }),
  instanceFamilies: nonEmptyList(lowercaseName("family", "m7g or g5")).optional().meta({ description: "Instance families, such as `[m7g, c7g]`." }),
  instanceSizes: nonEmptyList(lowercaseName("size", "xlarge or 2xlarge")).optional().meta({ description: "Instance sizes, such as `[xlarge, 2xlarge]`." }),
  minGeneration: z
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .default(DEFAULT_MIN_GENERATION)
    .meta({ description: "The oldest instance generation allowed, rendered as `instance-generation Gt <n-1>`: 3 excludes m1, c1, m2, t1 and friends." }),
  zones: nonEmptyList(z.string()).optional().meta({
    defaultText: "zones with tagged subnets",
    description: "Zones of the cluster's region, checked like `network.availabilityZones`; with a new VPC, zones it has subnets in.",
  }),
  labels: labels(MAX_LABELS).default({}).meta({
    description:
      "Labels on every node of the pool, at most 100. Keys (and taint keys and values) are qualified names: an optional DNS subdomain prefix of at most 253 characters and `/`, then a name of at most 63. Karpenter's own keys are rejected (`karpenter.sh/*` but `capacity-type`, `karpenter.k8s.aws/*` but its well-known labels, `kubernetes.io/hostname`); other `kubernetes.io` and `k8s.io` keys are allowed.",
  }),
  taints: z
    .array(taint)
    .default([])
    .meta({ description: "Taints on every node; only pods that tolerate them land there. A key and effect appear once across `taints` and `startupTaints`." }),
  startupTaints: z
    .array(taint)
    .default([])
    .meta({ description: "Taints that a DaemonSet removes once the node is ready; Karpenter ignores them when scheduling." }),
  limits: withCheckedKeys(z.record(z.string(), limit), limitKeyProblem).default({ cpu: "1000", memory: "1000Gi" }).meta({
    description:
      "The pool stops growing at these totals of its nodes' capacity: your cost guard. Keys: `cpu`, `memory`, `pods`, `ephemeral-storage`, `nodes` (a count of nodes), or an extended resource such as `nvidia.com/gpu`; any other key would limit nothing (`cpus` would leave the pool without a CPU limit) and is refused. Not negative. **`0` pauses the pool**: Karpenter launches no new node from it, and the nodes it has stay.",
  }),
  weight: z
    .number()
    .int()
    .min(1, { error: "must be between 1 and 100" })
    .max(100, { error: "must be between 1 and 100" })
    .optional()
    .meta({ description: "Pools with a higher weight are tried first." }),
  consolidationPolicy: z
    .enum(CONSOLIDATION_POLICIES)
    .default(CRD_DISRUPTION_DEFAULTS.consolidationPolicy)
    .meta({ description: "Which nodes Karpenter may remove or replace to save cost." }),
  consolidateAfter: goDuration(z.string().regex(DURATION_OR_NEVER, { error: 'must be a duration such as "30s", "1m" or "1h30m", or "Never"' }))
    .default("1m")
    .meta({ description: "How long a node must stay consolidatable before Karpenter acts: a duration or `Never`." }),
  budgets: z
    .array(budget)
    .max(MAX_BUDGETS, { error: `must list at most ${MAX_BUDGETS} budgets` })
    .default(() => CRD_DISRUPTION_DEFAULTS.budgets.map(({ reasons, ...budget }) => (reasons === undefined ? budget : { ...budget, reasons: [...reasons] })))
    .meta({ description: "How many nodes may be disrupted at once, and when." }),
  expireAfter: goDuration(z.string().regex(DURATION_OR_NEVER, { error: 'must be a duration such as "720h", or "Never"' }))
    .default("720h")
    .meta({ description: "Nodes are replaced after this age (so they pick up new AMIs); `Never` disables it." }),
  terminationGracePeriod: goDuration(z.string().regex(DURATION, { error: 'must be a duration such as "48h" or "30m"' }))
    .optional()
    .meta({ defaultText: "forever", description: "How long a draining node waits for its pods before they are deleted." }),
  allowUnknownInstances: z.boolean().optional().meta({
    description:
      "`true` takes instance names the instance catalogue does not list (a family AWS launched after the catalogue's date) and skips the check that some type matches the pool. Refreshing the catalogue is the better way (`npm run catalogue -- --live --region <r>`).",
  }),
  requirements: z
    .array(requirement)
    .max(MAX_REQUIREMENTS, { error: `must list at most ${MAX_REQUIREMENTS} requirements` })
    .default([])
    .meta({ description: "Extra raw requirements, ANDed with those the fields above generate (together at most 100)." }),
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
)
  .prefault([{ name: DEFAULT_NODE_POOL_NAME }])
  .meta({
    title: "NodePools",
    defaultText: "one pool, `default`, with the defaults below",
    description: `Where Karpenter may launch nodes, and how it may replace them. A pool you write takes the same defaults for the fields you leave out; listing \`nodePools\` replaces the default pool.

Everything the API server would reject is rejected at synth with the pool's path and the CRD's own message, and so is what Karpenter's Go code would reject after the apply: its runtime validation (a NodePool that stays not Ready and launches nothing: qualified-name lengths, duplicate taints, a capacity type with no value it knows), budget schedules its cron parser refuses, durations beyond Go's 2562047h, kubelet integers beyond int32, and user data it cannot parse. A negative limit, or a tenancy other than \`default\` or \`dedicated\`, which Karpenter accepts but which keeps the pool from ever launching a node, is refused too; unknown capacity types beside known ones, which Karpenter drops with a log line, are a warning.

**Instance names are checked against the instance catalogue** (Karpenter 1.14.1's 1,336 types, in \`src/instance-catalogue/\`): a family, size, category or type in \`instanceFamilies\`, \`instanceSizes\`, \`instanceCategories\` or a raw requirement (\`In\` and \`NotIn\`) that the catalogue lacks is refused with the near misses ("did you mean m5.large?"), and a pool that no type satisfies (arm64 with only x86 families; an arm64 GPU family under a Windows node class) is refused with the fields that exclude each other. The catalogue ages while AWS ships families: every message names its date and the two ways through, refreshing it (\`npm run catalogue -- --live --region <r>\`, then commit \`src/instance-catalogue/data/\`) or \`allowUnknownInstances: true\` on the pool.

**Adding a pool**: append to \`nodePools\` (add a \`nodeClasses\` entry if it needs other AMIs or disks), synth, \`npm run review\` to read the rendered YAML, deploy. A Graviton spot pool only for pods that ask for it:

\`\`\`yaml
nodePools:
  - name: default # listing nodePools replaces the default pool: keep it if you want it
  - name: arm64-batch
    architectures: [arm64]
    capacityTypes: [spot]
    taints: [{ key: example.com/batch, value: "true", effect: NoSchedule }]
    limits: { cpu: "200", memory: 800Gi }
\`\`\`

A GPU pool with its own class is in \`templates/examples/multi-pool.yaml\`.`,
  });

/** A NodePool as the config writes it, simple defaults filled in (see provisioner-defaults for the others). */
export type NodePoolConfig = z.output<typeof nodePoolSchema>;
