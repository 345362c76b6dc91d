import { z } from "zod";
import { backendSchema } from "../backend/backend-config";
import { accessSchema } from "../eks/access-settings";
import { addonsSchema, coreDnsSchema } from "../eks/addon-settings";
import { clusterSettingsSchema } from "../eks/cluster-settings";
import { CALENDAR_DATE, EKS_SUPPORT_CALENDAR, supportPhase } from "../eks/kubernetes-version-support";
import { FARGATE_NAMESPACE_CHECKS, fargateSchema } from "../fargate/fargate-config";
import { loadInstanceCatalogue } from "../instance-catalogue/instance-catalogue";
import { DEFAULT_KUBERNETES_VERSION, KARPENTER_VERSION, SUPPORTED_KUBERNETES_VERSIONS } from "../karpenter/karpenter-release";
import { karpenterSettingsSchema } from "../karpenter/karpenter-settings";
import { NETWORK_REGION_CHECKS, networkSchema, resolveNetwork } from "../network/network-config";
import { instanceNameChecks } from "../provisioners/instance-name-checks";
import { nodeClassesSchema } from "../provisioners/node-class-schema";
import { nodePoolsSchema } from "../provisioners/node-pool-schema";
import { PROVISIONER_CHECKS } from "../provisioners/provisioner-checks";
import { restrictedTagMessage } from "../provisioners/rules/restricted-keys";
import { AWS_REGION_EXPECTED, AWS_REGIONS } from "../shared/aws-regions";
import { maxClusterNameLength, NAME_LIMITS, resourceNames } from "../shared/resource-names";
import { awsTags, checkedString, strictObject, withCheckedKeys, withChecks } from "../shared/schema-helpers";
import { CLUSTER_CHECKS } from "./cluster-checks";
import { TAG_LIMIT_CHECKS } from "./tag-limits";

// The user interface of the project: one cluster per file. Each section's schema lives with the room that uses
// it, and each field's documentation beside the field (`.meta()`), from which `npm run docs` writes
// docs/configuration.md.

/** EKS: 1-100 characters, starting with a letter or digit; letters, digits, '-' and '_'. */
const CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]*$/;

/** Why a cluster name makes a derived AWS name too long, or undefined. */
function derivedNameProblem(name: string): string | undefined {
  const names = resourceNames(name);
  const tooLong = NAME_LIMITS.find((l) => l.name(names).length > l.limit);
  if (tooLong === undefined) return undefined;
  const derived = tooLong.name(names);
  return `is ${name.length} characters; the derived ${tooLong.what} "${derived}" would be ${derived.length}, over the limit of ${tooLong.limit}: use at most ${maxClusterNameLength()} characters`;
}

const clusterName = checkedString(
  derivedNameProblem,
  z
    .string({ error: "must be a string: the cluster name" })
    .regex(CLUSTER_NAME, { error: "must start with a letter or digit and contain only letters, digits, '-' and '_' (EKS cluster name rules)" })
    .max(100, { error: "must be at most 100 characters (EKS limit)" }),
);

/** Cluster tags also go on every EC2NodeClass, where Karpenter reserves some keys for itself. */
const clusterTags = withCheckedKeys(awsTags, (key) => {
  const restricted = restrictedTagMessage(key);
  return restricted && `${restricted} (cluster tags are also applied to every EC2NodeClass)`;
}).meta({
  description:
    "On every AWS resource (provider `default_tags`) and every EC2NodeClass. At most 44 (45 if one is `Name`): AWS allows 50 tags per resource, and Karpenter adds 6 of its own to each instance it launches. Keys of 1-128 characters, values of at most 256; `aws:*` and Karpenter's reserved keys are rejected.",
});

const clusterFields = strictObject({
  name: clusterName.meta({
    description: `Cluster name; every resource name derives from it. Letters, digits, \`-\`, \`_\`, starting with a letter or digit; at most ${maxClusterNameLength()} characters so derived names fit AWS limits (\`<name>-karpenter-state-change\`, an EventBridge rule, and \`<name>-karpenter-windows-node\`, an IAM role, are the longest).`,
  }),
  region: z
    .enum(AWS_REGIONS, { error: AWS_REGION_EXPECTED })
    .default("us-east-1")
    .meta({ description: "The AWS region. Charts and images come from public.ecr.aws: China regions need a mirror, not provided here." }),
  kubernetesVersion: z
    .enum(SUPPORTED_KUBERNETES_VERSIONS, {
      error: (issue) => {
        if (typeof issue.input === "number") return `must be a quoted string such as "${DEFAULT_KUBERNETES_VERSION}" (YAML reads 1.30 as the number 1.3)`;
        const allowed = `a Kubernetes version supported by Karpenter ${KARPENTER_VERSION} and EKS: ${SUPPORTED_KUBERNETES_VERSIONS.join(", ")}`;
        if (typeof issue.input === "string" && supportPhase(issue.input) === "ended") {
          const ended = EKS_SUPPORT_CALENDAR[issue.input].endOfExtendedSupport;
          return `EKS's extended support for it ended on ${ended} (EKS's calendar as of ${CALENDAR_DATE}): EKS creates no cluster on it; must be ${allowed}`;
        }
        return `must be ${allowed}`;
      },
    })
    .default(DEFAULT_KUBERNETES_VERSION)
    .meta({
      description: `A **quoted** string: Karpenter ${KARPENTER_VERSION}'s range, less what EKS no longer runs (1.30's extended support ended on 2026-07-23). Synth warns on stderr when the version is in extended support, or leaves standard or extended support within 90 days, by EKS's calendar as of ${CALENDAR_DATE} (\`src/eks/kubernetes-version-support.ts\`). Upgrade one minor version at a time: see docs/operations.md, Upgrades.`,
    }),
  tags: clusterTags,
  network: networkSchema,
  cluster: clusterSettingsSchema,
  access: accessSchema,
  fargate: fargateSchema,
  coreDns: coreDnsSchema,
  addons: addonsSchema,
  karpenter: karpenterSettingsSchema,
  nodeClasses: nodeClassesSchema,
  nodePools: nodePoolsSchema,
  backend: backendSchema,
});

export const clusterConfigSchema = withChecks(clusterFields, [
  ...NETWORK_REGION_CHECKS,
  ...FARGATE_NAMESPACE_CHECKS,
  ...PROVISIONER_CHECKS,
  ...instanceNameChecks(() => loadInstanceCatalogue()),
  ...CLUSTER_CHECKS,
  ...TAG_LIMIT_CHECKS,
]).transform(({ network, ...fields }) => ({ ...fields, network: resolveNetwork(network, fields.region) }));

/** A validated cluster configuration with every default filled in. */
export type ClusterConfig = z.output<typeof clusterConfigSchema>;
export type ClusterConfigInput = z.input<typeof clusterConfigSchema>;
