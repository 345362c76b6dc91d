import { config, findResource, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

describe("ControlPlane", () => {
  const json = readStack(
    synthApp(config({ cluster: { adminPrincipalArns: ["arn:aws:iam::123456789012:role/platform"], logRetentionDays: 30 } })),
    "demo-cluster",
  );
  const [clusterId, cluster] = findResource(json, "aws_eks_cluster");

  it("creates no node groups", () => {
    expect(resourcesOfType(json, "aws_eks_node_group")).toEqual([]);
    expect(resourcesOfType(json, "aws_autoscaling_group")).toEqual([]);
  });

  it("encrypts secrets with a rotating KMS key", () => {
    const [keyId, key] = findResource(json, "aws_kms_key");
    expect(key).toMatchObject({ enable_key_rotation: true, deletion_window_in_days: 30 });
    expect(cluster.encryption_config).toEqual({ provider: { key_arn: `\${aws_kms_key.${keyId}.arn}` }, resources: ["secrets"] });
  });

  it("gives the secrets key a policy of its own: administered through the account's IAM, used by the cluster role only", () => {
    const [, key] = findResource(json, "aws_kms_key");
    const documentId = String(key.policy).match(/aws_iam_policy_document\.([^.]+)\.json/)![1];
    const [admin, grants, use] = json.data!.aws_iam_policy_document[documentId].statement as Record<string, unknown>[];
    const account = { type: "AWS", identifiers: ["arn:aws:iam::${data.aws_caller_identity.caller-identity.account_id}:root"] };
    expect(admin).toMatchObject({ sid: "KeyAdministration", principals: [account] });
    // No use of the key, and no grant of it either: kms:Create* would include kms:CreateGrant, through which an
    // administrator could give itself Decrypt. Grants only for an AWS service acting for a resource (EKS).
    for (const action of admin.actions as string[]) expect(action).not.toMatch(/^kms:(Encrypt|Decrypt|ReEncrypt|GenerateDataKey|Create\*|CreateGrant|\*)/);
    expect(grants).toEqual({
      sid: "GrantsForAwsResources",
      effect: "Allow",
      actions: ["kms:CreateGrant"],
      resources: ["*"],
      principals: [account],
      condition: [{ test: "Bool", variable: "kms:GrantIsForAWSResource", values: ["true"] }],
    });
    const [clusterRoleId] = findResource(json, "aws_iam_role", (r) => r.name === "demo-cluster");
    expect(use).toEqual({
      sid: "ClusterEncryption",
      effect: "Allow",
      actions: ["kms:Encrypt", "kms:Decrypt", "kms:ListGrants", "kms:DescribeKey"],
      resources: ["*"],
      principals: [{ type: "AWS", identifiers: [`\${aws_iam_role.${clusterRoleId}.arn}`] }],
    });
    const named = readStack(synthApp(config({ cluster: { secretsKeyAdministrators: ["arn:aws:iam::123456789012:role/key-admin"] } })), "demo-cluster");
    const [, namedKey] = findResource(named, "aws_kms_key");
    const namedId = String(namedKey.policy).match(/aws_iam_policy_document\.([^.]+)\.json/)![1];
    const namedStatements = named.data!.aws_iam_policy_document[namedId].statement as { principals: unknown }[];
    expect(namedStatements[1].principals).toEqual(namedStatements[0].principals);
    expect(namedStatements[0].principals).toEqual([
      { type: "AWS", identifiers: ["${data.aws_iam_session_context.caller-session.issuer_arn}", "arn:aws:iam::123456789012:role/key-admin"] },
    ]);
  });

  it("uses access entries only and sends all control-plane logs to a group with retention", () => {
    expect(cluster.access_config).toEqual({ authentication_mode: "API", bootstrap_cluster_creator_admin_permissions: false });
    expect(cluster.enabled_cluster_log_types).toEqual(["api", "audit", "authenticator", "controllerManager", "scheduler"]);
    const [logGroupId, logGroup] = findResource(json, "aws_cloudwatch_log_group", (g) => g.name === "/aws/eks/demo/cluster");
    expect(logGroup).toMatchObject({ name: "/aws/eks/demo/cluster", retention_in_days: 30 });
    expect(cluster.depends_on).toContain(`aws_cloudwatch_log_group.${logGroupId}`);
  });

  it("waits for the cluster role's policy before creating the cluster", () => {
    const [attachmentId] = findResource(json, "aws_iam_role_policy_attachment", (a) => String(a.policy_arn).endsWith("/AmazonEKSClusterPolicy"));
    expect(cluster.depends_on).toContain(`aws_iam_role_policy_attachment.${attachmentId}`);
  });

  it("keeps the API private by default (CIS EKS 5.4.2), and public only for the ranges listed (5.4.1)", () => {
    const fresh = findResource(readStack(synthApp(config()), "demo-cluster"), "aws_eks_cluster")[1];
    expect(fresh.vpc_config).toMatchObject({ endpoint_private_access: true, endpoint_public_access: false });
    expect((fresh.vpc_config as Record<string, unknown>).public_access_cidrs).toBeUndefined();
    const listed = findResource(readStack(synthApp(config({ cluster: { publicAccessCidrs: ["203.0.113.7/32"] } })), "demo-cluster"), "aws_eks_cluster")[1];
    expect(listed.vpc_config).toMatchObject({ endpoint_private_access: true, endpoint_public_access: true, public_access_cidrs: ["203.0.113.7/32"] });
  });

  it("tags the cluster security group for discovery and opens nothing to the world", () => {
    expect(findResource(json, "aws_ec2_tag")[1]).toEqual({
      resource_id: `\${aws_eks_cluster.${clusterId}.vpc_config[0].cluster_security_group_id}`,
      key: "karpenter.sh/discovery",
      value: "demo",
    });
    // The original opened NodePorts, 80, 443, 8080 and 53 to 0.0.0.0/0 on this group.
    expect(resourcesOfType(json, "aws_security_group_rule")).toEqual([]);
    expect(resourcesOfType(json, "aws_vpc_security_group_ingress_rule")).toEqual([]);
    // The Lambda mode adds the one ingress rule the stack has: from the function's group, not from a CIDR.
    const lambda = readStack(synthApp(config({ coreDns: { mode: "lambda" } })), "demo-cluster");
    const rules = resourcesOfType(lambda, "aws_vpc_security_group_ingress_rule").map(([, rule]) => rule);
    expect(rules).toHaveLength(1);
    expect(rules[0].cidr_ipv4).toBeUndefined();
    expect(rules[0].referenced_security_group_id).toMatch(/^\$\{aws_security_group\..+\.id\}$/);
  });

  it("creates the OIDC provider for IRSA", () => {
    expect(findResource(json, "aws_iam_openid_connect_provider")[1]).toEqual({
      url: `\${aws_eks_cluster.${clusterId}.identity[0].oidc[0].issuer}`,
      client_id_list: ["sts.amazonaws.com"],
    });
  });

  it("maps Karpenter's node role with an EC2_LINUX access entry and admins with cluster-admin", () => {
    const [nodeRoleId] = findResource(json, "aws_iam_role", (r) => r.name === "demo-karpenter-node");
    expect(findResource(json, "aws_eks_access_entry", (e) => e.type === "EC2_LINUX")[1].principal_arn).toBe(`\${aws_iam_role.${nodeRoleId}.arn}`);
    findResource(json, "aws_eks_access_entry", (e) => e.type === "STANDARD" && e.principal_arn === "arn:aws:iam::123456789012:role/platform");
    expect(findResource(json, "aws_eks_access_policy_association", (a) => String(a.principal_arn).includes("admin"))[1]).toMatchObject({
      policy_arn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy",
      access_scope: { type: "cluster" },
    });
  });

  it("installs vpc-cni, kube-proxy and (in the default mode) CoreDNS as managed add-ons", () => {
    expect(
      resourcesOfType(json, "aws_eks_addon")
        .map(([, a]) => a.addon_name)
        .sort(),
    ).toEqual(["coredns", "kube-proxy", "vpc-cni"]);
  });

  it("says what EKS does at the end of standard support: extended support unless standard is chosen", () => {
    expect(cluster.upgrade_policy).toEqual({ support_type: "EXTENDED" });
    const standard = readStack(synthApp(config({ cluster: { upgradePolicy: "standard" } })), "demo-cluster");
    expect(findResource(standard, "aws_eks_cluster")[1].upgrade_policy).toEqual({ support_type: "STANDARD" });
  });

  it("leaves public access CIDRs out when the public endpoint is off", () => {
    const privateOnly = readStack(synthApp(config({ cluster: { endpointPublicAccess: false } })), "demo-cluster");
    expect(findResource(privateOnly, "aws_eks_cluster")[1].vpc_config).toEqual(expect.not.objectContaining({ public_access_cidrs: expect.anything() }));
  });
});
