import { config, readStack, synthApp } from "../helpers/synth-app";

describe("the stacks' outputs", () => {
  const outdir = synthApp(config({ nodePools: [{ name: "default" }, { name: "batch" }] }));
  const cluster = readStack(outdir, "demo-cluster").output as Record<string, { value: unknown; description: string; sensitive?: boolean }>;
  const karpenter = readStack(outdir, "demo-karpenter").output as Record<string, { value: unknown; description: string; sensitive?: boolean }>;

  it("gives downstream workspaces and people what they need from the cluster stack, under plain names", () => {
    expect(Object.keys(cluster).sort()).toEqual([
      "access_entries",
      "cluster_arn",
      "cluster_certificate_authority_data",
      "cluster_endpoint",
      "cluster_name",
      "cluster_security_group_id",
      "cluster_version",
      "karpenter_controller_role_arn",
      "karpenter_interruption_queue_name",
      "node_role_arn",
      "node_role_name",
      "oidc_issuer_url",
      "oidc_provider_arn",
      "private_subnet_ids",
      "public_subnet_ids",
      "update_kubeconfig_command",
      "vpc_id",
    ]);
    expect(cluster.update_kubeconfig_command.value).toBe("aws eks update-kubeconfig --region us-east-1 --name demo");
    expect(cluster.cluster_certificate_authority_data.value).toMatch(/^\$\{aws_eks_cluster\.[^.]+\.certificate_authority\[0\]\.data\}$/);
  });

  it("names the chart version and the NodePools on the Karpenter stack", () => {
    expect(karpenter).toEqual({
      karpenter_version: { value: "1.14.1", description: "The Karpenter release (both charts) this stack installs." },
      karpenter_namespace: { value: "karpenter", description: "The namespace of the Karpenter controller." },
      node_class_names: { value: ["default"], description: "The EC2NodeClasses this stack applies." },
      node_pool_names: { value: ["default", "batch"], description: "The NodePools this stack applies." },
    });
  });

  it("describes every output and marks none sensitive: nothing secret is an output", () => {
    for (const [name, output] of Object.entries({ ...cluster, ...karpenter })) {
      expect({ name, described: output.description.length > 10, sensitive: output.sensitive }).toEqual({ name, described: true, sensitive: undefined });
    }
  });
});
