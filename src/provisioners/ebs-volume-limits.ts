/**
 * The sizes EC2 takes per EBS volume type, in the unit Karpenter sends it: Karpenter converts a volumeSize to
 * `ScaledValue(resource.Giga)`, whole 10^9 bytes rounded up, and EC2 reads that number as GiB. So "16384Gi"
 * reaches EC2 as 17593 and a gp2 launch fails, although the CRD's pattern (up to 59000Gi, for io2 and gp3)
 * admits it. gp3's limit was raised from 16 TiB to 64 TiB (with 80,000 IOPS).
 * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateVolume.html (Size)
 * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_LaunchTemplateEbsBlockDeviceRequest.html (VolumeSize)
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/launchtemplate/launchtemplate.go (blockDeviceMappings)
 */
export const EBS_SIZE_LIMITS: Readonly<Record<string, readonly [min: number, max: number]>> = {
  gp2: [1, 16_384],
  gp3: [1, 65_536],
  io1: [4, 16_384],
  io2: [4, 65_536],
  st1: [125, 16_384],
  sc1: [125, 16_384],
  standard: [1, 1_024],
};

const UNIT_BYTES: Readonly<Record<string, bigint>> = { Gi: 2n ** 30n, G: 10n ** 9n, Ti: 2n ** 40n, T: 10n ** 12n };
const GIGA = 10n ** 9n;

/** The number Karpenter sends EC2 for a volumeSize the CRD's pattern accepts ("100Gi" → 108). */
export function sizeSentToEc2(volumeSize: string): number {
  const [, amount, unit] = /^([0-9]+)(Gi|G|Ti|T)$/.exec(volumeSize) ?? [];
  if (amount === undefined) throw new Error(`not a CRD volume size: ${volumeSize}`);
  const bytes = BigInt(amount) * UNIT_BYTES[unit];
  return Number((bytes + GIGA - 1n) / GIGA);
}

/** Why EC2 would refuse a volume of this size and type, or undefined. */
export function volumeSizeProblem(volumeSize: string, volumeType: string): string | undefined {
  const limits = EBS_SIZE_LIMITS[volumeType];
  if (limits === undefined) return undefined;
  const sent = sizeSentToEc2(volumeSize);
  const [min, max] = limits;
  if (sent >= min && sent <= max) return undefined;
  const largestGi = Math.floor((max * 1e9) / 2 ** 30);
  return `reaches EC2 as ${sent} (Karpenter sends whole 10^9 bytes, rounded up), outside ${volumeType}'s ${min}-${max}: ${sent > max ? `at most ${largestGi}Gi or ${max}G` : `at least ${min}G`} for ${volumeType}`;
}
