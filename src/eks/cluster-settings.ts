import { z } from "zod";
import { cidrBlock } from "../network/network-config";
import { strictObject, withChecks } from "../shared/schema-helpers";

// The `cluster` section of the cluster config: the control plane's endpoints, logs and administrators.

const LOG_TYPES = ["api", "audit", "authenticator", "controllerManager", "scheduler"] as const;

/** The values CloudWatch Logs accepts for retention_in_days (0 would mean never expire, which we do not offer). */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

const clusterFields = strictObject({
  endpointPublicAccess: z.boolean().default(true),
  /** Keep on: Fargate pods, Karpenter nodes and the CoreDNS Lambda reach the API server privately. */
  endpointPrivateAccess: z.boolean().default(true),
  publicAccessCidrs: z
    .array(cidrBlock("a client range"))
    .min(1, { error: "must list at least one CIDR (or set endpointPublicAccess: false)" })
    .default(["0.0.0.0/0"]),
  logTypes: z.array(z.enum(LOG_TYPES)).default([...LOG_TYPES]),
  logRetentionDays: z
    .union(
      LOG_RETENTION_DAYS.map((d) => z.literal(d)),
      { error: `must be one of the retention periods CloudWatch Logs accepts: ${LOG_RETENTION_DAYS.join(", ")}` },
    )
    .default(90),
  /** IAM role or user ARNs given cluster-admin through an access entry, beyond the identity that creates the cluster. */
  adminPrincipalArns: z
    .array(
      z.string().regex(/^arn:aws(-cn|-us-gov)?:iam::\d{12}:(role|user)\/.+$/, {
        error: "must be an IAM role or user ARN such as arn:aws:iam::123456789012:role/platform-admin",
      }),
    )
    .default([]),
  /** Access entry with cluster-admin for the identity that creates the cluster; needed by `cdktf deploy` of the Karpenter stack. */
  creatorAdmin: z.boolean().default(true),
  /**
   * What EKS does when the Kubernetes version leaves standard support (14 months after release): extended
   * keeps it running for 12 more months at $0.60 instead of $0.10 per cluster-hour; standard upgrades the
   * control plane automatically. EKS's own default is extended.
   * @see https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html
   */
  upgradePolicy: z.enum(["extended", "standard"]).default("extended"),
});

export const clusterSettingsSchema = withChecks(clusterFields, [
  {
    reads: ["endpointPublicAccess", "endpointPrivateAccess"],
    check: (cluster, report) => {
      if (!cluster.endpointPublicAccess && !cluster.endpointPrivateAccess) {
        report(["endpointPrivateAccess"], false, "cannot be false when endpointPublicAccess is false too: the API server would be unreachable");
      }
    },
  },
  {
    // Without the private endpoint, nodes, Fargate pods and the CoreDNS Lambda reach the API through NAT,
    // from addresses a narrowed list would have to include.
    reads: ["endpointPrivateAccess", "publicAccessCidrs"],
    check: (cluster, report) => {
      if (!cluster.endpointPrivateAccess && !cluster.publicAccessCidrs.includes("0.0.0.0/0")) {
        report(
          ["endpointPrivateAccess"],
          false,
          "cannot be false with a narrowed publicAccessCidrs: nodes, Fargate pods and the CoreDNS Lambda would reach the API from the NAT addresses, which the list does not include; keep the private endpoint on",
        );
      }
    },
  },
  {
    reads: ["creatorAdmin", "adminPrincipalArns"],
    check: (cluster, report) => {
      if (!cluster.creatorAdmin && cluster.adminPrincipalArns.length === 0) {
        report(
          ["creatorAdmin"],
          false,
          "cannot be false without adminPrincipalArns: nobody could administer the cluster, and the Karpenter stack could not be deployed",
        );
      }
    },
  },
]).prefault({});

/** The control plane's settings with every default filled in. */
export type ClusterSettings = z.output<typeof clusterSettingsSchema>;
