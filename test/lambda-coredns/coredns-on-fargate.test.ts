import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bundleCoreDnsFix } from "../../src/lambda-coredns/lambda-bundle";
import { config, findResource, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

describe("coreDns.mode lambda", () => {
  const outdir = synthApp(config({ coreDns: { mode: "lambda" } }));
  const json = readStack(outdir, "demo-cluster");
  const [functionId, fn] = findResource(json, "aws_lambda_function");
  const [, invocation] = findResource(json, "aws_lambda_invocation");
  const [kubeSystemId] = findResource(json, "aws_eks_fargate_profile", (p) => p.fargate_profile_name === "kube-system");

  it("runs a nodejs22.x function in the private subnets with a bounded timeout", () => {
    expect(fn).toMatchObject({ function_name: "demo-coredns-fargate", runtime: "nodejs22.x", handler: "index.handler", timeout: 600 });
    expect(String((fn.vpc_config as { subnet_ids: unknown }).subnet_ids)).toMatch(/aws_subnet\.network_private-/);
  });

  it("passes the function only the cluster's name, endpoint and public CA", () => {
    const [clusterId] = findResource(json, "aws_eks_cluster");
    expect((fn.environment as { variables: unknown }).variables).toEqual({
      CLUSTER_NAME: `\${aws_eks_cluster.${clusterId}.name}`,
      CLUSTER_ENDPOINT: `\${aws_eks_cluster.${clusterId}.endpoint}`,
      CLUSTER_CA_DATA: `\${aws_eks_cluster.${clusterId}.certificate_authority[0].data}`,
    });
  });

  it("invokes with no credential, once, after the kube-system profile and the access policy", () => {
    expect(JSON.parse(String(invocation.input))).toEqual({ cluster: "demo" });
    expect(invocation.function_name).toBe(`\${aws_lambda_function.${functionId}.function_name}`);
    expect(invocation.triggers).toEqual({ kubeSystemProfile: `\${aws_eks_fargate_profile.${kubeSystemId}.arn}`, code: fn.source_code_hash });
    const [policyId] = findResource(json, "aws_eks_access_policy_association", (a) => String(a.policy_arn).endsWith("/AmazonEKSEditPolicy"));
    const [ingressId] = findResource(json, "aws_vpc_security_group_ingress_rule");
    const [egressId] = findResource(json, "aws_vpc_security_group_egress_rule");
    expect(invocation.depends_on).toEqual([
      `aws_eks_fargate_profile.${kubeSystemId}`,
      `aws_eks_access_policy_association.${policyId}`,
      `aws_vpc_security_group_ingress_rule.${ingressId}`,
      `aws_vpc_security_group_egress_rule.${egressId}`,
    ]);
    // The data source would re-invoke at every plan; the auth data source would put a token in state.
    expect(json.data?.aws_lambda_invocation).toBeUndefined();
    expect(json.data?.aws_eks_cluster_auth).toBeUndefined();
  });

  it("grants the function edit rights in kube-system only, through its own STANDARD access entry", () => {
    const [roleId] = findResource(json, "aws_iam_role", (r) => r.name === "demo-coredns-fargate");
    expect(fn.role).toBe(`\${aws_iam_role.${roleId}.arn}`);
    const [, entry] = findResource(json, "aws_eks_access_entry", (e) => e.principal_arn === `\${aws_iam_role.${roleId}.arn}`);
    expect(entry.type).toBe("STANDARD");
    const [, association] = findResource(json, "aws_eks_access_policy_association", (a) => String(a.policy_arn).endsWith("/AmazonEKSEditPolicy"));
    expect(association).toMatchObject({
      policy_arn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy",
      access_scope: { type: "namespace", namespaces: ["kube-system"] },
    });
    const attached = resourcesOfType(json, "aws_iam_role_policy_attachment").filter(([, a]) => a.role === `\${aws_iam_role.${roleId}.name}`);
    expect(attached.map(([, a]) => a.policy_arn)).toEqual(["arn:aws:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole"]);
  });

  it("opens HTTPS from the function to the cluster security group and nothing else", () => {
    const [sgId] = findResource(json, "aws_security_group", (g) => g.name === "demo-coredns-fargate");
    const [clusterId] = findResource(json, "aws_eks_cluster");
    const clusterSg = `\${aws_eks_cluster.${clusterId}.vpc_config[0].cluster_security_group_id}`;
    expect(findResource(json, "aws_vpc_security_group_egress_rule")[1]).toMatchObject({
      security_group_id: `\${aws_security_group.${sgId}.id}`,
      ip_protocol: "tcp",
      from_port: 443,
      to_port: 443,
      referenced_security_group_id: clusterSg,
    });
    expect(findResource(json, "aws_vpc_security_group_ingress_rule")[1]).toMatchObject({
      security_group_id: clusterSg,
      ip_protocol: "tcp",
      from_port: 443,
      to_port: 443,
      referenced_security_group_id: `\${aws_security_group.${sgId}.id}`,
    });
  });

  it("goes out through NAT to the public endpoint when the private endpoint is off", () => {
    const publicOnly = readStack(
      synthApp(config({ coreDns: { mode: "lambda" }, cluster: { endpointPrivateAccess: false, publicAccessCidrs: ["0.0.0.0/0"] } })),
      "demo-cluster",
    );
    const [, egress] = findResource(publicOnly, "aws_vpc_security_group_egress_rule");
    expect(egress).toMatchObject({ ip_protocol: "tcp", from_port: 443, to_port: 443, cidr_ipv4: "0.0.0.0/0" });
    expect(egress.referenced_security_group_id).toBeUndefined();
  });

  it("lets only Lambda acting for this account assume its role (aws:SourceAccount)", () => {
    const [, role] = findResource(json, "aws_iam_role", (r) => r.name === "demo-coredns-fargate");
    const trustId = String(role.assume_role_policy).match(/data\.aws_iam_policy_document\.([^.]+)\.json/)?.[1] ?? "";
    expect(json.data?.aws_iam_policy_document[trustId].statement).toEqual([
      {
        sid: "LambdaAssumeRole",
        effect: "Allow",
        actions: ["sts:AssumeRole"],
        principals: [{ type: "Service", identifiers: ["lambda.amazonaws.com"] }],
        condition: [{ test: "StringEquals", variable: "aws:SourceAccount", values: ["${data.aws_caller_identity.caller-identity.account_id}"] }],
      },
    ]);
  });

  it("ships the bundle inside the stack folder", () => {
    const filename = String(fn.filename);
    expect(filename).toMatch(/^assets\/[^/]+\/[0-9A-F]+\/coredns-fix\.zip$/);
    expect(fs.existsSync(path.join(outdir, "stacks", "demo-cluster", filename))).toBe(true);
  });

  it("adds no coredns add-on", () => {
    expect(resourcesOfType(json, "aws_eks_addon").map(([, a]) => a.addon_name)).not.toContain("coredns");
  });
});

describe("coreDns.mode addon (default)", () => {
  const json = readStack(synthApp(config()), "demo-cluster");

  it("installs the coredns add-on for Fargate after the kube-system profile, and no Lambda", () => {
    const [kubeSystemId] = findResource(json, "aws_eks_fargate_profile", (p) => p.fargate_profile_name === "kube-system");
    const [, addon] = findResource(json, "aws_eks_addon", (a) => a.addon_name === "coredns");
    expect(JSON.parse(String(addon.configuration_values))).toEqual({
      computeType: "fargate",
      resources: { requests: { cpu: "0.25", memory: "256M" }, limits: { memory: "256M" } },
    });
    expect(addon).toMatchObject({
      resolve_conflicts_on_create: "OVERWRITE",
      resolve_conflicts_on_update: "OVERWRITE",
      depends_on: [`aws_eks_fargate_profile.${kubeSystemId}`],
    });
    expect(resourcesOfType(json, "aws_lambda_function")).toEqual([]);
    expect(resourcesOfType(json, "aws_lambda_invocation")).toEqual([]);
  });

  it("runs EKS's default CoreDNS version for the cluster's Kubernetes version, or the pinned one", () => {
    const [clusterId] = findResource(json, "aws_eks_cluster");
    const [versionId, version] = Object.entries(json.data?.aws_eks_addon_version ?? {}).find(([, v]) => v.addon_name === "coredns")!;
    expect(version).toEqual({ addon_name: "coredns", kubernetes_version: `\${aws_eks_cluster.${clusterId}.version}`, most_recent: false });
    expect(findResource(json, "aws_eks_addon", (a) => a.addon_name === "coredns")[1].addon_version).toBe(`\${data.aws_eks_addon_version.${versionId}.version}`);

    const pinned = readStack(synthApp(config({ coreDns: { version: "v1.11.4-eksbuild.2" } })), "demo-cluster");
    expect(findResource(pinned, "aws_eks_addon", (a) => a.addon_name === "coredns")[1].addon_version).toBe("v1.11.4-eksbuild.2");
    expect(Object.values(pinned.data?.aws_eks_addon_version ?? {}).map((v) => v.addon_name)).not.toContain("coredns");
  });
});

describe("the Lambda bundle", () => {
  it("is byte-identical when rebuilt from the same source", () => {
    // Own cache folders: deleting the shared one would pull the zip from under the Terraform suite running alongside.
    const [firstCache, secondCache] = [fs.mkdtempSync(path.join(os.tmpdir(), "aeks-zip-")), fs.mkdtempSync(path.join(os.tmpdir(), "aeks-zip-"))];
    try {
      const first = bundleCoreDnsFix(firstCache);
      const second = bundleCoreDnsFix(secondCache);
      expect(path.basename(path.dirname(second.zipPath))).toBe(path.basename(path.dirname(first.zipPath)));
      expect(fs.readFileSync(second.zipPath).equals(fs.readFileSync(first.zipPath))).toBe(true);
      expect(second.sha256).toBe(first.sha256);
      expect(bundleCoreDnsFix().sha256).toBe(first.sha256);
    } finally {
      for (const dir of [firstCache, secondCache]) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads as a CommonJS module exporting the handler", () => {
    const { unzipSync } = require("fflate") as typeof import("fflate");
    const files = unzipSync(fs.readFileSync(bundleCoreDnsFix().zipPath));
    expect(Object.keys(files)).toEqual(["index.js"]);
    const module = { exports: {} as Record<string, unknown> };
    new Function("module", "exports", "require", Buffer.from(files["index.js"]).toString("utf8"))(module, module.exports, require);
    expect(typeof module.exports.handler).toBe("function");
  });
});
