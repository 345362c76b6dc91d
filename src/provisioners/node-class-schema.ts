import { z } from "zod";
import { awsTagKey, awsTagValue, checkedString, repeatedIndexes, strictObject, withCheckedKeys, withChecks } from "../shared/schema-helpers";
import { ALIAS_FAMILIES, AMI_FAMILIES, aliasFamilyToAmiFamily } from "../shared/vocabulary/ami-families";
import { aliasFamily, aliasProblem, effectiveAmiSelectorTerms, osFamily } from "./ami-selection";
import { volumeSizeProblem } from "./ebs-volume-limits";
import { objectName, selectorTags } from "./field-schemas";
import { kubeletSchema } from "./kubelet-schema";
import { DEFAULT_NODE_CLASS_NAME } from "./provisioner-defaults";
import { MAX_BLOCK_DEVICE_MAPPINGS, MAX_SELECTOR_TERMS, VOLUME_TYPES } from "./rules/crd-limits";
import { amiFamilyMismatchMessage, MESSAGES } from "./rules/crd-messages";
import { AMI_ID, AWS_ACCOUNT_ID, CAPACITY_RESERVATION_ID, VOLUME_SIZE } from "./rules/crd-patterns";
import { restrictedTagMessage } from "./rules/restricted-keys";
import { userDataProblem } from "./user-data";

// The `nodeClasses` field of the cluster config: Karpenter EC2NodeClasses, with the CRD's rules.

const amiAlias = checkedString(aliasProblem);

const amiSelectorTerm = withChecks(
  strictObject({
    /** An EKS-optimized AMI, `family@version`. Must be the only term. */
    alias: amiAlias.optional(),
    id: z.string().regex(AMI_ID, { error: "must be an AMI id such as ami-0123456789abcdef0" }).optional(),
    /** The AMI's name (not its Name tag); `*` wildcards allowed. */
    name: z.string().min(1).optional(),
    /** Account ids, "self", "amazon" or "aws-marketplace"; with name or tags. */
    owner: z.string().min(1).optional(),
    /** An SSM parameter (name or ARN) holding the AMI id. */
    ssmParameter: z.string().min(1).optional(),
    tags: selectorTags.optional(),
  }),
  [
    {
      reads: ["alias", "id", "name", "owner", "ssmParameter", "tags"],
      check: (term, report) => {
        const set = (...keys: (keyof typeof term)[]) => keys.some((k) => term[k] !== undefined);
        if (!set("tags", "id", "name", "alias", "ssmParameter")) report([], term, MESSAGES.amiTermEmpty);
        if (set("id") && set("alias", "tags", "name", "owner")) report([], term, MESSAGES.amiIdExclusive);
        if (set("alias") && set("id", "tags", "name", "owner")) report([], term, MESSAGES.aliasExclusiveFields);
      },
    },
  ],
);

/**
 * Each term selects reservations by id, or by tags and/or match criteria, optionally of one owner. The CRD
 * rejects an id combined with other fields only when every term does it; each term is checked here.
 */
const capacityReservationSelectorTerm = withChecks(
  strictObject({
    id: z.string().regex(CAPACITY_RESERVATION_ID, { error: "must be a capacity reservation id such as cr-0123456789abcdef0" }).optional(),
    /** The account that owns the reservations (shared through RAM); with tags or instanceMatchCriteria. */
    ownerID: z.string().regex(AWS_ACCOUNT_ID, { error: "must be a 12-digit AWS account id" }).optional(),
    tags: selectorTags
      .refine((tags) => Object.keys(tags).length > 0, { error: "must hold at least one tag (omit tags to select by the other fields)" })
      .optional(),
    /** open: reservations any instance of a matching type may use; targeted: those that must be named. */
    instanceMatchCriteria: z.enum(["open", "targeted"]).optional(),
  }),
  [
    {
      reads: ["id", "ownerID", "tags", "instanceMatchCriteria"],
      check: (term, report) => {
        if (term.id === undefined && term.tags === undefined && term.instanceMatchCriteria === undefined) report([], term, MESSAGES.reservationTermEmpty);
        if (term.id !== undefined && (term.ownerID !== undefined || term.tags !== undefined || term.instanceMatchCriteria !== undefined)) {
          report([], term, MESSAGES.reservationIdExclusive);
        }
      },
    },
  ],
);

