import * as fs from "node:fs";
import * as path from "node:path";
import { load } from "js-yaml";
import type { ClusterConfig } from "../../src/config/cluster-schema";
import { config, findResource, readStack, resourcesOfType, synthApp, type TerraformJson } from "../helpers/synth-app";

/** A config file as written, to change fields before it is parsed. */
const rawConfig = (file: string) => load(fs.readFileSync(file, "utf8")) as Record<string, unknown>;

import { copyStack, describeWithTerraform, terraform, terraformEnv } from "./terraform-cli";

/** Assertions for the apply run, on resources found by type (never by hashed logical id). */
function applyAssertions(json: TerraformJson): string {
  const ref = (type: string, match?: (b: Record<string, unknown>) => boolean) => `${type}.${findResource(json, type, match)[0]}`;
  const cluster = ref("aws_eks_cluster");
  const kubeSystem = ref("aws_eks_fargate_profile", (p) => p.fargate_profile_name === "kube-system");
  const fargateRole = ref("aws_iam_role", (r) => r.name === "demo-fargate-pods");
  const sgTag = ref("aws_ec2_tag", (t) => String(t.resource_id).includes("cluster_security_group_id"));
  const asserts: [string, string][] = [
    [`${cluster}.name == "demo"`, "cluster name"],
    [`${cluster}.access_config[0].authentication_mode == "API"`, "access entries only"],
    [`${cluster}.encryption_config[0].resources == toset(["secrets"])`, "secrets encrypted"],
    [`${ref("aws_kms_key")}.enable_key_rotation == true`, "key rotation on"],
    [`${ref("aws_iam_openid_connect_provider")}.url == ${cluster}.identity[0].oidc[0].issuer`, "OIDC provider on the cluster issuer"],
    [`${sgTag}.resource_id == ${cluster}.vpc_config[0].cluster_security_group_id`, "cluster security group tagged for discovery"],
    [`${kubeSystem}.pod_execution_role_arn == ${fargateRole}.arn`, "kube-system profile uses the pod execution role"],
  ];
  // Wiring between computed values, which the mock fills at apply: the references resolve end to end.
  if (resourcesOfType(json, "aws_lambda_invocation").length > 0) {
    const invocation = ref("aws_lambda_invocation");
    asserts.push(
      [`${invocation}.triggers["kubeSystemProfile"] == ${kubeSystem}.arn`, "CoreDNS fix re-runs when the kube-system profile is replaced"],
      [`${invocation}.function_name == ${ref("aws_lambda_function")}.function_name`, "the invocation calls the CoreDNS function"],
    );
  }
  // Add-ons take the version EKS resolves for the cluster's Kubernetes version, read after the control plane.
  const vpcCni = ref("aws_eks_addon", (a) => a.addon_name === "vpc-cni");
  const vpcCniVersion = Object.entries(json.data?.aws_eks_addon_version ?? {}).find(([, v]) => v.addon_name === "vpc-cni");
  if (vpcCniVersion) asserts.push([`${vpcCni}.addon_version == data.aws_eks_addon_version.${vpcCniVersion[0]}.version`, "vpc-cni at the resolved version"]);
  if (resourcesOfType(json, "aws_eks_addon").some(([, a]) => a.addon_name === "aws-ebs-csi-driver")) {
    const ebs = ref("aws_eks_addon", (a) => a.addon_name === "aws-ebs-csi-driver");
    asserts.push([
      `${ebs}.service_account_role_arn == ${ref("aws_iam_role", (r) => r.name === "demo-ebs-csi-driver")}.arn`,
      "EBS CSI driver with its IRSA role",
    ]);
  }
  if (resourcesOfType(json, "aws_eks_access_entry").some(([, e]) => e.type === "EC2_WINDOWS")) {
    const windowsEntry = ref("aws_eks_access_entry", (e) => e.type === "EC2_WINDOWS");
    asserts.push([
      `${windowsEntry}.principal_arn == ${ref("aws_iam_role", (r) => r.name === "demo-karpenter-windows-node")}.arn`,
      "Windows nodes join with their own role",
    ]);
  }
  if (resourcesOfType(json, "aws_flow_log").length > 0) {
    const flowLog = ref("aws_flow_log");
    asserts.push(
      [`${flowLog}.log_destination == ${ref("aws_cloudwatch_log_group", (g) => g.name === "/aws/vpc/demo/flow-logs")}.arn`, "flow logs to their own group"],
      [`${flowLog}.iam_role_arn == ${ref("aws_iam_role", (r) => r.name === "demo-vpc-flow-logs")}.arn`, "delivered by their own role"],
      [`${flowLog}.vpc_id == ${ref("aws_vpc")}.id`, "of the cluster's VPC"],
    );
  }
  // Each policy association belongs to its principal's entry (teams' access, administrators).
  for (const [id, association] of resourcesOfType(json, "aws_eks_access_policy_association")) {
    const entry = /^\$\{(aws_eks_access_entry\.[^.]+)\.principal_arn\}$/.exec(String(association.principal_arn))?.[1];
    if (entry !== undefined) asserts.push([`aws_eks_access_policy_association.${id}.principal_arn == ${entry}.principal_arn`, `${id} on its entry`]);
  }
  const configured = resourcesOfType(json, "aws_eks_addon").find(([, a]) => a.addon_name === "vpc-cni" && a.configuration_values !== undefined);
  if (configured) {
    asserts.push([
      `jsondecode(aws_eks_addon.${configured[0]}.configuration_values) == jsondecode(${JSON.stringify(String(configured[1].configuration_values))})`,
      "vpc-cni configured as synthesized",
    ]);
  }
  asserts.push(
    [`output.cluster_name == "demo"`, "cluster_name output"],
    [`output.cluster_endpoint == ${cluster}.endpoint`, "cluster_endpoint output"],
    [`output.node_role_arn == ${ref("aws_iam_role", (r) => r.name === "demo-karpenter-node")}.arn`, "node_role_arn output"],
    [`output.update_kubeconfig_command == "aws eks update-kubeconfig --region us-east-1 --name demo"`, "update_kubeconfig_command output"],
  );
  const nodeLifecycle = ref("aws_iam_policy", (p) => p.name === "demo-karpenter-node-lifecycle");
  const nodeLifecycleAttachment = ref("aws_iam_role_policy_attachment", (a) => String(a.policy_arn).includes("NodeLifecycle"));
  const controllerRole = ref("aws_iam_role", (r) => r.name === "demo-karpenter-controller");
  asserts.push(
    [`${nodeLifecycleAttachment}.policy_arn == ${nodeLifecycle}.arn`, "the controller's node lifecycle policy is attached"],
    [`${nodeLifecycleAttachment}.role == ${controllerRole}.name`, "to the controller role"],
  );
  return asserts.map(([condition, message]) => `  assert {\n    condition     = ${condition}\n    error_message = ${JSON.stringify(message)}\n  }`).join("\n");
}

