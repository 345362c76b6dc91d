import { config, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

describe("FargateProfiles", () => {
  it("creates kube-system, karpenter and the extras in a chain, in private subnets", () => {
    const json = readStack(
      synthApp(
        config({
          fargate: {
            profiles: [
              { name: "monitoring", namespaces: ["monitoring"] },
              { name: "batch", namespaces: ["jobs"], labels: { tier: "batch" } },
            ],
          },
        }),
      ),
      "demo-cluster",
    );
    const profiles: Record<string, Record<string, unknown>> = Object.fromEntries(
      resourcesOfType(json, "aws_eks_fargate_profile").map(([id, p]) => [String(p.fargate_profile_name), { id, ...p }]),
    );
    expect(Object.keys(profiles).sort()).toEqual(["batch", "karpenter", "kube-system", "monitoring"]);
    expect(profiles["kube-system"].selector).toEqual([{ namespace: "kube-system" }]);
    expect(profiles.karpenter.selector).toEqual([{ namespace: "karpenter" }]);
    expect(profiles.batch.selector).toEqual([{ namespace: "jobs", labels: { tier: "batch" } }]);
    // Each waits for the one before it: EKS allows one profile CREATING at a time.
    expect(profiles.karpenter.depends_on).toEqual([`aws_eks_fargate_profile.${profiles["kube-system"].id}`]);
    expect(profiles.monitoring.depends_on).toEqual([`aws_eks_fargate_profile.${profiles.karpenter.id}`]);
    expect(profiles.batch.depends_on).toEqual([`aws_eks_fargate_profile.${profiles.monitoring.id}`]);
    expect(profiles["kube-system"].depends_on).toEqual([expect.stringMatching(/^aws_iam_role_policy_attachment\./)]);
    for (const p of Object.values(profiles)) expect(String(p.subnet_ids)).toMatch(/private/);
  });

  it("needs no karpenter profile when Karpenter runs in kube-system", () => {
    const json = readStack(synthApp(config({ karpenter: { namespace: "kube-system" } })), "demo-cluster");
    expect(resourcesOfType(json, "aws_eks_fargate_profile").map(([, p]) => p.fargate_profile_name)).toEqual(["kube-system"]);
  });
});
