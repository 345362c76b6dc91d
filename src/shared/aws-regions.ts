/**
 * AWS regions where EKS with Fargate can run, by partition. A closed list rather than a pattern, so a typo
 * such as "us-east1" fails at synth instead of at the first AWS call.
 * @see https://docs.aws.amazon.com/general/latest/gr/eks.html
 */
export const AWS_REGIONS = [
  "af-south-1",
  "ap-east-1",
  "ap-east-2",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ap-south-1",
  "ap-south-2",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ap-southeast-4",
  "ap-southeast-5",
  "ap-southeast-7",
  "ca-central-1",
  "ca-west-1",
  "cn-north-1",
  "cn-northwest-1",
  "eu-central-1",
  "eu-central-2",
  "eu-north-1",
  "eu-south-1",
  "eu-south-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "il-central-1",
  "me-central-1",
  "me-south-1",
  "mx-central-1",
  "sa-east-1",
  "us-east-1",
  "us-east-2",
  "us-gov-east-1",
  "us-gov-west-1",
  "us-west-1",
  "us-west-2",
] as const;

/**
 * Regions whose zone letters differ between accounts (us-west-1 offers two of a/b/c; ap-northeast-1 has no
 * "b" for most accounts): there the zones must be listed.
 */
export const REGIONS_WITHOUT_DEFAULT_ZONES: readonly string[] = ["us-west-1", "ap-northeast-1"];

/** The zone letters used when none are listed: a, b and c exist in every region outside the list above. */
export const DEFAULT_ZONE_LETTERS = ["a", "b", "c"] as const;

/** The zones used when none are listed. */
export function defaultZones(region: string): string[] {
  return DEFAULT_ZONE_LETTERS.map((letter) => `${region}${letter}`);
}

/** An availability zone name of the region: the region plus one letter (local and wavelength zones excluded). */
export function isZoneOfRegion(zone: string, region: string): boolean {
  return zone.length === region.length + 1 && zone.startsWith(region) && /[a-z]$/.test(zone);
}
