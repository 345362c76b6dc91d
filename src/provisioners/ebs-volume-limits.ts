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

/**
 * What EC2 takes for IOPS and throughput per volume type: a range, and a ceiling per GiB of volume (IOPS) or per
 * provisioned IOPS (throughput). Types missing here take neither field. The CRD checks none of it (its
 * descriptions still quote gp3's old 16,000 IOPS and 1,000 MiB/s), so a value EC2 refuses fails every launch.
 * gp3's ceilings were raised in 2025 to 80,000 IOPS and 2,000 MiB/s.
 * @see https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html
 * @see https://docs.aws.amazon.com/ebs/latest/userguide/provisioned-iops.html (io1 50:1, io2 1000:1)
 * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_EbsBlockDevice.html (Iops: required for io1 and io2)
 * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateVolume.html (Throughput: 125-2,000)
 */
interface Performance {
  readonly iops: readonly [min: number, max: number];
  readonly iopsPerGib: number;
  readonly iopsRequired: boolean;
  /** Throughput range and its ceiling per provisioned IOPS; only gp3 takes throughput. */
  readonly throughput?: { readonly range: readonly [min: number, max: number]; readonly perIops: number; readonly defaultIops: number };
}

const EBS_PERFORMANCE: Readonly<Record<string, Performance>> = {
  gp3: { iops: [3_000, 80_000], iopsPerGib: 500, iopsRequired: false, throughput: { range: [125, 2_000], perIops: 0.25, defaultIops: 3_000 } },
  io1: { iops: [100, 64_000], iopsPerGib: 50, iopsRequired: true },
  io2: { iops: [100, 256_000], iopsPerGib: 1_000, iopsRequired: true },
};

export interface VolumePerformance {
  readonly volumeType: string;
  readonly volumeSize?: string;
  readonly iops?: number;
  readonly throughput?: number;
}

/** Why EC2 would refuse a volume's IOPS or throughput, each at its field. */
export function volumePerformanceProblems(volume: VolumePerformance): { readonly field: "iops" | "throughput"; readonly message: string }[] {
  const { volumeType, volumeSize, iops, throughput } = volume;
  const rules = EBS_PERFORMANCE[volumeType];
  const problems: { field: "iops" | "throughput"; message: string }[] = [];
  const takesIops = Object.keys(EBS_PERFORMANCE).join(", ");
  if (rules === undefined) {
    if (iops !== undefined)
      problems.push({ field: "iops", message: `does not apply to ${volumeType}, whose IOPS EC2 sets itself; only ${takesIops} take iops` });
    if (throughput !== undefined) problems.push({ field: "throughput", message: `does not apply to ${volumeType}; only gp3 takes throughput` });
    return problems;
  }
  const [min, max] = rules.iops;
  if (iops === undefined && rules.iopsRequired) {
    problems.push({ field: "iops", message: `is required for ${volumeType} (EC2 refuses the volume without it): ${min}-${max} IOPS` });
  }
  if (iops !== undefined) {
    const sizeGib = volumeSize === undefined ? undefined : sizeSentToEc2(volumeSize);
    if (iops < min || iops > max) problems.push({ field: "iops", message: `is outside ${volumeType}'s ${min}-${max} IOPS` });
    else if (sizeGib !== undefined && iops > rules.iopsPerGib * sizeGib) {
      problems.push({
        field: "iops",
        message: `is more than ${volumeType}'s ${rules.iopsPerGib} IOPS per GiB allow for ${volumeSize} (${sizeGib} GiB as EC2 reads it): at most ${rules.iopsPerGib * sizeGib}, or a larger volume`,
      });
    }
  }
  if (throughput !== undefined) {
    if (rules.throughput === undefined) {
      problems.push({ field: "throughput", message: `does not apply to ${volumeType}; only gp3 takes throughput` });
    } else {
      const [low, high] = rules.throughput.range;
      const ceiling = rules.throughput.perIops * (iops ?? rules.throughput.defaultIops);
      if (throughput < low || throughput > high) problems.push({ field: "throughput", message: `is outside ${volumeType}'s ${low}-${high} MiB/s` });
      else if (throughput > ceiling) {
        problems.push({
          field: "throughput",
          message: `is more than ${volumeType} allows for ${iops ?? `the default ${rules.throughput.defaultIops}`} IOPS (${rules.throughput.perIops} MiB/s per IOPS): at most ${ceiling}, or raise iops to ${Math.ceil(throughput / rules.throughput.perIops)}`,
        });
      }
    }
  }
  return problems;
}
