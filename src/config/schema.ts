import { z } from "zod";
import { backendSchema } from "../backend/backend-config";
import { parseCidr } from "../network/cidr";
import { largestVpcPrefixFor, privateSubnetPrefix } from "../network/subnet-plan";
import { restrictedTagMessage } from "../provisioners/crd-rules";
import { checkProvisioners, nodeClassesSchema, nodePoolsSchema } from "../provisioners/provisioner-config";
import { AWS_REGIONS, defaultZones, isZoneOfRegion, REGIONS_WITHOUT_DEFAULT_ZONES } from "./aws-regions";
import { DEFAULT_KUBERNETES_VERSION, KARPENTER_VERSION, SUPPORTED_KUBERNETES_VERSIONS } from "./karpenter-release";
import { maxClusterNameLength, NAME_LIMITS, resourceNames } from "./resource-names";
import { awsTags, checkUniqueStrings, dnsLabel, strictObject } from "./schema-helpers";

// The user interface of the project: one cluster per file. Every field is documented in the README's
// configuration reference; keep the two together.

/** EKS: 1-100 characters, starting with a letter or digit; letters, digits, '-' and '_'. */
const CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]*$/;

const cidr = (what: string) =>
  z.string().refine((text) => parseCidr(text) !== undefined, { error: `must be an IPv4 CIDR block such as 10.0.0.0/16 (${what}), with no host bits set` });

const LOG_TYPES = ["api", "audit", "authenticator", "controllerManager", "scheduler"] as const;

/** The values CloudWatch Logs accepts for retention_in_days (0 would mean never expire, which we do not offer). */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

const networkSchema = strictObject({
  /** CIDR of a new VPC. Ignored (and rejected) with vpcId. */
  vpcCidr: cidr("the new VPC's range").optional(),
  /** Zones of the new VPC's subnets, at least two (EKS needs subnets in two zones). */
  availabilityZones: z.array(z.string()).min(2, { error: "must list at least 2 availability zones (EKS requires subnets in two)" }).optional(),
  /** One NAT gateway for the VPC (cheaper) or one per zone (survives a zone outage). */
  natGateways: z.enum(["single", "perAz"]).optional(),
  /** An existing VPC instead of a new one. */
  vpcId: z
    .string()
    .regex(/^vpc-[0-9a-f]+$/, { error: "must be a VPC id such as vpc-0123456789abcdef0" })
    .optional(),
  /** Private subnets of the existing VPC (cluster, Fargate, Karpenter nodes); at least two zones. */
  privateSubnetIds: z.array(z.string().regex(/^subnet-[0-9a-f]+$/, { error: "must be a subnet id such as subnet-0123456789abcdef0" })).optional(),
  /** Public subnets of the existing VPC, tagged for internet-facing load balancers. */
  publicSubnetIds: z.array(z.string().regex(/^subnet-[0-9a-f]+$/, { error: "must be a subnet id such as subnet-0123456789abcdef0" })).optional(),
}).prefault({});

const clusterSchema = strictObject({
  endpointPublicAccess: z.boolean().default(true),
  /** Keep on: Fargate pods, Karpenter nodes and the CoreDNS Lambda reach the API server privately. */
  endpointPrivateAccess: z.boolean().default(true),
  publicAccessCidrs: z
    .array(cidr("a client range"))
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
      z
        .string()
        .regex(/^arn:aws(-cn|-us-gov)?:iam::\d{12}:(role|user)\/.+$/, {
          error: "must be an IAM role or user ARN such as arn:aws:iam::123456789012:role/platform-admin",
        }),
    )
    .default([]),
  /** Access entry with cluster-admin for the identity that creates the cluster; needed by `cdktf deploy` of the Karpenter stack. */
  creatorAdmin: z.boolean().default(true),
}).prefault({});

const RESERVED_PROFILE_NAMES = ["kube-system", "karpenter"];

