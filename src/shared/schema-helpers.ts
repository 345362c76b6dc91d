import { z } from "zod";
import { closestNames } from "./closest-names";

/**
 * A strict object whose unknown-key error lists the keys that are allowed and, for a key close to one of them,
 * the one meant ("endpointPublicAcess": did you mean endpointPublicAccess?). `elsewhere` names keys that belong
 * in another section (`coredns` under `addons` is the top-level `coreDns`), lowercased, with where they go.
 */
export function strictObject<T extends z.ZodRawShape>(shape: T, elsewhere: Readonly<Record<string, string>> = {}) {
  const keys = Object.keys(shape);
  const allowed = keys.join(", ");
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const unknown: readonly string[] = issue.keys;
      const named = (key: string, text: string) => (unknown.length === 1 ? text : `${key}: ${text}`);
      const moved = unknown.flatMap((key) => {
        const where = elsewhere[key.toLowerCase()];
        return where === undefined ? [] : [named(key, where)];
      });
      const near = unknown.flatMap((key) => {
        const [closest] = elsewhere[key.toLowerCase()] === undefined ? closestNames(key, keys, 1) : [];
        return closest === undefined ? [] : [unknown.length === 1 ? closest : `${closest} for ${key}`];
      });
      const meant = near.length === 0 ? "" : ` (did you mean ${near.join(", ")}?)`;
      return `is not a known key; ${moved.map((m) => `${m}; `).join("")}allowed keys: ${allowed}${meant}`;
    },
  });
}

// ---------------------------------------------------------------------------------------------------------
// Checks that read several fields

/** A path below the value being checked, as zod reports it. */
export type IssuePath = readonly (string | number)[];

/** Reports one problem: where (relative to the value checked), the value found, and what is allowed. */
export type Report = (path: IssuePath, value: unknown, message: string) => void;

/**
 * A rule that relates several fields. It runs on the parsed value once none of the fields it `reads` had a
 * problem, so it sees typed values with their defaults filled in, while the file's other problems are still
 * reported with its own: every problem at once, and no check reading raw input.
 */
export interface FieldCheck<T> {
  /** The fields the check reads: "."-separated paths, "*" standing for any list index or map key. */
  readonly reads: readonly string[];
  readonly check: (value: T, report: Report) => void;
}

/** True when an issue sits on, above or below a path that a check reads. */
function touches(issuePath: readonly PropertyKey[], pattern: readonly string[]): boolean {
  const shared = Math.min(issuePath.length, pattern.length);
  for (let i = 0; i < shared; i++) {
    if (pattern[i] !== "*" && String(issuePath[i]) !== pattern[i]) return false;
  }
  return true;
}

/** Marks the problems checks report: they say how fields relate, not that a field is malformed. */
const FROM_CHECK = { fromCheck: true } as const;