/**
 * One ARN per IAM role and policy, built from its name: the mock's defaults would give them all the same
 * ARN, and an assertion that a reference points at the right one could not fail.
 */
function uniqueIamArns(json: TerraformJson): string {
  const overrides = (type: string, kind: string) =>
    resourcesOfType(json, type).map(
      ([id, body]) => `override_resource {\n  target = ${type}.${id}\n  values = { arn = "arn:aws:iam::123456789012:${kind}/${String(body.name)}" }\n}\n`,
    );
  const logGroups = resourcesOfType(json, "aws_cloudwatch_log_group").map(
    ([id, body]) =>
      `override_resource {\n  target = aws_cloudwatch_log_group.${id}\n  values = { arn = "arn:aws:logs:us-east-1:123456789012:log-group:${String(body.name)}" }\n}\n`,
  );
  return [...overrides("aws_iam_role", "role"), ...overrides("aws_iam_policy", "policy"), ...logGroups].join("\n");
}

/**
 * A plan run as the identity of each principal given an entry: the entry's precondition must refuse it (EKS
 * already gives the creating identity an entry, and allows one per principal).
 */
function creatorCollisionRuns(json: TerraformJson): string {
  const caller = Object.keys(json.data?.aws_iam_session_context ?? {})[0];
  if (caller === undefined) return "";
  return resourcesOfType(json, "aws_eks_access_entry")
    .filter(([, e]) => e.lifecycle !== undefined && String(e.principal_arn).startsWith("arn:"))
    .map(
      ([id, entry]) =>
        `run "creator-is-${id}" {\n  command = plan\n  override_data {\n    target = data.aws_iam_session_context.${caller}\n    values = { issuer_arn = ${JSON.stringify(entry.principal_arn)} }\n  }\n  expect_failures = [aws_eks_access_entry.${id}]\n}\n`,
    )
    .join("\n");
}

