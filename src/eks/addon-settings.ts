import { z } from "zod";
import { strictObject, withChecks } from "../shared/schema-helpers";

// The `addons` and `coreDns` sections of the cluster config: which EKS managed add-ons run, at which version.

/**
 * default: EKS's default version for the cluster's Kubernetes version, so a Kubernetes upgrade moves the
 * add-on too; latest: the newest version EKS offers for it (moves whenever AWS publishes one); or a pin.
 */
export const addonVersion = z.string().regex(/^(default|latest|v\d+\.\d+\.\d+-eksbuild\.\d+)$/, {
  error: `must be "default" (EKS's default for the cluster's Kubernetes version), "latest", or a version such as v1.19.2-eksbuild.1`,
});

export type AddonVersion = z.output<typeof addonVersion>;

/**
 * An add-on's configuration as YAML or JSON: EKS takes it as a JSON document (`configuration_values`) checked
 * against the add-on version's schema (`aws eks describe-addon-configuration`).
 */
export const configurationValues = z.record(z.string(), z.json({ error: "must be plain JSON values (strings, numbers, booleans, lists, mappings)" }));

/**
 * What EKS does with fields changed outside the add-on (by hand, or by a self-managed copy EKS installed at
 * cluster creation), as it documents each mode for CreateAddon and UpdateAddon.
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateAddon.html (resolveConflicts)
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_UpdateAddon.html (resolveConflicts)
 */
const RESOLVE_ON_CREATE =
  "When the add-on is created over a self-managed copy (EKS installs vpc-cni, kube-proxy and CoreDNS that way): `OVERWRITE` sets each field that differs to the add-on's value; `NONE` leaves them, and the creation may fail on a conflict.";
const RESOLVE_ON_UPDATE =
  "When the add-on is updated (version or configuration): `OVERWRITE` puts back the add-on's value of every field edited by hand; `PRESERVE` keeps hand edits (test them on a non-production cluster first); `NONE` changes nothing and the update fails on a conflict.";
const resolveOnCreate = z.enum(["OVERWRITE", "NONE"]);
const resolveOnUpdate = z.enum(["OVERWRITE", "PRESERVE", "NONE"]);

/** The resolve modes this project uses unless told otherwise: the add-on's values win, as Terraform's should. */
export const DEFAULT_RESOLVE_CONFLICTS = { onCreate: "OVERWRITE", onUpdate: "OVERWRITE" } as const;

const addon = strictObject({
  version: addonVersion.default("default").meta({
    description:
      "`default` follows a Kubernetes upgrade (the control plane is updated first, then the add-on); `latest` also follows new releases AWS publishes for the same Kubernetes version (a plan then shows an update); a pin such as `v1.19.2-eksbuild.1` stays put.",
  }),
  configurationValues: configurationValues.optional().meta({
    description:
      "The add-on's configuration (`configuration_values`), as a mapping: merged with what this project sets itself, which it may not contradict (Windows IPAM on vpc-cni), and checked against the add-on's published schema where the project holds a dated copy (`src/eks/addon-schemas.ts`; `aws eks describe-addon-configuration --addon-name <name> --addon-version <version>` prints any version's). Values the schema takes as strings must be quoted in YAML (`ENABLE_PREFIX_DELEGATION: \"true\"`).",
  }),
  resolveConflictsOnCreate: resolveOnCreate.default(DEFAULT_RESOLVE_CONFLICTS.onCreate).meta({ description: RESOLVE_ON_CREATE }),
  resolveConflictsOnUpdate: resolveOnUpdate.default(DEFAULT_RESOLVE_CONFLICTS.onUpdate).meta({ description: RESOLVE_ON_UPDATE }),
});

/** Add-ons configured in a section of their own, which users look for under `addons`. */
const CONFIGURED_ELSEWHERE = {
  coredns: "CoreDNS is configured in the top-level coreDns section (coreDns.version, coreDns.configurationValues), not under addons",
};

