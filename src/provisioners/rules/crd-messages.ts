import { ALIAS_FAMILIES, aliasFamilyToAmiFamily } from "../../shared/vocabulary/ami-families";
import { EVICTION_SIGNALS, RESERVED_RESOURCES } from "./crd-limits";

// The messages of the CEL rules (x-kubernetes-validations) of Karpenter 1.14's CRDs, verbatim, so that a user
// can search them upstream.

export const MESSAGES = {
  reservationTermEmpty: "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']",
  reservationIdExclusive: "'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term",
  budgetScheduleDuration: "'schedule' must be set with 'duration'",
  inNeedsValues: "requirements with operator 'In' must have a value defined",
  comparisonNeedsInteger: "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
  minValuesExceedValues: "requirements with 'minValues' must have at least that many values specified in the 'values' field",
  exactlyOneRoleOrProfile: "must specify exactly one of ['role', 'instanceProfile']",
  roleEmpty: "role cannot be empty",
  instanceProfileEmpty: "instanceProfile cannot be empty",
  amiFamilyRequired: "must specify amiFamily if amiSelectorTerms does not contain an alias",
  amiTermEmpty: "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']",
  amiIdExclusive: "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
  aliasExclusiveFields: "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
  aliasExclusiveTerms: "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms",
  aliasFormat: "'alias' is improperly formatted, must match the format 'family@version'",
  aliasFamily: `family is not supported, must be one of the following: ${ALIAS_FAMILIES.map((f) => `'${f}'`).join(", ")}`,
  aliasWindowsLatest: "windows families may only specify version 'latest'",
  emptySelectorTag: "empty tag keys or values aren't supported",
  emptyTagKey: "empty tag keys aren't supported",
  singleRootVolume: "must have only one blockDeviceMappings with rootVolume",
  snapshotOrSize: "snapshotID or volumeSize must be defined",
  imageGC: "imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent",
  evictionSoftWithoutGrace: "evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod",
  evictionGraceWithoutSoft: "evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft",
  evictionKeys: (field: string) => `valid keys for ${field} are [${EVICTION_SIGNALS.map((s) => `'${s}'`).join(",")}]`,
  reservedKeys: (field: string) => `valid keys for ${field} are [${RESERVED_RESOURCES.map((s) => `'${s}'`).join(",")}]`,
  reservedNegative: (field: string) => `${field} value cannot be a negative resource quantity`,
} as const;

/** "if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias" for an alias family. */
export function amiFamilyMismatchMessage(aliasFamily: string): string {
  const family = aliasFamilyToAmiFamily(aliasFamily);
  const article = /^[AEIOU]/.test(family) ? "an" : "a";
  return `if set, amiFamily must be '${family}' or 'Custom' when using ${article} ${family} alias`;
}
