import { z } from "zod";
import { awsTagKey, awsTagValue, checkedString, repeatedIndexes, strictObject, withCheckedKeys, withChecks } from "../shared/schema-helpers";
import { ALIAS_FAMILIES, AMI_FAMILIES, aliasFamilyToAmiFamily } from "../shared/vocabulary/ami-families";
import { aliasFamily, aliasProblem, effectiveAmiSelectorTerms, eksAmiFamily, osFamily } from "./ami-selection";
import { blockDeviceMapping } from "./block-device-schema";
import { SNAPSHOT_MIN_GIB, volumesOnAmiSnapshot } from "./block-devices";
import { sizeSentToEc2 } from "./ebs-volume-limits";
import { objectName, selectorTags } from "./field-schemas";
import { kubeletSchema } from "./kubelet-schema";
import { DEFAULT_NODE_CLASS_NAME, DEFAULT_ROOT_VOLUME_SIZE } from "./provisioner-defaults";
import { MAX_BLOCK_DEVICE_MAPPINGS, MAX_SELECTOR_TERMS } from "./rules/crd-limits";
import { amiFamilyMismatchMessage, MESSAGES } from "./rules/crd-messages";
import { AMI_ID, AWS_ACCOUNT_ID, CAPACITY_RESERVATION_ID, VOLUME_SIZE } from "./rules/crd-patterns";
import { restrictedTagMessage } from "./rules/restricted-keys";
import { userDataProblem } from "./user-data";

// The `nodeClasses` field of the cluster config: Karpenter EC2NodeClasses, with the CRD's rules.

const amiAlias = checkedString(aliasProblem);

