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

const addon = strictObject({
  version: addonVersion.default("default").meta({
    description:
      "`default` follows a Kubernetes upgrade (the control plane is updated first, then the add-on); `latest` also follows new releases AWS publishes for the same Kubernetes version (a plan then shows an update); a pin such as `v1.19.2-eksbuild.1` stays put.",
  }),
});

export const addonsSchema = strictObject({
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
})
  .prefault({})
  .meta({
    title: "EKS managed add-ons",
    description:
      "Each at EKS's version for the cluster's Kubernetes version unless told otherwise. Optional add-ons are installed when listed (`metrics-server: {}`).",
  });

export type AddonsSettings = z.output<typeof addonsSchema>;

const coreDnsFields = strictObject({
  mode: z.enum(["addon", "lambda"]).default("addon").meta({
    description:
      "`addon`: the managed add-on with `computeType: fargate`; `lambda`: the original design, a function patches and restarts EKS's self-managed CoreDNS. See docs/operations.md, CoreDNS on Fargate.",
  }),
  version: addonVersion.optional().meta({
    defaultText: "`default`",
    description: "Add-on mode only: `default` (EKS's default for the cluster's Kubernetes version), `latest`, or a pin such as `v1.11.4-eksbuild.2`.",
  }),
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
