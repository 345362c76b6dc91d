import { z } from "zod";
import { DEFAULT_ZONE_LETTERS, defaultZones, zoneProblem, zonesMustBeListed } from "../shared/availability-zones";
import { logRetentionDays } from "../shared/log-retention";
import { type FieldCheck, type Report, repeatedIndexes, strictObject, withChecks } from "../shared/schema-helpers";
import { cidrsOverlap, parseCidr } from "./cidr";
import { largestVpcPrefixFor, privateSubnetPrefix } from "./subnet-plan";

// The `network` section of the cluster config: a new VPC planned here, or an existing one.

export const DEFAULT_VPC_CIDR = "10.0.0.0/16";

/**
 * Docker's default bridge network: a host running Docker routes this range to its bridge, so nodes or runners
 * with Docker could not reach a VPC address inside it.
 *
 * The other range a VPC might collide with, the Kubernetes service range, needs no check: EKS picks it from
 * the VPC's primary CIDR when the cluster is created (no serviceIpv4Cidr is set here), 172.20.0.0/16 when
 * that CIDR is in 10.0.0.0/8 and 10.100.0.0/16 otherwise, so it never overlaps the VPC this project creates.
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_KubernetesNetworkConfigRequest.html
 * @see https://aws.amazon.com/about-aws/whats-new/2020/10/amazon-eks-supports-configurable-kubernetes-service-ip-address-range/
 */
const DOCKER_BRIDGE_CIDR = "172.17.0.0/16";

/** An IPv4 CIDR block with no host bits set; `what` says which range in the message. */
export const cidrBlock = (what: string) =>
  z.string().refine((text) => parseCidr(text) !== undefined, { error: `must be an IPv4 CIDR block such as 10.0.0.0/16 (${what}), with no host bits set` });

const subnetIds = z.array(z.string().regex(/^subnet-[0-9a-f]+$/, { error: "must be a subnet id such as subnet-0123456789abcdef0" }));

const NEW_VPC_FIELDS = ["vpcCidr", "availabilityZones", "natGateways", "flowLogs"] as const;

/**
 * VPC flow logs of a new VPC, to CloudWatch Logs: rejected traffic by default, the minimum AWS Security Hub's
 * EC2.6 asks for (every flow is a larger bill); `none` turns them off.
 * @see https://docs.aws.amazon.com/securityhub/latest/userguide/ec2-controls.html#ec2-6
 */
const flowLogs = strictObject({
  traffic: z.enum(["REJECT", "ALL", "ACCEPT", "none"]).default("REJECT").meta({
    description: "Which flows are logged: `REJECT` (what security groups and network ACLs refused), `ALL`, `ACCEPT`, or `none`.",
  }),
  retentionDays: logRetentionDays.default(90).meta({ description: "How long the log group keeps them, in days." }),
});
const EXISTING_VPC_FIELDS = ["privateSubnetIds", "publicSubnetIds"] as const;