export const addonsSchema = strictObject(
  {
    "vpc-cni": addon.prefault({}).meta({
      description: "Always installed: pod networking on the EC2 nodes. With a Windows node class it also switches on Windows IPAM (`enableWindowsIpam`).",
    }),
    "kube-proxy": addon.prefault({}).meta({ description: "Always installed: Services on the EC2 nodes." }),
    "eks-pod-identity-agent": addon.optional().meta({
      description: "Optional. EKS Pod Identity for pods on EC2 nodes (a DaemonSet; Fargate pods, the Karpenter controller among them, keep using IRSA).",
    }),
    "aws-ebs-csi-driver": addon.optional().meta({
      description:
        "Optional. EBS volumes for pods on EC2 nodes (EBS does not attach to Fargate). Its controller runs on Fargate with its own IRSA role, `<name>-ebs-csi-driver`, holding AWS's `AmazonEBSCSIDriverPolicy` and trusted only by `kube-system:ebs-csi-controller-sa`.",
    }),
    "metrics-server": addon.optional().meta({
      description: "Optional. Resource metrics for `kubectl top` and HorizontalPodAutoscalers (the demo's needs it); runs on Fargate in kube-system.",
    }),
  },
  CONFIGURED_ELSEWHERE,
)
  .prefault({})
  .meta({
    title: "EKS managed add-ons",
    description:
      "Each at EKS's version for the cluster's Kubernetes version unless told otherwise. Optional add-ons are installed when listed (`metrics-server: {}`).",
  });

export type AddonsSettings = z.output<typeof addonsSchema>;
/** One add-on's settings, defaults filled in. */
export type AddonSettings = z.output<typeof addon>;

const coreDnsFields = strictObject({
  mode: z.enum(["addon", "lambda"]).default("addon").meta({
    description:
      "`addon`: the managed add-on with `computeType: fargate`; `lambda`: the original design, a function patches and restarts EKS's self-managed CoreDNS. See docs/operations.md, CoreDNS on Fargate.",
  }),
  version: addonVersion.optional().meta({
    defaultText: "`default`",
    description: "Add-on mode only: `default` (EKS's default for the cluster's Kubernetes version), `latest`, or a pin such as `v1.11.4-eksbuild.2`.",
  }),
  configurationValues: configurationValues.optional().meta({
    description:
      "Add-on mode only: the coredns add-on's configuration, merged over the project's (`computeType: fargate`, which it may not change, and resources of 0.25 vCPU / 256M, which it may: the planner sizes CoreDNS's Fargate pods from the result, with `replicaCount`).",
  }),
  resolveConflictsOnCreate: resolveOnCreate.optional().meta({ defaultText: "`OVERWRITE`", description: `Add-on mode only. ${RESOLVE_ON_CREATE}` }),
  resolveConflictsOnUpdate: resolveOnUpdate.optional().meta({ defaultText: "`OVERWRITE`", description: `Add-on mode only. ${RESOLVE_ON_UPDATE}` }),
});

const ADDON_MODE_FIELDS = ["version", "configurationValues", "resolveConflictsOnCreate", "resolveConflictsOnUpdate"] as const;

export const coreDnsSchema = withChecks(coreDnsFields, [
  {
    reads: ["mode", ...ADDON_MODE_FIELDS],
    check: (coreDns, report) => {
      if (coreDns.mode !== "lambda") return;
      for (const field of ADDON_MODE_FIELDS) {
        if (coreDns[field] !== undefined) {
          report([field], coreDns[field], "applies to mode addon only; in lambda mode CoreDNS stays the self-managed copy EKS installed");
        }
      }
    },
  },
])
  .prefault({})
  .meta({ title: "CoreDNS on Fargate", description: "How CoreDNS comes to run on Fargate when the cluster has no EC2 node." });

export type CoreDnsSettings = z.output<typeof coreDnsSchema>;

/**
 * The CoreDNS add-on's resources. Fargate sizes each pod from its requests (plus 256 MB for its own agents),
 * so 0.25 vCPU / 256M lands on the smallest size, 0.25 vCPU / 0.5 GB. No CPU limit: throttled DNS shows up as
 * timeouts everywhere.
 */
export const COREDNS_RESOURCES = { requests: { cpu: "0.25", memory: "256M" }, limits: { memory: "256M" } } as const;