const fargateSchema = strictObject({
  profiles: z
    .array(
      strictObject({
        name: z.string().regex(/^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/, { error: "must be 1-100 letters, digits, '-' or '_', starting with a letter or digit" }),
        namespaces: z
          .array(dnsLabel("namespace"))
          .min(1, { error: "must list at least one namespace" })
          .max(5, { error: "may list at most 5 namespaces (EKS allows 5 selectors per profile)" }),
        labels: z.record(z.string(), z.string()).default({}),
      }),
    )
    .default([]),
}).prefault({});

const coreDnsSchema = strictObject({
  /** lambda: the original design, a function patches and restarts CoreDNS; addon: the managed add-on with computeType fargate. */
  mode: z.enum(["lambda", "addon"]).default("lambda"),
}).prefault({});

const karpenterSchema = strictObject({
  /** Pinned: the controller IAM policy and Helm values are written for this release. */
  version: z
    .literal(KARPENTER_VERSION, { error: `must be ${KARPENTER_VERSION}: the IAM policy and chart values here are written for that release` })
    .default(KARPENTER_VERSION),
  namespace: dnsLabel("namespace").default("karpenter"),
  /** Two replicas need Fargate subnets in two zones (the chart spreads them by zone). */
  replicas: z.number().int().min(1, { error: "must be at least 1" }).max(3, { error: "must be at most 3" }).default(2),
  /** Creates the account-wide AWSServiceRoleForEC2Spot; leave false when the account already has it. */
  createSpotServiceLinkedRole: z.boolean().default(false),
  logLevel: z.enum(["debug", "info", "error"]).default("info"),
  /**
   * How the helm and kubectl providers authenticate. token: the ephemeral aws_eks_cluster_auth token, valid
   * 15 minutes, no AWS CLI needed (HCP Terraform runners). exec: `aws eks get-token` per request, for runs that
   * may outlast 15 minutes (a destroy draining many nodes), where the AWS CLI is installed.
   */
  kubernetesAuth: z.enum(["token", "exec"]).default("token"),
}).prefault({});

const rawClusterConfigSchema = strictObject({
  /** The cluster name; every resource name derives from it. */
  name: z
    .string({ error: "must be a string: the cluster name" })
    .regex(CLUSTER_NAME, { error: "must start with a letter or digit and contain only letters, digits, '-' and '_' (EKS cluster name rules)" })
    .max(100, { error: "must be at most 100 characters (EKS limit)" }),
  region: z
    .enum(AWS_REGIONS, { error: "must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (the README lists them)" })
    .default("us-east-1"),
  kubernetesVersion: z
    .enum(SUPPORTED_KUBERNETES_VERSIONS, {
      error: (issue) =>
        typeof issue.input === "number"
          ? `must be a quoted string such as "${DEFAULT_KUBERNETES_VERSION}" (YAML reads 1.30 as the number 1.3)`
          : `must be a Kubernetes version supported by Karpenter ${KARPENTER_VERSION} and EKS: ${SUPPORTED_KUBERNETES_VERSIONS.join(", ")}`,
    })
    .default(DEFAULT_KUBERNETES_VERSION),
  /** Tags on every AWS resource (provider default_tags). */
  tags: awsTags,
  network: networkSchema,
  cluster: clusterSchema,
  fargate: fargateSchema,
  coreDns: coreDnsSchema,
  karpenter: karpenterSchema,
  nodeClasses: nodeClassesSchema,
  nodePools: nodePoolsSchema,
  backend: backendSchema,
});

type RawClusterConfig = z.output<typeof rawClusterConfigSchema>;

/** The network after defaults: either a new VPC planned here or an existing one. */
export type NetworkConfig =
  | { readonly kind: "new"; readonly vpcCidr: string; readonly availabilityZones: readonly string[]; readonly natGateways: "single" | "perAz" }
  | { readonly kind: "existing"; readonly vpcId: string; readonly privateSubnetIds: readonly string[]; readonly publicSubnetIds: readonly string[] };

const DEFAULT_VPC_CIDR = "10.0.0.0/16";