const ebs = withChecks(
  strictObject({
    volumeSize: z.string().regex(VOLUME_SIZE, { error: "must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)" }).optional(),
    volumeType: z.enum(VOLUME_TYPES).default("gp3"),
    iops: z.number().int().min(0).optional(),
    throughput: z.number().int().min(0).optional(),
    encrypted: z.boolean().default(true),
    kmsKeyID: z.string().min(1).optional(),
    snapshotID: z.string().min(1).optional(),
    deleteOnTermination: z.boolean().default(true),
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
  ],
);

const blockDeviceMapping = strictObject({
  // The CRD has no pattern; EC2 takes "/dev/sdh" and, on Windows, "xvdh" (the CRD's own examples).
  deviceName: z.string().regex(/^(\/dev\/)?[a-z0-9]+$/, { error: "must be a device name such as /dev/xvda, /dev/sdh or (Windows) xvdh" }),
  rootVolume: z.boolean().optional(),
  ebs: ebs.optional(),
});

const metadataOptions = strictObject({
  httpEndpoint: z.enum(["enabled", "disabled"]).default("enabled"),
  httpProtocolIPv6: z.enum(["enabled", "disabled"]).default("disabled"),
  /** 1 keeps pods (one network hop further away) from reaching the node's IMDS credentials. */
  httpPutResponseHopLimit: z.number().int().min(1, { error: "must be between 1 and 64" }).max(64, { error: "must be between 1 and 64" }).default(1),
  /** required = IMDSv2 only. */
  httpTokens: z.enum(["required", "optional"]).default("required"),
}).prefault({});

/** Node class tags also tag what Karpenter launches, where Karpenter reserves some keys for itself. */
export const nodeClassTags = withCheckedKeys(z.record(awsTagKey(MESSAGES.emptyTagKey), awsTagValue), restrictedTagMessage);

const nodeClassFields = strictObject({
  /** The EC2NodeClass name, referenced by NodePools' `nodeClass`. */
  name: objectName("EC2NodeClass", "karpenter.k8s.aws/ec2nodeclass"),
  /** Shorthand for `amiSelectorTerms: [{ alias }]`. Default al2023@latest when amiSelectorTerms is absent. */
  amiAlias: amiAlias.optional(),
  /** Instead of amiAlias: AMIs by id, name, tags or SSM parameter (then amiFamily is required). */
  amiSelectorTerms: z
    .array(amiSelectorTerm)
    .min(1, { error: "must list at least one term" })
    .max(MAX_SELECTOR_TERMS, { error: `must list at most ${MAX_SELECTOR_TERMS} terms` })
    .optional(),
  /** The user-data and block-device format; implied by an alias, required without one. */
  amiFamily: z.enum(AMI_FAMILIES).optional(),
  /**
   * The node IAM role. Default: the role this project creates, which has the EKS access entry nodes need to
   * join; another role needs its own access entry (type EC2_LINUX).
   */
  role: z.string().min(1, { error: MESSAGES.roleEmpty }).optional(),
  /** An instance profile you manage, instead of role (for example when Karpenter may not call IAM). */
  instanceProfile: z.string().min(1, { error: MESSAGES.instanceProfileEmpty }).optional(),
  /** Size of the root volume (gp3, encrypted), default 50Gi. Not allowed with blockDeviceMappings. */
  // The root volume is gp3 (render-ec2-node-class.ts), which takes every size the CRD's pattern does.
  rootVolumeSize: z.string().regex(VOLUME_SIZE, { error: "must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)" }).optional(),
  /** Full control over the volumes, replacing the default root volume. */
  blockDeviceMappings: z
    .array(blockDeviceMapping)
    .min(1, { error: "must list at least one volume (omit it for the default root volume)" })
    .max(MAX_BLOCK_DEVICE_MAPPINGS, { error: `must list at most ${MAX_BLOCK_DEVICE_MAPPINGS} volumes` })
    .optional(),
  /** Capacity reservations NodePools with capacity type `reserved` launch into (Karpenter needs them listed). */
  capacityReservationSelectorTerms: z
    .array(capacityReservationSelectorTerm)
    .min(1, { error: "must list at least one term (omit it when the node class uses no reservation)" })
    .max(MAX_SELECTOR_TERMS, { error: `must list at most ${MAX_SELECTOR_TERMS} terms` })
    .optional(),
  metadataOptions,
  kubelet: kubeletSchema.optional(),
  /** Merged by Karpenter with its own bootstrap user data; the format depends on the AMI family. */
  userData: z.string().optional(),
  /** Tags on the instances, volumes and launch templates, over the cluster's tags. */
  tags: nodeClassTags.default({}),
});

export const nodeClassSchema = withChecks(nodeClassFields, [
  {
    reads: ["userData", "amiAlias", "amiSelectorTerms", "amiFamily"],
    check: (nodeClass, report) => {
      const family = osFamily({ amiSelectorTerms: effectiveAmiSelectorTerms(nodeClass), amiFamily: nodeClass.amiFamily });
      const problem = nodeClass.userData === undefined ? undefined : userDataProblem(nodeClass.userData, family);
      if (problem !== undefined) report(["userData"], nodeClass.userData, problem);
    },
  },
  {
    reads: ["amiAlias", "amiSelectorTerms"],
    check: (nodeClass, report) => {
      if (nodeClass.amiAlias !== undefined && nodeClass.amiSelectorTerms !== undefined) {
        report(["amiSelectorTerms"], nodeClass.amiSelectorTerms, "cannot be combined with amiAlias; set one of them");
      }
    },
  },
  {
    reads: ["role", "instanceProfile"],
    check: ({ role, instanceProfile }, report) => {
      if (role !== undefined && instanceProfile !== undefined) report([], { role, instanceProfile }, MESSAGES.exactlyOneRoleOrProfile);
    },
  },
  {
    reads: ["amiSelectorTerms"],
    check: ({ amiSelectorTerms: terms }, report) => {
      if (terms?.some((t) => t.alias !== undefined) && terms.length !== 1) report(["amiSelectorTerms"], terms, MESSAGES.aliasExclusiveTerms);
    },
  },
  {
    reads: ["amiAlias", "amiSelectorTerms", "amiFamily"],
    check: (nodeClass, report) => {
      const aliases = effectiveAmiSelectorTerms(nodeClass).flatMap((t) => (t.alias === undefined ? [] : [t.alias]));
      if (aliases.length === 0 && nodeClass.amiFamily === undefined) report(["amiFamily"], undefined, MESSAGES.amiFamilyRequired);
      if (nodeClass.amiFamily === undefined || nodeClass.amiFamily === "Custom") return;
      for (const family of new Set(aliases.map(aliasFamily))) {
        if (!(ALIAS_FAMILIES as readonly string[]).includes(family)) continue;
        if (nodeClass.amiFamily !== aliasFamilyToAmiFamily(family)) report(["amiFamily"], nodeClass.amiFamily, amiFamilyMismatchMessage(family));
      }
    },
  },
  {
    reads: ["rootVolumeSize", "blockDeviceMappings"],
    check: ({ rootVolumeSize, blockDeviceMappings }, report) => {
      if (rootVolumeSize !== undefined && blockDeviceMappings !== undefined) {
        report(
          ["rootVolumeSize"],
          rootVolumeSize,
          "applies to the default root volume only; with blockDeviceMappings, set ebs.volumeSize on the root volume there",
        );
      }
    },
  },
  {
    reads: ["blockDeviceMappings.*.rootVolume", "blockDeviceMappings.*.deviceName"],
    check: ({ blockDeviceMappings }, report) => {
      const roots = (blockDeviceMappings ?? []).filter((m) => m.rootVolume === true);
      if (roots.length > 1) {
        report(
          ["blockDeviceMappings"],
          roots.map((m) => m.deviceName),
          MESSAGES.singleRootVolume,
        );
      }
    },
  },
]);

export const nodeClassesSchema = withChecks(
  z.array(nodeClassSchema).min(1, { error: "must list at least one node class (omit nodeClasses for the default one)" }),
  [
    {
      reads: ["*.name"],
      check: (classes, report) => {
        for (const i of repeatedIndexes(classes, (c) => c.name)) report([i, "name"], classes[i].name, "is listed twice; each node class name may appear once");
      },
    },
  ],
).prefault([{ name: DEFAULT_NODE_CLASS_NAME }]);

/** A node class as the config writes it, simple defaults filled in (see provisioner-defaults for the others). */
export type NodeClassConfig = z.output<typeof nodeClassSchema>;
