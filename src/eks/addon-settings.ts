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

const addon = strictObject({ version: addonVersion.default("default") });

export const addonsSchema = strictObject({
  /** Always installed: pod networking on the nodes Karpenter launches. */
  "vpc-cni": addon.prefault({}),
  /** Always installed: Services on the nodes Karpenter launches. */
  "kube-proxy": addon.prefault({}),
  /** Optional: EKS Pod Identity for pods on EC2 nodes (a DaemonSet; Fargate pods keep using IRSA). */
  "eks-pod-identity-agent": addon.optional(),
  /** Optional: EBS volumes for pods on EC2 nodes; its controller runs on Fargate with its own IRSA role. */
  "aws-ebs-csi-driver": addon.optional(),
  /** Optional: resource metrics for `kubectl top` and the HorizontalPodAutoscaler (the demo's HPA needs it). */
  "metrics-server": addon.optional(),
}).prefault({});

export type AddonsSettings = z.output<typeof addonsSchema>;

const coreDnsFields = strictObject({
  /** addon: the managed add-on with computeType fargate; lambda: the original design, a function patches and restarts CoreDNS. */
  mode: z.enum(["addon", "lambda"]).default("addon"),
  /** The add-on's version (addon mode only): default, latest or a pin. */
  version: addonVersion.optional(),
});

export const coreDnsSchema = withChecks(coreDnsFields, [
  {
    reads: ["mode", "version"],
    check: ({ mode, version }, report) => {
      if (mode === "lambda" && version !== undefined) {
        report(["version"], version, "applies to mode addon only; in lambda mode CoreDNS stays the self-managed copy EKS installed");
      }
    },
  },
]).prefault({});

export type CoreDnsSettings = z.output<typeof coreDnsSchema>;

/**
 * The CoreDNS add-on's resources. Fargate sizes each pod from its requests (plus 256 MB for its own agents),
 * so 0.25 vCPU / 256M lands on the smallest size, 0.25 vCPU / 0.5 GB. No CPU limit: throttled DNS shows up as
 * timeouts everywhere.
 */
export const COREDNS_RESOURCES = { requests: { cpu: "0.25", memory: "256M" }, limits: { memory: "256M" } } as const;
