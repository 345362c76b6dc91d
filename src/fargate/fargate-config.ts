import { z } from "zod";
import { type FieldCheck, repeatedIndexes, strictObject, withChecks } from "../shared/schema-helpers";

/** A Fargate profile: the pods of these namespaces (and labels) run on Fargate. */
export interface FargateProfileSpec {
  readonly name: string;
  readonly namespaces: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
}

/** The profiles the project always creates; a profile of the config may not take these names. */
export const KUBE_SYSTEM_PROFILE = "kube-system";
export const KARPENTER_PROFILE = "karpenter";
const SYSTEM_PROFILE_NAMES: readonly string[] = [KUBE_SYSTEM_PROFILE, KARPENTER_PROFILE];

/** The profiles of the system pods: kube-system (CoreDNS), and Karpenter's namespace unless that is kube-system. */
export interface SystemFargateProfiles {
  readonly kubeSystem: FargateProfileSpec;
  readonly karpenter?: FargateProfileSpec;
}

export function systemFargateProfiles(karpenterNamespace: string): SystemFargateProfiles {
  return {
    kubeSystem: { name: KUBE_SYSTEM_PROFILE, namespaces: ["kube-system"] },
    // In kube-system, Karpenter is covered by the profile above.
    karpenter: karpenterNamespace === "kube-system" ? undefined : { name: KARPENTER_PROFILE, namespaces: [karpenterNamespace] },
  };
}

/**
 * A namespace, or a pattern of them: EKS takes `*` (any characters) and `?` (one character) in a selector's
 * namespace, and no other pattern syntax.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/fargate-profile.html#fargate-profile-wildcards
 */
const namespacePattern = z
  .string()
  .max(63, { error: "must be at most 63 characters (a Kubernetes namespace)" })
  .regex(/^[a-z0-9*?]([-a-z0-9*?]*[a-z0-9*?])?$/, {
    error:
      "must be a namespace (lowercase letters, digits and '-', starting and ending with a letter or digit), or a pattern of them with EKS's wildcards * (any characters) and ? (one character)",
  });

const profileSchema = strictObject({
  name: z
    .string()
    .regex(/^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/, { error: "must be 1-100 letters, digits, '-' or '_', starting with a letter or digit" })
    .meta({ description: "The profile name; `kube-system` and `karpenter` are the project's own." }),
  namespaces: z
    .array(namespacePattern)
    .min(1, { error: "must list at least one namespace" })
    .max(5, { error: "may list at most 5 namespaces (EKS allows 5 selectors per profile)" })
    .meta({
      allowedText: "1-5 namespaces or patterns",
      description: "The namespaces whose pods run on Fargate, one selector each (EKS allows 5 per profile); `*` and `?` wildcards match several (`team-*`).",
    }),
  labels: z
    .record(z.string(), z.string())
    .default({})
    .meta({ description: "Pod labels every selector of the profile also requires; keys and values take `*` and `?` wildcards too." }),
});

const fargateFields = strictObject({
  profiles: z
    .array(profileSchema)
    .default([])
    .meta({ description: "Profiles beyond kube-system and Karpenter's namespace, which the project always creates (one at a time, as EKS requires)." }),
});

export const fargateSchema = withChecks(fargateFields, [
  {
    reads: ["profiles.*.name"],
    check: ({ profiles }, report) => {
      profiles.forEach(({ name }, i) => {
        if (SYSTEM_PROFILE_NAMES.includes(name))
          report(["profiles", i, "name"], name, "is reserved for the profile this project creates itself; choose another name");
      });
      for (const index of repeatedIndexes(profiles, (p) => p.name))
        report(["profiles", index], profiles[index].name, "is listed twice; each profile name may appear once");
    },
  },
])
  .prefault({})
  .meta({ title: "Fargate profiles", description: "Which pods run on Fargate besides the system ones." });

export type FargateSettings = z.output<typeof fargateSchema>;

/** A namespace may be selected by one profile: the system profiles already take theirs. */
export const FARGATE_NAMESPACE_CHECKS: readonly FieldCheck<{ readonly fargate: FargateSettings; readonly karpenter: { readonly namespace: string } }>[] = [
  {
    reads: ["fargate.profiles.*.namespaces", "karpenter.namespace"],
    check: ({ fargate, karpenter }, report) => {
      const system = systemFargateProfiles(karpenter.namespace);
      const taken = new Set([system.kubeSystem, system.karpenter].flatMap((profile) => profile?.namespaces ?? []));
      fargate.profiles.forEach((profile, i) => {
        profile.namespaces.forEach((namespace, j) => {
          if (taken.has(namespace)) {
            report(["fargate", "profiles", i, "namespaces", j], namespace, "already has a Fargate profile created by this project; remove it here");
          }
        });
      });
    },
  },
];
