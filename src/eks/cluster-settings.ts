import { z } from "zod";
import { iamPrincipalArn } from "../iam/principal-arn";
import { cidrBlock } from "../network/network-config";
import { logRetentionDays } from "../shared/log-retention";
import { strictObject, withChecks } from "../shared/schema-helpers";
import { ACCESS_ENTRY_PRINCIPAL } from "./access-settings";

// The `cluster` section of the cluster config: the control plane's endpoints, logs and administrators.

/** Public endpoint ranges per cluster, an EKS service quota that cannot be raised. */
const MAX_PUBLIC_ACCESS_CIDRS = 40;

const LOG_TYPES = ["api", "audit", "authenticator", "controllerManager", "scheduler"] as const;

/** The public endpoint is on when asked for, or, unless asked otherwise, when some range may use it. */
function publicEndpoint(cluster: { readonly endpointPublicAccess?: boolean; readonly publicAccessCidrs?: readonly string[] }): boolean {
  return cluster.endpointPublicAccess ?? (cluster.publicAccessCidrs ?? []).length > 0;
}

const clusterFields = strictObject({
  endpointPublicAccess: z.boolean().optional().meta({
    defaultText: "on when `publicAccessCidrs` lists a range",
    description:
      "The public API endpoint. By default the API is private (CIS EKS 5.4.2): the endpoint is public only for the ranges `publicAccessCidrs` lists. Private only, whatever runs the Karpenter stack (helm, kubectl) must reach the VPC; synth says so.",
  }),
  endpointPrivateAccess: z.boolean().default(true).meta({
    description:
      "The private API endpoint; Fargate pods, nodes and the CoreDNS Lambda use it. Not both off; not off with a narrowed `publicAccessCidrs` (the NAT addresses would be locked out).",
  }),
  publicAccessCidrs: z
    .array(cidrBlock("a client range"))
    .max(MAX_PUBLIC_ACCESS_CIDRS, {
      error: `must list at most ${MAX_PUBLIC_ACCESS_CIDRS} ranges, EKS's limit per cluster: merge neighbouring ranges, or reach the API through the private endpoint (a VPN, a runner in the VPC)`,
    })
    .optional()
    .meta({
      defaultText: "none: the API is private",
      description: `Who may reach the public endpoint, which is on as soon as this lists a range (CIS EKS 5.4.1), at most ${MAX_PUBLIC_ACCESS_CIDRS}: the address a first deploy runs from (\`203.0.113.7/32\`), your pipeline's egress, an HCP Terraform agent's. \`[0.0.0.0/0]\` opens it to the internet (synth warns). See the README, Deploy.`,
    }),
  logTypes: z
    .array(z.enum(LOG_TYPES))
    .default([...LOG_TYPES])
    .meta({ description: "The control-plane logs sent to CloudWatch Logs, `/aws/eks/<name>/cluster`." }),
  logRetentionDays: logRetentionDays
    .default(90)
    .meta({ description: "Retention of the control-plane log group and the CoreDNS Lambda's, in days: a value CloudWatch Logs accepts." }),
  adminPrincipalArns: z
    .array(iamPrincipalArn({ ...ACCESS_ENTRY_PRINCIPAL, example: "platform-admin" }))
    .default([])
    .meta({ description: "IAM roles or users given cluster-admin through access entries, beyond the identity that creates the cluster." }),
  creatorAdmin: z
    .union([z.boolean(), z.literal("bootstrap")], { error: "must be true, false or bootstrap" })
    .default(true)
    .meta({
      allowedText: "`true`, `false`, `bootstrap`",
      description:
        "Cluster-admin for the identity that creates the cluster (the Karpenter stack's deploy needs admin). `true`: an access entry this project manages (its principal is the caller's role, from `aws_iam_session_context`), which a later change can remove. `bootstrap`: EKS's own implicit entry, made at creation and invisible to Terraform, as before this project managed it; keep it for clusters created that way (a plan says so). `false` needs another administrator: `adminPrincipalArns`, or an `access` entry with policy `cluster-admin`.",
    }),
  secretsKeyAdministrators: z
    .array(iamPrincipalArn({ example: "key-admin", sessionRefused: "a key policy would trust only until it expires" }))
    .optional()
    .meta({
      defaultText: "the account, through IAM policies",
      description:
        "Who may administer the KMS key that encrypts Kubernetes secrets (its key policy; no one else may use it but the cluster role). By default the account's IAM policies decide, as AWS's default key policy does for administration; listed, only these principals and the identity running Terraform may.",
    }),
  upgradePolicy: z.enum(["extended", "standard"]).default("extended").meta({
    description:
      "What EKS does when the Kubernetes version leaves standard support (14 months after its release): `extended` keeps it running 12 more months at **$0.60 instead of $0.10 per cluster-hour** (about $438 instead of $73 a month); `standard` upgrades the control plane automatically, out of Terraform's hands (then set `kubernetesVersion` to match, since EKS refuses downgrades). EKS's own default is extended; upgrading in time (docs/operations.md) costs neither. You cannot move to `standard` while the version is already in extended support. See https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html",
  }),
});

export const clusterSettingsSchema = withChecks(clusterFields, [
  {
    reads: ["endpointPublicAccess", "publicAccessCidrs"],
    check: ({ endpointPublicAccess, publicAccessCidrs }, report) => {
      if (endpointPublicAccess === true && (publicAccessCidrs ?? []).length === 0) {
        report(
          ["publicAccessCidrs"],
          publicAccessCidrs,
          "must list who may reach the public endpoint now that endpointPublicAccess is true: your address (203.0.113.7/32), your pipeline's egress range, or [0.0.0.0/0] for the whole internet as before (synth warns about it)",
        );
      }
      if (endpointPublicAccess === false && (publicAccessCidrs ?? []).length > 0) {
        report(["publicAccessCidrs"], publicAccessCidrs, "applies to the public endpoint, which endpointPublicAccess: false turns off; remove one of the two");
      }
    },
  },
  {
    reads: ["endpointPublicAccess", "endpointPrivateAccess", "publicAccessCidrs"],
    check: (cluster, report) => {
      if (!publicEndpoint(cluster) && !cluster.endpointPrivateAccess) {
        report(
          ["endpointPrivateAccess"],
          false,
          "cannot be false while the public endpoint is off (no publicAccessCidrs, or endpointPublicAccess: false): the API server would be unreachable",
        );
      }
    },
  },
  {
    // Without the private endpoint, nodes, Fargate pods and the CoreDNS Lambda reach the API through NAT,
    // from addresses a narrowed list would have to include.
    reads: ["endpointPrivateAccess", "publicAccessCidrs"],
    check: (cluster, report) => {
      if (!cluster.endpointPrivateAccess && publicEndpoint(cluster) && !(cluster.publicAccessCidrs ?? []).includes("0.0.0.0/0")) {
        report(
          ["endpointPrivateAccess"],
          false,
          "cannot be false with a narrowed publicAccessCidrs: nodes, Fargate pods and the CoreDNS Lambda would reach the API from the NAT addresses, which the list does not include; keep the private endpoint on",
        );
      }
    },
  },
])
  .transform(({ endpointPublicAccess, publicAccessCidrs, ...rest }) => ({
    ...rest,
    endpointPublicAccess: publicEndpoint({ endpointPublicAccess, publicAccessCidrs }),
    publicAccessCidrs: publicAccessCidrs ?? [],
  }))
  .prefault({})
  .meta({ title: "the control plane", description: "The EKS control plane's endpoints, logs and administrators." });

/** The control plane's settings with every default filled in. */
export type ClusterSettings = z.output<typeof clusterSettingsSchema>;