interface PendingIssue {
  readonly code?: string;
  readonly path?: readonly PropertyKey[];
  readonly keys?: readonly string[];
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * Where an issue is. Zod files an unknown key under the object that holds it; it is placed at the key here,
 * so that a misspelt key at the top of a file does not count as a problem with every field of it.
 */
function issuePaths(issue: PendingIssue): (readonly PropertyKey[])[] {
  const path = issue.path ?? [];
  return issue.code === "unrecognized_keys" && issue.keys !== undefined ? issue.keys.map((key) => [...path, key]) : [path];
}

/**
 * Zod's `when` for a check: run only if no field it reads failed its own rules. Problems other checks
 * reported do not count: a zone listed twice is still a well-formed zone of some region or not.
 */
function whenValid(reads: readonly string[]) {
  const patterns = reads.map((path) => path.split("."));
  return (payload: { readonly issues: readonly PendingIssue[] }) =>
    !payload.issues.some((issue) => issue.params?.fromCheck !== true && issuePaths(issue).some((path) => patterns.some((pattern) => touches(path, pattern))));
}

/**
 * The paths each schema's checks read, by schema: a check names its fields by string, so a test holds every
 * path to the schema it belongs to (test/config/check-reads.test.ts), and a renamed field fails it.
 */
const READS = new WeakMap<z.core.$ZodType, readonly string[]>();

/** The fields the checks attached to this very schema read (none for a schema without checks). */
export const checkReads = (schema: z.core.$ZodType): readonly string[] => READS.get(schema) ?? [];

/** The schema with each check attached, in order. */
export function withChecks<S extends z.ZodType>(schema: S, checks: readonly FieldCheck<z.output<S>>[]): S {
  const checked = checks.reduce<S>(
    (refined, { reads, check }) =>
      refined.superRefine(
        (value, ctx) =>
          check(value as z.output<S>, (path, input, message) => ctx.addIssue({ code: "custom", path: [...path], input, message, params: FROM_CHECK })),
        { when: whenValid(reads) },
      ) as S,
    schema,
  );
  READS.set(
    checked,
    checks.flatMap((c) => c.reads),
  );
  return checked;
}

/**
 * A string field whose problems one function names (undefined when fine), after the rules of `base`. For
 * rules a regex cannot say: a cron schedule, an AMI alias, names that must fit what derives from them.
 */
export const checkedString = (problem: (value: string) => string | undefined, base: z.ZodString = z.string()) =>
  base.superRefine((value, ctx) => {
    const message = problem(value);
    if (message !== undefined) ctx.addIssue({ code: "custom", input: value, message });
  });

/**
 * A map whose keys one function judges (undefined when fine), each problem at its key. Keys are strings
 * whatever the values are, so they are checked even when a value is wrong.
 */
export const withCheckedKeys = <S extends z.ZodType<Record<string, unknown>>>(record: S, keyProblem: (key: string) => string | undefined) =>
  record.superRefine(
    (map, ctx) => {
      for (const key of Object.keys(map)) {
        const message = keyProblem(key);
        if (message !== undefined) ctx.addIssue({ code: "custom", path: [key], input: key, message });
      }
    },
    { when: () => true },
  );

// ---------------------------------------------------------------------------------------------------------
// Lists

/** The indexes of the items that repeat an earlier one; `key` picks what makes two items the same. */
export function repeatedIndexes<T>(items: readonly T[], key: (item: T) => unknown): number[] {
  const seen = new Set<unknown>();
  const repeated: number[] = [];
  items.forEach((item, index) => {
    const k = key(item);
    if (seen.has(k)) repeated.push(index);
    seen.add(k);
  });
  return repeated;
}

// ---------------------------------------------------------------------------------------------------------
// Names and tags

/** A DNS-1123 label: Kubernetes namespace and object names. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const dnsLabel = (what: string) =>
  z
    .string()
    .max(63, { error: `must be at most 63 characters (a Kubernetes ${what})` })
    .regex(DNS_LABEL, { error: `must be a DNS label: lowercase letters, digits and '-', starting and ending with a letter or digit (a Kubernetes ${what})` });

// AWS's tag limits, the same for every service this project tags.
// @see https://docs.aws.amazon.com/tag-editor/latest/userguide/best-practices-and-strats.html

/** Tags per resource; tags that AWS adds itself ("aws:" keys) do not count. */
export const MAX_TAGS_PER_RESOURCE = 50;

/**
 * The characters IAM takes in tag keys and values: letters, digits and spaces of any script, and `_ . : / = + - @`.
 * IAM is the strictest service the tags reach (the cluster's tags go on its roles through the provider's
 * default tags, a node class's on the instance profile Karpenter creates), and it refuses the rest mid-apply.
 * @see https://docs.aws.amazon.com/IAM/latest/APIReference/API_Tag.html
 */
const TAG_CHARACTERS = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const TAG_CHARACTERS_MESSAGE = "letters, digits and spaces, and _ . : / = + - @ (IAM refuses other characters, half way through an apply)";

/** A tag key: 1-128 characters, not starting with "aws:" (in any case), which AWS reserves; `empty` says why "" is not one. */
export const awsTagKey = (empty = "tag keys must not be empty") =>
  z
    .string()
    .min(1, { error: empty })
    .max(128, { error: "tag keys must be at most 128 characters" })
    .regex(TAG_CHARACTERS, { error: `tag keys may hold only ${TAG_CHARACTERS_MESSAGE}` })
    .refine((k) => !k.toLowerCase().startsWith("aws:"), { error: 'tag keys starting with "aws:" are reserved by AWS' });

export const awsTagValue = z
  .string({ error: "tag values must be strings (quote numbers and booleans in YAML)" })
  .max(256, { error: "tag values must be at most 256 characters" })
  .regex(TAG_CHARACTERS, { error: `tag values may hold only ${TAG_CHARACTERS_MESSAGE}` });

/** Tags as AWS accepts them. */
export const awsTags = z.record(awsTagKey(), awsTagValue).default({});
