import { z } from "zod";
import { strictObject, withCheckedKeys, withChecks } from "../shared/schema-helpers";
import { exceedsGoDuration, goDurationNanos } from "./go-duration";
import { EVICTION_SIGNALS, RESERVED_RESOURCES } from "./rules/crd-limits";
import { MESSAGES } from "./rules/crd-messages";
import { EVICTION_THRESHOLD, QUANTITY } from "./rules/crd-patterns";

// The `kubelet` block of an EC2NodeClass (Karpenter 1.14.1's typed form), with the CRD's CEL rules.

/** A map whose keys must come from a closed list; `message` is the CRD's. */
function keysFrom<T extends z.ZodType>(values: T, allowed: readonly string[], message: string) {
  return withCheckedKeys(z.record(z.string(), values), (key) => (allowed.includes(key) ? undefined : message));
}

const reservedResources = (field: string) =>
  z.record(z.string(), z.string().regex(QUANTITY, { error: 'must be a resource quantity such as "100m" or "1Gi"' })).superRefine(
    (map, ctx) => {
      for (const [key, value] of Object.entries(map)) {
        if (!(RESERVED_RESOURCES as readonly string[]).includes(key))
          ctx.addIssue({ code: "custom", path: [key], input: key, message: MESSAGES.reservedKeys(field) });
        // A value that failed its pattern may not even be a string.
        else if (typeof value === "string" && value.startsWith("-"))
          ctx.addIssue({ code: "custom", path: [key], input: value, message: MESSAGES.reservedNegative(field) });
      }
    },
    { when: () => true },
  );

const evictionThresholds = (field: string) =>
  keysFrom(
    z.string().regex(EVICTION_THRESHOLD, { error: 'must be a percentage such as "10%" or a quantity such as "500Mi"' }),
    EVICTION_SIGNALS,
    MESSAGES.evictionKeys(field),
  );

/**
 * The CRD's int32 fields. API servers before 1.36 do not enforce the format, and Karpenter then fails to
 * decode the object (json: cannot unmarshal number into int32).
 */
const int32 = z
  .number()
  .int()
  .min(0, { error: "must be between 0 and 2147483647 (a non-negative int32)" })
  .max(2 ** 31 - 1, { error: "must be between 0 and 2147483647 (a non-negative int32)" });

const percent = z.number().int().min(0, { error: "must be between 0 and 100" }).max(100, { error: "must be between 0 and 100" });

const kubeletFields = strictObject({
  clusterDNS: z.array(z.string().min(1)).optional(),
  maxPods: int32.optional(),
  podsPerCore: int32.optional(),
  systemReserved: reservedResources("systemReserved").optional(),
  kubeReserved: reservedResources("kubeReserved").optional(),
  evictionHard: evictionThresholds("evictionHard").optional(),
  evictionSoft: evictionThresholds("evictionSoft").optional(),
  evictionSoftGracePeriod: keysFrom(
    // No CRD pattern here: the kubelet reads a Go duration (metav1.Duration), so "1m30.5s" and "500ms" are fine.
    z.string().refine((text) => (goDurationNanos(text) ?? -1n) >= 0n && !exceedsGoDuration(text), {
      error: 'must be a duration such as "1m30s", "90s" or "500ms" (Go\'s syntax: h, m, s, ms, us, ns; decimals allowed; not negative)',
    }),
    EVICTION_SIGNALS,
    MESSAGES.evictionKeys("evictionSoftGracePeriod"),
  ).optional(),
  // No minimum in the CRD: a negative value makes the kubelet use each pod's own grace period.
  evictionMaxPodGracePeriod: z
    .number()
    .int()
    .min(-(2 ** 31), { error: "must be an int32 (-2147483648 to 2147483647)" })
    .max(2 ** 31 - 1, { error: "must be an int32 (-2147483648 to 2147483647)" })
    .optional(),
  imageGCHighThresholdPercent: percent.optional(),
  imageGCLowThresholdPercent: percent.optional(),
  cpuCFSQuota: z.boolean().optional(),
});

export const kubeletSchema = withChecks(kubeletFields, [
  {
    reads: ["imageGCHighThresholdPercent", "imageGCLowThresholdPercent"],
    check: ({ imageGCHighThresholdPercent: high, imageGCLowThresholdPercent: low }, report) => {
      if (high !== undefined && low !== undefined && high <= low) report(["imageGCHighThresholdPercent"], high, MESSAGES.imageGC);
    },
  },
  {
    // Each soft threshold needs its grace period, and each grace period its threshold.
    reads: ["evictionSoft", "evictionSoftGracePeriod"],
    check: ({ evictionSoft, evictionSoftGracePeriod }, report) => {
      const soft = Object.keys(evictionSoft ?? {});
      const grace = Object.keys(evictionSoftGracePeriod ?? {});
      for (const key of soft) if (!grace.includes(key)) report(["evictionSoft", key], key, MESSAGES.evictionSoftWithoutGrace);
      for (const key of grace) if (!soft.includes(key)) report(["evictionSoftGracePeriod", key], key, MESSAGES.evictionGraceWithoutSoft);
    },
  },
]);

export type KubeletSettings = z.output<typeof kubeletSchema>;