function resolveNetwork(raw: RawClusterConfig["network"], region: string): NetworkConfig {
  if (raw.vpcId !== undefined) {
    return { kind: "existing", vpcId: raw.vpcId, privateSubnetIds: raw.privateSubnetIds ?? [], publicSubnetIds: raw.publicSubnetIds ?? [] };
  }
  return {
    kind: "new",
    vpcCidr: raw.vpcCidr ?? DEFAULT_VPC_CIDR,
    // Three zones by default (a, b, c); the regions where those letters vary must list theirs (checked below).
    availabilityZones: raw.availabilityZones ?? defaultZones(region),
    natGateways: raw.natGateways ?? "single",
  };
}

type Input = Partial<Record<keyof RawClusterConfig, unknown>>;

/**
 * Checks across fields. It runs even when single fields failed (zod's `when`), so every problem in a file
 * is reported at once; it therefore reads the value defensively.
 */
function crossFieldChecks(value: Input, ctx: z.RefinementCtx): void {
  const name = typeof value.name === "string" && CLUSTER_NAME.test(value.name) ? value.name : undefined;
  const region = typeof value.region === "string" && (AWS_REGIONS as readonly string[]).includes(value.region) ? value.region : undefined;
  if (name !== undefined) checkDerivedNames(name, ctx);
  checkNetwork(value.network, region, ctx);
  checkFargateProfiles(value.fargate, value.karpenter, ctx);
  checkProvisioners({ nodeClasses: value.nodeClasses, nodePools: value.nodePools, region }, ctx);
  checkClusterTags(value.tags, ctx);
  checkClusterAccess(value.cluster, ctx);
  if (name !== undefined) checkNodeClassRoles(value.nodeClasses, resourceNames(name).karpenterNodeRole, ctx);
  checkPoolZonesInVpc(value.nodePools, value.network, region, ctx);
}

function checkClusterAccess(cluster: unknown, ctx: z.RefinementCtx): void {
  if (typeof cluster !== "object" || cluster === null) return;
  const c = cluster as {
    endpointPublicAccess?: unknown;
    endpointPrivateAccess?: unknown;
    publicAccessCidrs?: unknown;
    creatorAdmin?: unknown;
    adminPrincipalArns?: unknown;
  };
  if (c.endpointPublicAccess === false && c.endpointPrivateAccess === false) {
    ctx.addIssue({
      code: "custom",
      path: ["cluster", "endpointPrivateAccess"],
      input: false,
      message: "cannot be false when endpointPublicAccess is false too: the API server would be unreachable",
    });
  }
  // Without the private endpoint, nodes, Fargate pods and the CoreDNS Lambda reach the API through NAT,
  // from addresses a narrowed list would have to include.
  if (c.endpointPrivateAccess === false && Array.isArray(c.publicAccessCidrs) && !c.publicAccessCidrs.includes("0.0.0.0/0")) {
    ctx.addIssue({
      code: "custom",
      path: ["cluster", "endpointPrivateAccess"],
      input: false,
      message:
        "cannot be false with a narrowed publicAccessCidrs: nodes, Fargate pods and the CoreDNS Lambda would reach the API from the NAT addresses, which the list does not include; keep the private endpoint on",
    });
  }
  if (c.creatorAdmin === false && Array.isArray(c.adminPrincipalArns) && c.adminPrincipalArns.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["cluster", "creatorAdmin"],
      input: false,
      message: "cannot be false without adminPrincipalArns: nobody could administer the cluster, and the Karpenter stack could not be deployed",
    });
  }
}

/** The controller may pass only this cluster's node role to EC2 (its PassRole statement), and only that role has an EC2_LINUX access entry. */
function checkNodeClassRoles(nodeClasses: unknown, nodeRoleName: string, ctx: z.RefinementCtx): void {
  if (!Array.isArray(nodeClasses)) return;
  nodeClasses.forEach((nodeClass, i) => {
    const role = (nodeClass as { role?: unknown } | null)?.role;
    if (typeof role === "string" && role !== "" && role !== nodeRoleName) {
      ctx.addIssue({
        code: "custom",
        path: ["nodeClasses", i, "role"],
        input: role,
        message: `must be ${nodeRoleName} or omitted: Karpenter may pass only this cluster's node role, and only that role may join the cluster`,
      });
    }
  });
}

