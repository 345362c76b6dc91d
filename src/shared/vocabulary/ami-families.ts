// The AMI families of an EC2NodeClass (spec.amiFamily) and the families an alias names (al2023@latest).
// @see https://karpenter.sh/docs/concepts/nodeclasses/#specamifamily

export const AMI_FAMILIES = ["AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025"] as const;

export type AmiFamily = (typeof AMI_FAMILIES)[number];

/** Every family but Custom, in the lowercase an alias writes it. */
export const ALIAS_FAMILIES = ["al2", "al2023", "bottlerocket", "windows2019", "windows2022", "windows2025"] as const;

export const WINDOWS_ALIAS_FAMILIES: readonly string[] = ["windows2019", "windows2022", "windows2025"];

/** "al2023" → "AL2023": the amiFamily an alias family implies. */
export function aliasFamilyToAmiFamily(aliasFamily: string): AmiFamily {
  const found = AMI_FAMILIES.find((f) => f.toLowerCase() === aliasFamily);
  if (found === undefined) throw new Error(`unknown alias family ${aliasFamily}`);
  return found;
}