/**
 * After the first apply, a plan by another identity: the creator's entry keeps the principal recorded at the
 * first apply (the mocks' caller, role/ci), so cluster-admin does not follow whoever applies next.
 */
function creatorStaysRun(json: TerraformJson): string {
  const caller = Object.keys(json.data?.aws_iam_session_context ?? {})[0];
  const creator = resourcesOfType(json, "aws_eks_access_entry").find(([, e]) => String(e.principal_arn).includes("aws_iam_session_context"));
  if (caller === undefined || creator === undefined) return "";
  return `run "creator-entry-stays-with-the-first-applier" {
  command = plan
  override_data {
    target = data.aws_iam_session_context.${caller}
    values = { issuer_arn = "arn:aws:iam::123456789012:role/another-operator" }
  }
  assert {
    condition     = aws_eks_access_entry.${creator[0]}.principal_arn == "arn:aws:iam::123456789012:role/ci"
    error_message = "the creator's entry moved to the identity of a later apply"
  }
}
`;
}

/**
 * Writes the mock test; returns how many runs it holds. The refused plans come before the apply: they are
 * first applies by a listed principal, which a recorded creator no longer collides with.
 */
function writeMockTest(stackDir: string, json: TerraformJson): number {
  fs.mkdirSync(path.join(stackDir, "tests"));
  const mocks = fs.readFileSync(path.join(__dirname, "aws-mocks.hcl"), "utf8");
  const collisions = creatorCollisionRuns(json);
  const stays = creatorStaysRun(json);
  const text = `${mocks}\n${uniqueIamArns(json)}\nrun "plan" {\n  command = plan\n}\n\n${collisions}\nrun "apply" {\n  command = apply\n${applyAssertions(json)}\n}\n\n${stays}`;
  fs.writeFileSync(path.join(stackDir, "tests", "mock.tftest.hcl"), text);
  return text.match(/^run /gm)?.length ?? 0;
}

/** Returns how many runs the mock test held. */
function validateAndMockApply(clusterConfig: ClusterConfig): number {
  const outdir = synthApp(clusterConfig);
  const stackName = `${clusterConfig.name}-cluster`;
  const stackDir = copyStack(outdir, stackName);
  const env = terraformEnv(stackDir);
  const init = terraform(["init", "-backend=false", "-input=false"], stackDir, env);
  expect({ step: "init", status: init.status, output: init.status === 0 ? "" : init.output }).toEqual({ step: "init", status: 0, output: "" });
  const validate = terraform(["validate"], stackDir, env);
  expect({ step: "validate", status: validate.status, output: validate.status === 0 ? "" : validate.output }).toEqual({
    step: "validate",
    status: 0,
    output: "",
  });
  const runs = writeMockTest(stackDir, readStack(outdir, stackName));
  const test = terraform(["test"], stackDir, env);
  expect({ step: "test", status: test.status, output: test.status === 0 ? "" : test.output }).toEqual({ step: "test", status: 0, output: "" });
  expect(test.output).toMatch(new RegExp(`Success! ${runs} passed, 0 failed\\.`));
  return runs;
}

describeWithTerraform("the cluster stack under real Terraform", () => {
  it("validates and mock-applies with the default config", () => {
    validateAndMockApply(config());
  });

  it("validates and mock-applies with an existing VPC, the CoreDNS Lambda, every optional add-on, Windows nodes, an extra profile and an admin", () => {
    validateAndMockApply(
      config({
        coreDns: { mode: "lambda" },
        network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: ["subnet-03"] },
        fargate: { profiles: [{ name: "monitoring", namespaces: ["monitoring"] }] },
        cluster: { adminPrincipalArns: ["arn:aws:iam::123456789012:role/platform"], upgradePolicy: "standard" },
        addons: {
          "vpc-cni": { version: "latest" },
          "kube-proxy": { version: "v1.33.0-eksbuild.2" },
          "metrics-server": {},
          "aws-ebs-csi-driver": {},
          "eks-pod-identity-agent": {},
        },
        nodeClasses: [{ name: "default" }, { name: "windows", amiAlias: "windows2022@latest" }],
        nodePools: [{ name: "default" }, { name: "windows", nodeClass: "windows", architectures: ["amd64"] }],
      }),
    );
  });
});