const networkFields = strictObject({
  vpcCidr: cidrBlock("the new VPC's range")
    .optional()
    .meta({
      defaultText: `\`${DEFAULT_VPC_CIDR}\``,
      description: `A new VPC's range: /16 to /21 (three zones). Each zone gets a private subnet of 1/8 of the VPC (three /19 from a /16: 8,187 addresses each, for nodes and pods) and a small public one (/21) carved from the last eighth. Must not overlap ${DOCKER_BRIDGE_CIDR} (Docker's default bridge). Kubernetes services get 172.20.0.0/16 when the VPC is in 10.0.0.0/8 (the default is) and 10.100.0.0/16 otherwise: EKS picks the range that misses the VPC, but keep it free in networks you peer or connect. Not with \`vpcId\`.`,
    }),
  availabilityZones: z.array(z.string()).min(2, { error: "must list at least 2 availability zones (EKS requires subnets in two)" }).optional().meta({
    defaultText: "`<region>a, b, c`",
    description:
      "The new VPC's zones, at least two, checked against a dated table of each region's zones (`src/shared/availability-zones.ts`: a zone AWS opened since goes there). Required in us-west-1, ap-northeast-1, ca-central-1 and cn-north-1, where a, b and c would fail in some accounts. The legacy ap-northeast-1b and ca-central-1c are accepted: older accounts still have them.",
  }),
  natGateways: z
    .enum(["single", "perAz"])
    .optional()
    .meta({ defaultText: "`single`", description: "`single` (one NAT gateway, cheaper) or `perAz` (one per zone, survives a zone outage)." }),
  flowLogs: flowLogs.optional().meta({
    defaultText: "`{ traffic: REJECT, retentionDays: 90 }`",
    description:
      "A new VPC's flow logs, to the log group `/aws/vpc/<name>/flow-logs`, delivered by a role only VPC Flow Logs of this account may assume. Billed by volume as CloudWatch vended logs ($0.50 per GB ingested, $0.03 per GB-month stored in us-east-1); `npm run plan` names it. An existing VPC's flow logs are its owner's.",
  }),
  vpcId: z
    .string()
    .regex(/^vpc-[0-9a-f]+$/, { error: "must be a VPC id such as vpc-0123456789abcdef0" })
    .optional()
    .meta({
      description:
        "An existing VPC instead of a new one, with NAT or VPC endpoints for EC2, STS, SSM, SQS, ECR and pricing. Only tags are added to it: `karpenter.sh/discovery` and `kubernetes.io/role/internal-elb` on the private subnets, `kubernetes.io/role/elb` on the public ones (one `aws_ec2_tag` each; a configuration that manages those subnets' whole tag map would remove them).",
    }),
  privateSubnetIds: subnetIds.optional().meta({
    description:
      "With `vpcId`: the subnets of the control plane's interfaces, Fargate pods and Karpenter's nodes, at least two **in two different zones** (EKS requires it, and the Karpenter replicas spread by zone).",
  }),
  publicSubnetIds: subnetIds.optional().meta({ description: "With `vpcId`: subnets for internet-facing load balancers." }),
});

type NetworkFields = z.output<typeof networkFields>;

/** Each list may name an item once. */
function reportRepeated(values: readonly string[] | undefined, field: string, what: string, report: Report): void {
  for (const index of repeatedIndexes(values ?? [], (v) => v)) report([field, index], values?.[index], `is listed twice; each ${what} may appear once`);
}

const NETWORK_CHECKS: readonly FieldCheck<NetworkFields>[] = [
  {
    reads: [...NEW_VPC_FIELDS, ...EXISTING_VPC_FIELDS, "vpcId"],
    check: (network, report) => {
      if (network.vpcId !== undefined) {
        for (const field of NEW_VPC_FIELDS) {
          if (network[field] !== undefined) report([field], network[field], "applies to a new VPC only; remove it, or remove vpcId to create a VPC");
        }
        if ((network.privateSubnetIds?.length ?? 0) < 2) {
          report(["privateSubnetIds"], network.privateSubnetIds, "must list at least 2 private subnets (in different zones) when vpcId is set");
        }
        return;
      }
      for (const field of EXISTING_VPC_FIELDS) {
        if (network[field] !== undefined) report([field], network[field], "applies to an existing VPC only; set vpcId too, or remove it");
      }
    },
  },
  {
    reads: ["availabilityZones", ...EXISTING_VPC_FIELDS],
    check: (network, report) => {
      reportRepeated(network.availabilityZones, "availabilityZones", "availability zone", report);
      for (const field of EXISTING_VPC_FIELDS) reportRepeated(network[field], field, "subnet", report);
    },
  },
  {
    // A subnet in both lists would carry the discovery tag Karpenter launches nodes into and the tag of
    // internet-facing load balancers: nodes in a subnet whose only way out is the internet gateway.
    reads: [...EXISTING_VPC_FIELDS],
    check: ({ privateSubnetIds = [], publicSubnetIds = [] }, report) => {
      publicSubnetIds.forEach((id, i) => {
        if (privateSubnetIds.includes(id)) {
          report(
            ["publicSubnetIds", i],
            id,
            "is also in privateSubnetIds; a subnet is either private (nodes, Fargate pods, behind NAT) or public (internet-facing load balancers), and Karpenter would launch nodes into it",
          );
        }
      });
    },
  },
  {
    // The default zones are always three, whatever the region.
    reads: ["vpcCidr", "availabilityZones", "vpcId"],
    check: (network, report) => {
      if (network.vpcId !== undefined) return;
      const zoneCount = network.availabilityZones?.length ?? DEFAULT_ZONE_LETTERS.length;
      const vpc = parseCidr(network.vpcCidr ?? DEFAULT_VPC_CIDR);
      if (vpc === undefined) return;
      const dockerBridge = parseCidr(DOCKER_BRIDGE_CIDR);
      if (dockerBridge !== undefined && cidrsOverlap(vpc, dockerBridge)) {
        report(
          ["vpcCidr"],
          network.vpcCidr,
          `overlaps ${DOCKER_BRIDGE_CIDR}, Docker's default bridge network: a host running Docker sends that range to its bridge, not to the VPC; choose a range outside it, such as ${DEFAULT_VPC_CIDR}`,
        );
      }
      if (zoneCount < 2) return;
      const largest = largestVpcPrefixFor(zoneCount);
      if (vpc.prefixLength < 16) {
        report(["vpcCidr"], network.vpcCidr, `is larger than AWS allows for a VPC: use a prefix between /16 and /${largest}`);
      } else if (vpc.prefixLength > largest) {
        report(
          ["vpcCidr"],
          network.vpcCidr,
          `is too small for ${zoneCount} availability zones: private subnets would be /${privateSubnetPrefix(vpc.prefixLength, zoneCount)}; use a prefix between /16 and /${largest}`,
        );
      }
    },
  },
];

