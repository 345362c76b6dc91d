import { z } from "zod";
import { strictObject, withChecks } from "../shared/schema-helpers";
import { volumePerformanceProblems, volumeSizeProblem } from "./ebs-volume-limits";
import { VOLUME_TYPES } from "./rules/crd-limits";
import { MESSAGES } from "./rules/crd-messages";
import { VOLUME_SIZE } from "./rules/crd-patterns";

// A node class's `blockDeviceMappings` entry: the CRD's rules, and what EC2 takes for each volume type.

const ebs = withChecks(
  strictObject({
    volumeSize: z.string().regex(VOLUME_SIZE, { error: "must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)" }).optional().meta({
      description:
        "The volume's size, checked against its volume type's range in EC2's units (Karpenter sends whole 10^9 bytes, so `16Ti` of gp2 reaches EC2 as 17593, over its 16384).",
    }),
    volumeType: z.enum(VOLUME_TYPES).default("gp3").meta({ description: "The EBS volume type." }),
    iops: z.number().int().min(0).optional().meta({ description: "Provisioned IOPS (gp3, io1, io2)." }),
    throughput: z.number().int().min(0).optional().meta({ description: "Throughput in MiB/s (gp3)." }),
    encrypted: z.boolean().default(true).meta({ description: "Encrypt the volume (with `kmsKeyID`, else the account's EBS key)." }),
    kmsKeyID: z.string().min(1).optional().meta({ description: "The KMS key that encrypts the volume." }),
    snapshotID: z.string().min(1).optional().meta({ description: "A snapshot to create the volume from; `volumeSize` or this is required." }),
    deleteOnTermination: z.boolean().default(true).meta({ description: "Delete the volume with its instance." }),
  }),
  [
    {
      reads: ["snapshotID", "volumeSize"],
      check: (volume, report) => {
        if (volume.snapshotID === undefined && volume.volumeSize === undefined) report([], volume, MESSAGES.snapshotOrSize);
      },
    },
    {
      reads: ["volumeSize", "volumeType"],
      check: ({ volumeSize, volumeType }, report) => {
        const problem = volumeSize === undefined ? undefined : volumeSizeProblem(volumeSize, volumeType);
        if (problem !== undefined) report(["volumeSize"], volumeSize, problem);
      },
    },
    {
      reads: ["volumeSize", "volumeType", "iops", "throughput"],
      check: (volume, report) => {
        for (const { field, message } of volumePerformanceProblems(volume)) report([field], volume[field], message);
      },
    },
  ],
);

export const blockDeviceMapping = strictObject({
  // The CRD has no pattern; EC2 takes "/dev/sdh" and, on Windows, "xvdh" (the CRD's own examples).
  deviceName: z
    .string()
    .regex(/^(\/dev\/)?[a-z0-9]+$/, { error: "must be a device name such as /dev/xvda, /dev/sdh or (Windows) xvdh" })
    .meta({ description: "The device the volume attaches as: `/dev/xvda` is the root of AL2023, `/dev/xvdb` Bottlerocket's data volume." }),
  rootVolume: z.boolean().optional().meta({ description: "Marks the root volume (at most one); Karpenter counts its size as the node's ephemeral storage." }),
  ebs: ebs.optional().meta({ description: "The EBS volume." }),
});
