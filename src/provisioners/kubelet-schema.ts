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
  // Checked with the network (cluster-checks.ts): an address must be in the service range the VPC decides.
  clusterDNS: z.array(z.string()).optional().meta({
    description:
      "The DNS servers pods are given instead of the cluster's CoreDNS Service: IPv4 addresses in the service range (`172.20.0.0/16` for a VPC in 10.0.0.0/8, else `10.100.0.0/16`; either for an existing VPC) or link-local (NodeLocal DNSCache's `169.254.20.10`). AL2, Windows and older Bottlerocket use only the first.",
  }),
  maxPods: int32
    .optional()
    .meta({ defaultText: "ENI-limited", description: "Pods per node; by default what the instance type's network interfaces can address (110 on Windows)." }),
  podsPerCore: int32.optional().meta({ description: "Pods per vCPU, the lower of this and `maxPods` (ignored by Bottlerocket)." }),
  systemReserved: reservedResources("systemReserved")
    .optional()
    .meta({ description: "Resources kept for the OS (`cpu`, `memory`, `ephemeral-storage`, `pid`), taken off the node's allocatable." }),
  kubeReserved: reservedResources("kubeReserved").optional().meta({
    defaultText: "Karpenter's tiers",
    description: "Resources kept for the kubelet and container runtime; by default Karpenter's tiers by vCPU count and pods.",
  }),
  evictionHard: evictionThresholds("evictionHard").optional().meta({
    defaultText: "`memory.available: 100Mi`",
    description: "Thresholds at which the kubelet evicts pods at once; memory's is taken off the allocatable.",
  }),
  evictionSoft: evictionThresholds("evictionSoft")
    .optional()
    .meta({ description: "Thresholds at which the kubelet evicts after `evictionSoftGracePeriod`; each needs its grace period." }),
  evictionSoftGracePeriod: keysFrom(
    // No CRD pattern here: the kubelet reads a Go duration (metav1.Duration), so "1m30.5s" and "500ms" are fine.
    z.string().refine((text) => (goDurationNanos(text) ?? -1n) >= 0n && !exceedsGoDuration(text), {
      error: 'must be a duration such as "1m30s", "90s" or "500ms" (Go\'s syntax: h, m, s, ms, us, ns; decimals allowed; not negative)',
    }),
    EVICTION_SIGNALS,
    MESSAGES.evictionKeys("evictionSoftGracePeriod"),
  )
    .optional()
    .meta({ description: "How long each soft threshold must hold before the kubelet evicts." }),
  // No minimum in the CRD: a negative value makes the kubelet use each pod's own grace period.
  evictionMaxPodGracePeriod: z
    .number()
    .int()
    .min(-(2 ** 31), { error: "must be an int32 (-2147483648 to 2147483647)" })
    .max(2 ** 31 - 1, { error: "must be an int32 (-2147483648 to 2147483647)" })
    .optional()
    .meta({ description: "The longest grace period (seconds) a soft eviction gives a pod; negative: each pod's own." }),
  imageGCHighThresholdPercent: percent.optional().meta({ description: "Disk use at which image garbage collection starts; above the low threshold." }),
  imageGCLowThresholdPercent: percent.optional().meta({ description: "Disk use image garbage collection brings the node back to." }),
  cpuCFSQuota: z.boolean().optional().meta({ description: "Enforce CPU limits with CFS quotas." }),
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