export const networkSchema = withChecks(networkFields, NETWORK_CHECKS)
  .prefault({})
  .meta({ title: "the VPC", description: "A new VPC planned here (the default), or an existing one (`vpcId` and its subnets)." });

/** The checks of the network that depend on the region; the cluster schema runs them. */
export const NETWORK_REGION_CHECKS: readonly FieldCheck<{ readonly region: string; readonly network: NetworkFields }>[] = [
  {
    reads: ["region", "network.vpcId", "network.availabilityZones"],
    check: ({ region, network }, report) => {
      if (network.vpcId !== undefined) return;
      if (network.availabilityZones === undefined) {
        const reason = zonesMustBeListed(region);
        if (reason !== undefined) {
          report(
            ["network", "availabilityZones"],
            undefined,
            `must be listed in ${region}: ${reason} (aws ec2 describe-availability-zones --region ${region} lists your account's)`,
          );
        }
        return;
      }
      network.availabilityZones.forEach((zone, i) => {
        const problem = zoneProblem(zone, region);
        if (problem !== undefined) report(["network", "availabilityZones", i], zone, problem);
      });
    },
  },
];

/** The network after defaults: either a new VPC planned here or an existing one. */
export type NetworkConfig =
  | {
      readonly kind: "new";
      readonly vpcCidr: string;
      readonly availabilityZones: readonly string[];
      readonly natGateways: "single" | "perAz";
      /** Undefined when turned off. */
      readonly flowLogs?: { readonly traffic: "REJECT" | "ALL" | "ACCEPT"; readonly retentionDays: number };
    }
  | { readonly kind: "existing"; readonly vpcId: string; readonly privateSubnetIds: readonly string[]; readonly publicSubnetIds: readonly string[] };

/** The zones of a new VPC: the listed ones, or a, b and c of the region. */
export function vpcZones(network: { readonly availabilityZones?: readonly string[] }, region: string): readonly string[] {
  return network.availabilityZones ?? defaultZones(region);
}

export function resolveNetwork(network: NetworkFields, region: string): NetworkConfig {
  if (network.vpcId !== undefined) {
    return { kind: "existing", vpcId: network.vpcId, privateSubnetIds: network.privateSubnetIds ?? [], publicSubnetIds: network.publicSubnetIds ?? [] };
  }
  return {
    kind: "new",
    vpcCidr: network.vpcCidr ?? DEFAULT_VPC_CIDR,
    availabilityZones: vpcZones(network, region),
    natGateways: network.natGateways ?? "single",
    flowLogs: flowLogsOf(network.flowLogs),
  };
}

function flowLogsOf(settings: NetworkFields["flowLogs"]): { readonly traffic: "REJECT" | "ALL" | "ACCEPT"; readonly retentionDays: number } | undefined {
  const { traffic, retentionDays } = settings ?? { traffic: "REJECT", retentionDays: 90 };
  return traffic === "none" ? undefined : { traffic, retentionDays };
}
