import { z } from "zod";

/**
 * A strict object whose unknown-key error lists the keys that are allowed, so a misspelled field
 * ("endpointPublicAcess") tells the user what was meant.
 */
export function strictObject<T extends z.ZodRawShape>(shape: T) {
  const allowed = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `is not a known key; allowed keys: ${allowed}` : undefined),
  });
}

/** A list whose items must be unique; `key` picks what makes two items the same. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => unknown): number[] {
  const seen = new Set<unknown>();
  const duplicates: number[] = [];
  items.forEach((item, index) => {
    const k = key(item);
    if (seen.has(k)) duplicates.push(index);
    seen.add(k);
  });
  return duplicates;
}

/** Adds one issue per repeated item of a list of strings. */
export function checkUniqueStrings(ctx: z.RefinementCtx, values: readonly string[], what: string): void {
  for (const index of uniqueBy(values, (v) => v)) {
    ctx.addIssue({ code: "custom", path: [index], input: values[index], message: `is listed twice; each ${what} may appear once` });
  }
}

/** A DNS-1123 label: Kubernetes namespace and object names. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const dnsLabel = (what: string) =>
  z
    .string()
    .max(63, { error: `must be at most 63 characters (a Kubernetes ${what})` })
    .regex(DNS_LABEL, { error: `must be a DNS label: lowercase letters, digits and '-', starting and ending with a letter or digit (a Kubernetes ${what})` });

/** Tags as AWS accepts them; keys starting with "aws:" are reserved by AWS. */
export const awsTags = z
  .record(
    z
      .string()
      .min(1, { error: "tag keys must not be empty" })
      .max(128, { error: "tag keys must be at most 128 characters" })
      .refine((k) => !k.toLowerCase().startsWith("aws:"), { error: 'tag keys starting with "aws:" are reserved by AWS' }),
    z.string({ error: "tag values must be strings (quote numbers and booleans in YAML)" }).max(256, { error: "tag values must be at most 256 characters" }),
  )
  .default({});
