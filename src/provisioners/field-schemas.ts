import { z } from "zod";
import { checkedString, strictObject } from "../shared/schema-helpers";
import { TAINT_EFFECTS } from "../shared/vocabulary/taint-effects";
import { exceedsGoDuration, GO_DURATION_OVERFLOW } from "./go-duration";
import { qualifiedNameProblem } from "./qualified-name";
import { MAX_SELECTOR_TAGS } from "./rules/crd-limits";
import { MESSAGES } from "./rules/crd-messages";
import { LABEL_VALUE, QUANTITY } from "./rules/crd-patterns";
import { restrictedLabelMessage } from "./rules/restricted-keys";

// Field schemas shared by node classes and NodePools: the CRDs' OpenAPI patterns with messages in plain words.

/** DNS-1123 subdomain; at most 63 characters because Karpenter copies the name into a node label value. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const objectName = (kind: string, label: string) =>
  z
    .string({ error: `must be a string: the ${kind} name` })
    .max(63, { error: `must be at most 63 characters: the ${kind} name is the value of the ${label} node label` })
    .regex(DNS_SUBDOMAIN, {
      error: `must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (a Kubernetes ${kind} name)`,
    });

/** A quantity such as "1000Gi"; YAML integers (cpu: 1000) are accepted and written as strings. */
export const quantity = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isInteger(v) ? String(v) : v),
    z
      .string({ error: `must be a ${what} quantity such as "1000", "1000Gi" or "500m"` })
      .regex(QUANTITY, { error: `must be a ${what} quantity such as "1000", "1000Gi" or "500m"` }),
  );

/** A duration field that also fits Go's int64 nanoseconds, which Karpenter decodes it into. */
export const goDuration = (schema: z.ZodString) => schema.refine((text) => !exceedsGoDuration(text), { error: GO_DURATION_OVERFLOW });

export const labelValue = z.string().max(63, { error: "must be at most 63 characters (a label value)" }).regex(LABEL_VALUE, {
  error: "must be a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
});

const LABEL_KEY_MESSAGE = "must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'";

/** The CRDs' maxLength of a requirement key; template labels become NodeClaim requirements, so it binds them too. */
const MAX_KEY_LENGTH = 316;

/** Why a key is too long for the CRD, or undefined; a qualified name can reach 317 characters, one more. */
function keyLengthProblem(key: string): string | undefined {
  return key.length > MAX_KEY_LENGTH ? `must be at most ${MAX_KEY_LENGTH} characters (the CRD's limit for a requirement key)` : undefined;
}

/** Why a label or requirement key is not allowed, or undefined: its form first, then Karpenter's restrictions. */
export function labelKeyProblem(key: string): string | undefined {
  return qualifiedNameProblem(key, LABEL_KEY_MESSAGE) ?? keyLengthProblem(key) ?? restrictedLabelMessage(key);
}

/** A requirement key: a label key that Karpenter does not reserve. */
export const labelKey = checkedString(labelKeyProblem);

/** Labels whose keys are checked like requirement keys; `max` bounds their number. */
export const labels = (max: number) =>
  z.record(z.string(), labelValue).superRefine(
    (map, ctx) => {
      for (const key of Object.keys(map)) {
        const message = labelKeyProblem(key);
        if (message !== undefined) ctx.addIssue({ code: "custom", path: [key], input: key, message });
      }
      if (Object.keys(map).length > max) ctx.addIssue({ code: "custom", input: map, message: `must hold at most ${max} labels` });
    },
    // Keys are strings whatever the values are: check them even when a value is wrong.
    { when: () => true },
  );

export const selectorTags = z
  .record(z.string(), z.string())
  .refine((tags) => Object.entries(tags).every(([k, v]) => k !== "" && v !== ""), { error: MESSAGES.emptySelectorTag })
  .refine((tags) => Object.keys(tags).length <= MAX_SELECTOR_TAGS, { error: `must hold at most ${MAX_SELECTOR_TAGS} tags` });

const TAINT_KEY_MESSAGE = "must be a taint key such as nvidia.com/gpu: an optional DNS prefix and '/', then letters, digits, '-', '_' and '.'";
const TAINT_VALUE_MESSAGE = "must start and end with a letter or digit; letters, digits, '-', '_', '.' and one '/' inside";

/** Karpenter checks taint values as qualified names too (not as label values), so "a/b" is a valid value. */
export const taint = strictObject({
  key: checkedString((key) => qualifiedNameProblem(key, TAINT_KEY_MESSAGE) ?? keyLengthProblem(key)).meta({
    description: "The taint key, such as `nvidia.com/gpu`.",
  }),
  value: checkedString((value) => qualifiedNameProblem(value, TAINT_VALUE_MESSAGE))
    .optional()
    .meta({ description: "The taint value; Karpenter checks it as a qualified name, so `a/b` is one." }),
  effect: z
    .enum(TAINT_EFFECTS)
    .meta({ description: "`NoSchedule` and `NoExecute` keep pods that do not tolerate the taint off; `PreferNoSchedule` only steers them." }),
});

export const nonEmptyList = <T extends z.ZodType>(item: T) => z.array(item).min(1, { error: "must list at least one value (omit the field to leave it open)" });

export const lowercaseName = (what: string, example: string) =>
  z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, { error: `must be an instance ${what} such as ${example}` });