/** A pool zone without a subnet of the new VPC would leave its NodeClaims unlaunchable. */
function checkPoolZonesInVpc(nodePools: unknown, network: unknown, region: string | undefined, ctx: z.RefinementCtx): void {
  const n = (network ?? {}) as { vpcId?: unknown; availabilityZones?: unknown };
  if (!Array.isArray(nodePools) || n.vpcId !== undefined || region === undefined) return;
  const vpcZones: unknown[] = Array.isArray(n.availabilityZones) ? n.availabilityZones : defaultZones(region);
  nodePools.forEach((pool, i) => {
    const zones = (pool as { zones?: unknown } | null)?.zones;
    if (!Array.isArray(zones)) return;
    zones.forEach((zone, j) => {
      if (typeof zone === "string" && isZoneOfRegion(zone, region) && !vpcZones.includes(zone)) {
        ctx.addIssue({
          code: "custom",
          path: ["nodePools", i, "zones", j],
          input: zone,
          message: `has no subnet in this VPC; the VPC's zones are ${vpcZones.join(", ")}`,
        });
      }
    });
  });
}

/** Cluster tags also go on every EC2NodeClass, where Karpenter reserves some keys for itself. */
function checkClusterTags(tags: unknown, ctx: z.RefinementCtx): void {
  if (typeof tags !== "object" || tags === null) return;
  for (const key of Object.keys(tags)) {
    const restricted = restrictedTagMessage(key);
    if (restricted)
      ctx.addIssue({ code: "custom", path: ["tags", key], input: key, message: `${restricted} (cluster tags are also applied to every EC2NodeClass)` });
  }
}

function checkDerivedNames(name: string, ctx: z.RefinementCtx): void {
  const names = resourceNames(name);
  const tooLong = NAME_LIMITS.find((l) => l.name(names).length > l.limit);
  if (tooLong) {
    const derived = tooLong.name(names);
    ctx.addIssue({
      code: "custom",
      path: ["name"],
      input: name,
      message: `is ${name.length} characters; the derived ${tooLong.what} "${derived}" would be ${derived.length}, over the limit of ${tooLong.limit}: use at most ${maxClusterNameLength()} characters`,
    });
  }
}

function checkNetwork(network: unknown, region: string | undefined, ctx: z.RefinementCtx): void {
  if (typeof network !== "object" || network === null) return;
  const n = network as Record<string, unknown>;
  const path = (...rest: (string | number)[]) => ["network", ...rest];
  if (n.vpcId !== undefined) {
    for (const key of ["vpcCidr", "availabilityZones", "natGateways"]) {
      if (n[key] !== undefined)
        ctx.addIssue({ code: "custom", path: path(key), input: n[key], message: "applies to a new VPC only; remove it, or remove vpcId to create a VPC" });
    }
    if (!Array.isArray(n.privateSubnetIds) || n.privateSubnetIds.length < 2) {
      ctx.addIssue({
        code: "custom",
        path: path("privateSubnetIds"),
        input: n.privateSubnetIds,
        message: "must list at least 2 private subnets (in different zones) when vpcId is set",
      });
    }
    for (const key of ["privateSubnetIds", "publicSubnetIds"]) {
      if (Array.isArray(n[key])) checkUniqueStrings(withPath(ctx, path(key)), n[key] as string[], "subnet");
    }
    return;
  }
  for (const key of ["privateSubnetIds", "publicSubnetIds"]) {
    if (n[key] !== undefined)
      ctx.addIssue({ code: "custom", path: path(key), input: n[key], message: "applies to an existing VPC only; set vpcId too, or remove it" });
  }
  if (region !== undefined && n.availabilityZones === undefined && REGIONS_WITHOUT_DEFAULT_ZONES.includes(region)) {
    ctx.addIssue({
      code: "custom",
      path: path("availabilityZones"),
      input: undefined,
      message: `must be listed in ${region}, whose zone letters differ between accounts (aws ec2 describe-availability-zones lists yours)`,
    });
  }
  const zones = Array.isArray(n.availabilityZones) ? (n.availabilityZones as unknown[]) : region ? defaultZones(region) : [];
  if (region !== undefined && Array.isArray(n.availabilityZones)) {
    zones.forEach((zone, i) => {
      if (typeof zone === "string" && !isZoneOfRegion(zone, region)) {
        ctx.addIssue({
          code: "custom",
          path: path("availabilityZones", i),
          input: zone,
          message: `is not an availability zone of ${region}; expected ${region} followed by a zone letter, such as ${region}a`,
        });
      }
    });
    checkUniqueStrings(
      withPath(ctx, path("availabilityZones")),
      zones.filter((z): z is string => typeof z === "string"),
      "availability zone",
    );
  }
  const vpcCidr = typeof n.vpcCidr === "string" ? parseCidr(n.vpcCidr) : parseCidr(DEFAULT_VPC_CIDR);
  if (vpcCidr && zones.length >= 2) {
    if (vpcCidr.prefixLength < 16) {
      ctx.addIssue({
        code: "custom",
        path: path("vpcCidr"),
        input: n.vpcCidr,
        message: `is larger than AWS allows for a VPC: use a prefix between /16 and /${largestVpcPrefixFor(zones.length)}`,
      });
    } else if (vpcCidr.prefixLength > largestVpcPrefixFor(zones.length)) {
      ctx.addIssue({
        code: "custom",
        path: path("vpcCidr"),
        input: n.vpcCidr,
        message: `is too small for ${zones.length} availability zones: private subnets would be /${privateSubnetPrefix(vpcCidr.prefixLength, zones.length)}; use a prefix between /16 and /${largestVpcPrefixFor(zones.length)}`,
      });
    }
  }
}

