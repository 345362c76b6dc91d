import { Testing } from "cdktf";
import { CoreDnsAddon } from "../../src/eks/coredns-addon";
import { kubeSystemProfileIn } from "../helpers/kube-system-profile";

describe("CoreDnsAddon (construct in a bare stack)", () => {
  const json = JSON.parse(
    Testing.synthScope((scope) => {
      const kubeSystemProfile = kubeSystemProfileIn(scope);
      new CoreDnsAddon(scope, "coredns", { cluster: { name: "demo", version: "1.35" }, settings: { mode: "addon" }, kubeSystemProfile });
    }),
  ) as { resource: { aws_eks_addon: Record<string, Record<string, unknown>> } };
  const [addon] = Object.values(json.resource.aws_eks_addon);

  it("renders CoreDNS for Fargate at the smallest Fargate size, with no CPU limit", () => {
    expect(addon.addon_name).toBe("coredns");
    expect(JSON.parse(String(addon.configuration_values))).toEqual({
      computeType: "fargate",
      resources: { requests: { cpu: "0.25", memory: "256M" }, limits: { memory: "256M" } },
    });
  });

  it("is created after the kube-system profile and takes over the self-managed CoreDNS", () => {
    expect(addon.depends_on).toEqual(["aws_eks_fargate_profile.kube-system"]);
    expect(addon).toMatchObject({ resolve_conflicts_on_create: "OVERWRITE", resolve_conflicts_on_update: "OVERWRITE" });
  });
});
