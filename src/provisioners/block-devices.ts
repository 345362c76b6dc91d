import type { BlockDeviceMapping } from "./karpenter-api";

// The volumes a node boots with: Karpenter's per-family layout, and the sizes the EKS AMIs' snapshots need.

const ebsDefaults = { volumeType: "gp3", encrypted: true, deleteOnTermination: true } as const;

/** Karpenter's Bottlerocket OS volume: the NVIDIA variants' snapshot needs all of it. */
const BOTTLEROCKET_OS_VOLUME_SIZE = "4Gi";

/**
 * The default volumes. Device names follow Karpenter's per-family defaults: Bottlerocket boots from a small
 * OS volume and keeps kubelet's data (images, emptyDir) on /dev/xvdb, Windows AMIs use /dev/sda1.
 * @see https://karpenter.sh/docs/concepts/nodeclasses/#specblockdevicemappings
 */
export function defaultBlockDeviceMappings(family: string, rootVolumeSize: string): BlockDeviceMapping[] {
  const root = (deviceName: string): BlockDeviceMapping => ({ deviceName, rootVolume: true, ebs: { volumeSize: rootVolumeSize, ...ebsDefaults } });
  if (family === "bottlerocket") return [{ deviceName: "/dev/xvda", ebs: { volumeSize: BOTTLEROCKET_OS_VOLUME_SIZE, ...ebsDefaults } }, root("/dev/xvdb")];
  if (family.startsWith("windows")) return [root("/dev/sda1")];
  return [root("/dev/xvda")];
}

/**
 * The smallest volume (GiB, as EC2 reads it) each EKS-optimized AMI's snapshot allows on a device: EC2
 * refuses a launch whose volume is smaller than its snapshot ("Volume of size 2GB is smaller than snapshot
 * ..., expect size >= 4GB"), and Karpenter retries the launch for ever. Windows AMIs are left out: their
 * snapshot size is not published where it could be checked.
 * @see https://github.com/awslabs/amazon-eks-ami/pull/1581 (AL2023: 20 GiB)
 * @see https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/variables-default.json (AL2: 4 GiB)
 * @see https://github.com/bottlerocket-os/bottlerocket/pull/1118 (Bottlerocket: 2 GiB OS volume)
 * @see https://github.com/aws/karpenter-provider-aws/issues/5283 (Bottlerocket NVIDIA: 4 GiB)
 */
export const SNAPSHOT_MIN_GIB: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  al2023: { "/dev/xvda": 20 },
  al2: { "/dev/xvda": 4 },
  bottlerocket: { "/dev/xvda": 2 },
};

/** Bottlerocket's NVIDIA variants (chosen for GPU instance types) boot from a 4 GiB snapshot. */
export const BOTTLEROCKET_NVIDIA_OS_MIN_GIB = 4;

/** "/dev/xvda" for "xvda" too: EC2 takes both forms. */
function normalDeviceName(deviceName: string): string {
  return deviceName.startsWith("/dev/") ? deviceName : `/dev/${deviceName}`;
}

/** The volumes of a node class as EC2 gets them, each with the config path of its size. */
export interface SizedVolume {
  readonly deviceName: string;
  readonly volumeSize: string;
  readonly path: readonly (string | number)[];
}

/**
 * The volumes that start from the AMI's snapshot (no snapshotID of their own) and have a size: those of
 * blockDeviceMappings, or the default layout's root volume, sized by rootVolumeSize.
 */
export function volumesOnAmiSnapshot(
  family: string,
  nodeClass: {
    readonly rootVolumeSize?: string;
    readonly blockDeviceMappings?: readonly { readonly deviceName: string; readonly ebs?: { readonly volumeSize?: string; readonly snapshotID?: string } }[];
  },
  defaultRootVolumeSize: string,
): SizedVolume[] {
  if (nodeClass.blockDeviceMappings === undefined) {
    return defaultBlockDeviceMappings(family, nodeClass.rootVolumeSize ?? defaultRootVolumeSize).flatMap((m) =>
      m.rootVolume && m.deviceName !== undefined && m.ebs?.volumeSize !== undefined
        ? [{ deviceName: m.deviceName, volumeSize: m.ebs.volumeSize, path: ["rootVolumeSize"] }]
        : [],
    );
  }
  return nodeClass.blockDeviceMappings.flatMap((m, i) =>
    m.ebs?.volumeSize !== undefined && m.ebs.snapshotID === undefined
      ? [{ deviceName: normalDeviceName(m.deviceName), volumeSize: m.ebs.volumeSize, path: ["blockDeviceMappings", i, "ebs", "volumeSize"] }]
      : [],
  );
}