function checkFargateProfiles(fargate: unknown, karpenter: unknown, ctx: z.RefinementCtx): void {
  const profiles = (fargate as { profiles?: unknown } | undefined)?.profiles;
  if (!Array.isArray(profiles)) return;
  const karpenterNamespace = (karpenter as { namespace?: unknown } | undefined)?.namespace ?? "karpenter";
  const built = new Set(["kube-system", karpenterNamespace]);
  const names = profiles.map((p) => (p as { name?: unknown })?.name).filter((n): n is string => typeof n === "string");
  checkUniqueStrings(withPath(ctx, ["fargate", "profiles"]), names, "profile name");
  profiles.forEach((profile, i) => {
    const { name, namespaces } = (profile ?? {}) as { name?: unknown; namespaces?: unknown };
    if (typeof name === "string" && RESERVED_PROFILE_NAMES.includes(name)) {
      ctx.addIssue({
        code: "custom",
        path: ["fargate", "profiles", i, "name"],
        input: name,
        message: `is reserved for the profile this project creates itself; choose another name`,
      });
    }
    if (Array.isArray(namespaces)) {
      namespaces.forEach((ns, j) => {
        if (typeof ns === "string" && built.has(ns)) {
          ctx.addIssue({
            code: "custom",
            path: ["fargate", "profiles", i, "namespaces", j],
            input: ns,
            message: "already has a Fargate profile created by this project; remove it here",
          });
        }
      });
    }
  });
}

/** A refinement context whose issues are placed under `prefix`. */
function withPath(ctx: z.RefinementCtx, prefix: (string | number)[]): z.RefinementCtx {
  return {
    ...ctx,
    addIssue: (issue: Parameters<z.RefinementCtx["addIssue"]>[0]) => {
      if (typeof issue === "string") return ctx.addIssue(issue);
      ctx.addIssue({ ...issue, path: [...prefix, ...(issue.path ?? [])] } as Parameters<z.RefinementCtx["addIssue"]>[0]);
    },
  } as z.RefinementCtx;
}

export const clusterConfigSchema = rawClusterConfigSchema.superRefine(crossFieldChecks, { when: () => true }).transform((raw) => ({
  ...raw,
  network: resolveNetwork(raw.network, raw.region),
}));

/** A validated cluster configuration with every default filled in. */
export type ClusterConfig = z.output<typeof clusterConfigSchema>;
export type ClusterConfigInput = z.input<typeof clusterConfigSchema>;
