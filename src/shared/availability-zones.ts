/**
 * The availability zones of each region, by letter: a zone name is the region and one letter (us-east-1a).
 * Local Zones (us-east-1-bos-1a) and Wavelength Zones are not availability zones and are not accepted.
 *
 * Checked 2026-11-23 against AWS's published lists: the Regions and Zones guide, "AWS Availability Zones"
 * (https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-availability-zones.html) for the AZ
 * IDs of each region; "Getting Started with AWS in China" for cn-north-1 and cn-northwest-1; and, for the
 * letters, real `aws ec2 describe-availability-zones` outputs (cfn-lint PRs #1052, #1070, #1447, #1739, eksctl
 * #3916 and #5783 for cn-north-1d, the euw2-az4 launch notice for eu-west-2d). A region's letters are the
 * union of what accounts see: names map to physical zones per account, and a few letters exist only for
 * older accounts. Refresh, per region and in more than one account where letters differ:
 *   aws ec2 describe-availability-zones --region R --filters Name=zone-type,Values=availability-zone
 */
export const ZONES_CHECKED_ON = "2026-11-23";

interface RegionZones {
  /** Every letter that is a zone of the region for at least one account. */
  readonly letters: string;
  /**
   * Why the zones of a new VPC must be listed in this region instead of defaulting to a, b and c: accounts
   * differ, so a default would fail in some account (or, changed, would move an existing cluster's subnets).
   */
  readonly listZonesBecause?: string;
}

const THREE: RegionZones = { letters: "abc" };

/** The regions of AWS_REGIONS; a region missing here gets no letter check and no default zones. */
export const AVAILABILITY_ZONES: Readonly<Record<string, RegionZones>> = {
  "af-south-1": THREE,
  "ap-east-1": THREE,
  "ap-east-2": THREE,
  // b is apne1-az3, which only older accounts see; new accounts get a, c and d.
  "ap-northeast-1": { letters: "abcd", listZonesBecause: "most accounts have no ap-northeast-1b (only older accounts do)" },
  "ap-northeast-2": { letters: "abcd" },
  "ap-northeast-3": THREE,
  "ap-south-1": THREE,
  "ap-south-2": THREE,
  "ap-southeast-1": THREE,
  "ap-southeast-2": THREE,
  "ap-southeast-3": THREE,
  "ap-southeast-4": THREE,
  "ap-southeast-5": THREE,
  "ap-southeast-7": THREE,
  // c is cac1-az3, which only some older accounts see; new accounts get a, b and d.
  "ca-central-1": { letters: "abcd", listZonesBecause: "new accounts have a, b and d, and only some older ones have c" },
  "ca-west-1": THREE,
  // Beijing's third zone (cnn1-az4, June 2021) is d; no AWS account has shown a c.
  "cn-north-1": { letters: "abd", listZonesBecause: "its zones are a, b and d in most accounts, not a, b and c" },
  "cn-northwest-1": THREE,
  "eu-central-1": THREE,
  "eu-central-2": THREE,
  "eu-north-1": THREE,
  "eu-south-1": THREE,
  "eu-south-2": THREE,
  "eu-west-1": THREE,
  // d is euw2-az4, opened in 2026: lists built from older data show only a, b and c.
  "eu-west-2": { letters: "abcd" },
  "eu-west-3": THREE,
  "il-central-1": THREE,
  "me-central-1": THREE,
  "me-south-1": THREE,
  "mx-central-1": THREE,
  "sa-east-1": THREE,
  // A seventh zone (Maryland) is announced for 2026 with no letter yet: add it when it opens.
  "us-east-1": { letters: "abcdef" },
  "us-east-2": THREE,
  "us-gov-east-1": THREE,
  "us-gov-west-1": THREE,
  // Three letters exist; each account sees two of them (a and b, a and c, or b and c).
  "us-west-1": { letters: "abc", listZonesBecause: "each account has two of us-west-1a, b and c, and which two differs" },
  "us-west-2": { letters: "abcd" },
};

/** The zone letters used when none are listed, in regions where every account has them. */
export const DEFAULT_ZONE_LETTERS = ["a", "b", "c"] as const;

/** The zones used when none are listed. */
export function defaultZones(region: string): string[] {
  return DEFAULT_ZONE_LETTERS.map((letter) => `${region}${letter}`);
}

/** Why zones must be listed in a region, or undefined where a, b and c are safe; unknown regions are not guessed about. */
export function zonesMustBeListed(region: string, table: Readonly<Record<string, RegionZones>> = AVAILABILITY_ZONES): string | undefined {
  const zones = table[region];
  if (zones === undefined) return `its zones are not in this project's table (src/shared/availability-zones.ts)`;
  return zones.listZonesBecause;
}

/**
 * A zone ID (use1-az1): the region's short code, "-az" and a number, the same physical zone in every account,
 * where zone names (us-east-1a) map differently per account. Karpenter labels nodes with both, the name under
 * topology.kubernetes.io/zone and the ID under topology.k8s.aws/zone-id.
 * @see https://docs.aws.amazon.com/global-infrastructure/latest/regions/az-ids.html
 */
const ZONE_ID = /^[a-z]{2,5}\d+(-[a-z]{3}\d+)?-az\d+$/;

function isZoneId(value: string): boolean {
  return ZONE_ID.test(value);
}

/** Why a value of topology.k8s.aws/zone-id is not a zone ID, or undefined. */
export function zoneIdProblem(value: string, region: string): string | undefined {
  if (isZoneId(value)) return undefined;
  const name = value.startsWith(region) ? ` (${value} is a zone name: those go under topology.kubernetes.io/zone)` : "";
  return `is not a zone ID such as use1-az1${name}: Karpenter matches it against each subnet's zone ID, so no subnet would match`;
}

/** Why a name is not an availability zone of the region, or undefined. Regions missing from the table are checked by shape only. */
export function zoneProblem(zone: string, region: string, table: Readonly<Record<string, RegionZones>> = AVAILABILITY_ZONES): string | undefined {
  if (isZoneId(zone)) {
    return `is a zone ID, and zones here are zone names such as ${region}a (topology.kubernetes.io/zone): no subnet's zone name would match; keep zone IDs to a requirement on topology.k8s.aws/zone-id`;
  }
  if (!(zone.length === region.length + 1 && zone.startsWith(region) && /[a-z]$/.test(zone))) {
    return `is not an availability zone of ${region}; expected ${region} followed by a zone letter, such as ${region}a`;
  }
  const letters = table[region]?.letters;
  if (letters === undefined || letters.includes(zone.slice(-1))) return undefined;
  const zones = [...letters].map((letter) => `${region}${letter}`).join(", ");
  return `is not an availability zone of ${region}, whose zones are ${zones} (AWS's lists as of ${ZONES_CHECKED_ON}; a zone opened since then belongs in src/shared/availability-zones.ts)`;
}