const amiSelectorTerm = withChecks(
  strictObject({
    alias: amiAlias.optional().meta({ description: "An EKS-optimized AMI, `family@version` (as `amiAlias`). Must be the only term." }),
    id: z
      .string()
      .regex(AMI_ID, { error: "must be an AMI id such as ami-0123456789abcdef0" })
      .optional()
      .meta({ description: "An AMI id; alone in its term." }),
    name: z.string().min(1).optional().meta({ description: "The AMI's name (not its Name tag); `*` wildcards allowed." }),
    owner: z.string().min(1).optional().meta({ description: 'Account ids, "self", "amazon" or "aws-marketplace"; with `name` or `tags`.' }),
    ssmParameter: z.string().min(1).optional().meta({ description: "An SSM parameter (name or ARN) holding the AMI id." }),
    tags: selectorTags.optional().meta({ description: "AMIs carrying all these tags (up to 20; `*` selects any value)." }),
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
    id: z
      .string()
      .regex(CAPACITY_RESERVATION_ID, { error: "must be a capacity reservation id such as cr-0123456789abcdef0" })
      .optional()
      .meta({ description: "A reservation by id; alone in its term." }),
    ownerID: z
      .string()
      .regex(AWS_ACCOUNT_ID, { error: "must be a 12-digit AWS account id" })
      .optional()
      .meta({ description: "The account that owns the reservations (shared through RAM); with `tags` or `instanceMatchCriteria`." }),
    tags: selectorTags
      .refine((tags) => Object.keys(tags).length > 0, { error: "must hold at least one tag (omit tags to select by the other fields)" })
      .optional()
      .meta({ description: "Reservations carrying all these tags." }),
    instanceMatchCriteria: z
      .enum(["open", "targeted"])
      .optional()
      .meta({ description: "`open`: reservations any instance of a matching type may use; `targeted`: those that must be named." }),
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

const metadataOptions = strictObject({
  httpEndpoint: z.enum(["enabled", "disabled"]).default("enabled").meta({ description: "The instance metadata service (IMDS) on the node." }),
  httpProtocolIPv6: z.enum(["enabled", "disabled"]).default("disabled").meta({ description: "IMDS over IPv6." }),
  httpPutResponseHopLimit: z
    .number()
    .int()
    .min(1, { error: "must be between 1 and 64" })
    .max(64, { error: "must be between 1 and 64" })
    .default(1)
    .meta({ description: "1 keeps pods (one network hop further away) from reaching the node's instance credentials." }),
  httpTokens: z.enum(["required", "optional"]).default("required").meta({ description: "`required`: IMDSv2 only." }),
})
  .prefault({})
  .meta({ description: "The nodes' instance metadata service: IMDSv2 required, hop limit 1." });

/** Node class tags also tag what Karpenter launches, where Karpenter reserves some keys for itself. */
export const nodeClassTags = withCheckedKeys(z.record(awsTagKey(MESSAGES.emptyTagKey), awsTagValue), restrictedTagMessage);

const nodeClassFields = strictObject({
  name: objectName("EC2NodeClass", "karpenter.k8s.aws/ec2nodeclass").meta({
    description: "The EC2NodeClass name, referenced by NodePools' `nodeClass`: a DNS subdomain of at most 63 characters.",
  }),
  amiAlias: amiAlias.optional().meta({
    defaultText: "`al2023@latest`",
    description: `\`family@version\`: ${ALIAS_FAMILIES.join(", ")} (Windows: \`latest\` only); shorthand for \`amiSelectorTerms: [{ alias }]\`. \`al2\` is refused for Kubernetes 1.33 and later (EKS's last AL2 AMIs are for 1.32) and warned about before (no updates since 2025-11-26). With \`@latest\`, every node is replaced (drift) within the pool's disruption budgets when AWS publishes an AMI: nodes stay patched without anyone acting, which is why it is the default. Pin a release (\`al2023@v20251106\`) when AMI changes must go through review; then upgrading the AMI is a config change.`,
  }),
  amiSelectorTerms: z
    .array(amiSelectorTerm)
    .min(1, { error: "must list at least one term" })
    .max(MAX_SELECTOR_TERMS, { error: `must list at most ${MAX_SELECTOR_TERMS} terms` })
    .optional()
    .meta({ description: "Instead of `amiAlias`: AMIs by `id`, `name` (+`owner`), `tags` or `ssmParameter`; then `amiFamily` is required." }),
  amiFamily: z
    .enum(AMI_FAMILIES)
    .optional()
    .meta({ description: "The user-data and block-device format; implied by an alias, required without one (`Custom`: your user data bootstraps the node)." }),
  role: z.string().min(1, { error: MESSAGES.roleEmpty }).optional().meta({
    defaultText: "the node role",
    description:
      "The node IAM role; exactly one of `role` and `instanceProfile`. It may only be this cluster's `<name>-karpenter-node`, or for a Windows class `<name>-karpenter-windows-node`: the controller may pass no other role, and only they have access entries (`EC2_LINUX`, `EC2_WINDOWS`; an IAM role can have one).",
  }),
  instanceProfile: z
    .string()
    .min(1, { error: MESSAGES.instanceProfileEmpty })
    .optional()
    .meta({ description: "An instance profile you manage, instead of `role` (for example when Karpenter may not call IAM); it must hold the node role." }),
  // The root volume is gp3 (render-ec2-node-class.ts), which takes every size the CRD's pattern does.
  rootVolumeSize: z
    .string()
    .regex(VOLUME_SIZE, { error: "must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)" })
    .optional()
    .meta({
      defaultText: `\`${DEFAULT_ROOT_VOLUME_SIZE}\``,
      description: "The root volume's size (gp3, encrypted, deleted on termination), up to the CRD's `59000Gi`. Not with `blockDeviceMappings`.",
    }),
  blockDeviceMappings: z
    .array(blockDeviceMapping)
    .min(1, { error: "must list at least one volume (omit it for the default root volume)" })
    .max(MAX_BLOCK_DEVICE_MAPPINGS, { error: `must list at most ${MAX_BLOCK_DEVICE_MAPPINGS} volumes` })
    .optional()
    .meta({ description: "Full control over the volumes, replacing the default root volume." }),
  capacityReservationSelectorTerms: z
    .array(capacityReservationSelectorTerm)
    .min(1, { error: "must list at least one term (omit it when the node class uses no reservation)" })
    .max(MAX_SELECTOR_TERMS, { error: `must list at most ${MAX_SELECTOR_TERMS} terms` })
    .optional()
    .meta({
      description:
        "On-Demand Capacity Reservations (and Capacity Blocks) this class may launch into, up to 30 terms. Required for a pool with capacity type `reserved`: Karpenter launches reserved capacity only from the reservations a class selects.",
    }),
  metadataOptions,
  kubelet: kubeletSchema.optional().meta({
    description:
      "Kubelet settings of the class's nodes. `maxPods`, `podsPerCore`, `systemReserved`, `kubeReserved` and `evictionHard` change a node's allocatable resources, and the planner applies them as Karpenter does.",
  }),
  userData: z.string().optional().meta({
    description:
      "Merged with Karpenter's bootstrap; the format depends on the AMI family. Synth refuses what Karpenter could not parse (every launch would fail): Bottlerocket's must be TOML; AL2023's, when it starts with a MIME header, a multipart archive with a boundary and a closing line (a plain shell script or NodeConfig is wrapped by Karpenter).",
  }),
  tags: nodeClassTags.default({}).meta({
    description:
      "Over the cluster's tags, on instances, volumes and launch templates. The cluster's rules; with the cluster's tags and Karpenter's 6, at most 50 in all.",
  }),
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
  {
    // EC2 refuses a volume smaller than the snapshot it starts from; known for EKS's own AMIs only.
    reads: ["amiAlias", "amiSelectorTerms", "rootVolumeSize", "blockDeviceMappings"],
    check: (nodeClass, report) => {
      const family = eksAmiFamily(nodeClass);
      if (family === undefined) return;
      for (const volume of volumesOnAmiSnapshot(family, nodeClass, DEFAULT_ROOT_VOLUME_SIZE)) {
        const minimum = SNAPSHOT_MIN_GIB[family]?.[volume.deviceName];
        const sent = sizeSentToEc2(volume.volumeSize);
        if (minimum === undefined || sent >= minimum) continue;
        report(
          volume.path,
          volume.volumeSize,
          `reaches EC2 as ${sent} GiB, smaller than the ${minimum} GiB snapshot ${volume.deviceName} starts from in EKS's ${family} AMIs: EC2 refuses every launch (InvalidBlockDeviceMapping); use at least ${minimum}Gi`,
        );
      }
    },
  },
  {
    reads: ["amiAlias", "amiSelectorTerms", "amiFamily", "metadataOptions.httpEndpoint"],
    check: (nodeClass, report) => {
      const family = osFamily({ amiSelectorTerms: effectiveAmiSelectorTerms(nodeClass), amiFamily: nodeClass.amiFamily });
      if (nodeClass.metadataOptions.httpEndpoint !== "disabled" || family === "custom") return;
      report(
        ["metadataOptions", "httpEndpoint"],
        "disabled",
        `must be enabled with ${family} AMIs: their bootstrap reads the node's configuration (user data) and identity from the instance metadata service, so no node would join; httpTokens: required with httpPutResponseHopLimit: 1 already keeps pods from the node's credentials`,
      );
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
)
  .prefault([{ name: DEFAULT_NODE_CLASS_NAME }])
  .meta({
    title: "EC2NodeClasses",
    defaultText: "one class, `default`, with `amiAlias: al2023@latest`",
    description: `How the nodes of a pool are built: AMI, disks, metadata service, kubelet, user data and tags. Subnets and security groups are always selected by \`karpenter.sh/discovery: <name>\`.

**Windows node classes** (\`amiAlias: windows2019/2022/2025@latest\`, pools \`architectures: [amd64]\`) bring what EKS needs for Windows nodes: a node role of their own, \`<name>-karpenter-windows-node\`, with an \`EC2_WINDOWS\` access entry (it grants the \`eks:kube-proxy-windows\` group Windows DNS needs), Karpenter allowed to pass it, \`AmazonEKSVPCResourceController\` on the cluster role, and Windows IPAM switched on through the vpc-cni add-on, which owns the \`amazon-vpc-cni\` ConfigMap the VPC resource controller reads (written there by hand the setting would be overwritten at the add-on's next update). Windows pods need \`nodeSelector: kubernetes.io/os: windows\`.`,
  });

/** A node class as the config writes it, simple defaults filled in (see provisioner-defaults for the others). */
export type NodeClassConfig = z.output<typeof nodeClassSchema>;
