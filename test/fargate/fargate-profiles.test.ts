import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { Testing } from "cdktf";
import { systemFargateProfiles } from "../../src/fargate/fargate-config";
import { FargateProfiles } from "../../src/fargate/fargate-profiles";

interface ProfileJson {
  readonly fargate_profile_name: string;
  readonly selector: readonly unknown[];
  readonly subnet_ids: readonly string[];
  readonly depends_on?: readonly string[];
}

/** The profiles of a bare stack holding only the construct, by name. */
function synthProfiles(karpenterNamespace: string, extra: readonly { name: string; namespaces: string[]; labels?: Record<string, string> }[] = []) {
  let kubeSystemId = "";
  const json = JSON.parse(
    Testing.synthScope((scope) => {
      const profiles = new FargateProfiles(scope, "fargate", {
        clusterName: "demo",
        podExecutionRoleArn: "arn:aws:iam::123456789012:role/demo-fargate-pods",
        privateSubnetIds: ["subnet-a", "subnet-b"],
        system: systemFargateProfiles(karpenterNamespace),
        extra,
        // The pod execution role's policy: the first profile waits for it.
        dependsOn: [new IamRolePolicyAttachment(scope, "pod-execution-policy", { role: "demo-fargate-pods", policyArn: "arn:aws:iam::aws:policy/x" })],
      });
      kubeSystemId = profiles.kubeSystem.friendlyUniqueId;
    }),
  ) as { resource: { aws_eks_fargate_profile: Record<string, ProfileJson> } };
  const byName = Object.fromEntries(Object.entries(json.resource.aws_eks_fargate_profile).map(([id, p]) => [p.fargate_profile_name, { id, ...p }]));
  return { byName, kubeSystemId };
}

describe("FargateProfiles", () => {
  it("creates kube-system, Karpenter's namespace and the extras one after another, in the private subnets", () => {
    const { byName } = synthProfiles("karpenter", [
      { name: "monitoring", namespaces: ["monitoring"] },
      { name: "batch", namespaces: ["jobs"], labels: { tier: "batch" } },
    ]);
    expect(Object.keys(byName).sort()).toEqual(["batch", "karpenter", "kube-system", "monitoring"]);
    expect(byName["kube-system"].selector).toEqual([{ namespace: "kube-system" }]);
    expect(byName.karpenter.selector).toEqual([{ namespace: "karpenter" }]);
    expect(byName.batch.selector).toEqual([{ namespace: "jobs", labels: { tier: "batch" } }]);
    // Each waits for the one before it: EKS allows one profile CREATING at a time.
    expect(byName["kube-system"].depends_on).toEqual(["aws_iam_role_policy_attachment.pod-execution-policy"]);
    expect(byName.karpenter.depends_on).toEqual([`aws_eks_fargate_profile.${byName["kube-system"].id}`]);
    expect(byName.monitoring.depends_on).toEqual([`aws_eks_fargate_profile.${byName.karpenter.id}`]);
    expect(byName.batch.depends_on).toEqual([`aws_eks_fargate_profile.${byName.monitoring.id}`]);
    for (const profile of Object.values(byName)) expect(profile.subnet_ids).toEqual(["subnet-a", "subnet-b"]);
  });

  it("needs no Karpenter profile when Karpenter runs in kube-system", () => {
    expect(Object.keys(synthProfiles("kube-system").byName)).toEqual(["kube-system"]);
  });

  it("hands out the kube-system profile, which CoreDNS waits for, as a typed property", () => {
    const { byName, kubeSystemId } = synthProfiles("karpenter");
    expect(kubeSystemId).toBe(byName["kube-system"].id);
  });
});