describeWithTerraform("the talk's multiarch cluster with team access under real Terraform", () => {
  it("validates and mock-applies, and a plan by a team's own identity is refused before anything is created", () => {
    const runs = validateAndMockApply(
      config({
        ...rawConfig(path.join(__dirname, "../../clusters/multiarch.yaml")),
        name: "demo",
        access: [
          { principalArn: "arn:aws:iam::123456789012:role/teams/team-a", policy: "edit", namespaces: ["team-a", "team-a-*"] },
          { principalArn: "arn:aws:iam::123456789012:role/teams/team-a", policy: "view" },
          { principalArn: "arn:aws:iam::210987654321:role/auditors", policy: "view" },
        ],
      }),
    );
    // plan, one refused plan per team principal, apply, and a later plan by another identity.
    expect(runs).toBe(5);
  });
});

describeWithTerraform("the creator's managed access entry under real Terraform", () => {
  // A cluster EKS created with its implicit creator entry reports bootstrap_cluster_creator_admin_permissions
  // true (the stack ignores changes to it, so the plan keeps that value); a managed creator entry would then
  // collide with EKS's, and the plan must refuse it with what to set.
  it("is refused at plan when the cluster bootstraps its creator", () => {
    const outdir = synthApp(config());
    const stackDir = copyStack(outdir, "demo-cluster");
    const file = path.join(stackDir, "cdk.tf.json");
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as TerraformJson & { resource: Record<string, Record<string, Record<string, unknown>>> };
    const [clusterId, cluster] = findResource(json, "aws_eks_cluster");
    (cluster.access_config as Record<string, unknown>).bootstrap_cluster_creator_admin_permissions = true;
    json.resource.aws_eks_cluster[clusterId] = cluster;
    fs.writeFileSync(file, JSON.stringify(json));
    const [creatorId] = findResource(json, "aws_eks_access_entry", (e) => String(e.principal_arn).includes("caller-session"));
    fs.mkdirSync(path.join(stackDir, "tests"));
    const mocks = fs.readFileSync(path.join(__dirname, "aws-mocks.hcl"), "utf8");
    fs.writeFileSync(
      path.join(stackDir, "tests", "creator.tftest.hcl"),
      `${mocks}\n${uniqueIamArns(json)}\nrun "plan" {\n  command = plan\n  expect_failures = [aws_eks_access_entry.${creatorId}]\n}\n`,
    );
    const env = terraformEnv(stackDir);
    expect(terraform(["init", "-backend=false", "-input=false"], stackDir, env).status).toBe(0);
    const test = terraform(["test"], stackDir, env);
    expect({ status: test.status, output: test.status === 0 ? "" : test.output }).toEqual({ status: 0, output: "" });
    expect(test.output).toMatch(/Success! 1 passed, 0 failed\./);
  });
});

describeWithTerraform("the Karpenter stack's AWS part under real Terraform", () => {
  // The helm, kubectl and kubernetes providers cannot be installed here (no network, not in the mirror), so
  // this validates what can be: the stack's data sources, its outputs, the ephemeral EKS token and a
  // provider block that consumes it, as Terraform >= 1.10 must accept them. The Kubernetes-side parts are
  // checked on the JSON.
  it("validates with the helm, kubectl and kubernetes parts removed", () => {
    const outdir = synthApp(config());
    const stackDir = copyStack(outdir, "demo-karpenter");
    const file = path.join(stackDir, "cdk.tf.json");
    const json = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const provider of ["helm", "kubectl", "kubernetes"]) {
      delete json.provider[provider];
      delete json.terraform.required_providers[provider];
    }
    delete json.resource;
    // Stands in for the helm and kubectl provider blocks: a provider configured from the ephemeral token.
    json.provider.aws.push({ alias: "token_consumer", region: "us-east-1", token: "${ephemeral.aws_eks_cluster_auth.cluster.token}" });
    fs.writeFileSync(file, JSON.stringify(json, null, 2));
    const env = terraformEnv(stackDir);
    const init = terraform(["init", "-backend=false", "-input=false"], stackDir, env);
    expect({ status: init.status, output: init.status === 0 ? "" : init.output }).toEqual({ status: 0, output: "" });
    const validate = terraform(["validate"], stackDir, env);
    expect({ status: validate.status, output: validate.status === 0 ? "" : validate.output }).toEqual({ status: 0, output: "" });
  });
});
