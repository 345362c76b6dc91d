import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { config, findResource, readStack, resourcesOfType, synthApp, type TerraformJson } from "../helpers/synth-app";

const CLUSTER_TOKEN = "${ephemeral.aws_eks_cluster_auth.cluster.token}";

describe("the Karpenter stack", () => {
  const outdir = synthApp(config());
  const json = readStack(outdir, "demo-karpenter");
  const [crdsId, crds] = findResource(json, "helm_release", (r) => r.chart === "karpenter-crd");
  const [controllerId, controller] = findResource(json, "helm_release", (r) => r.chart === "karpenter");

  it("is deployed after the cluster stack", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
    expect(manifest.stacks["demo-karpenter"].dependencies).toEqual(["demo-cluster"]);
  });

  it("looks the cluster up by name and authenticates with an ephemeral token, never a state-stored one or the aws CLI", () => {
    expect(json.data!.aws_eks_cluster.cluster).toEqual({ name: "demo" });
    expect((json as { ephemeral?: unknown }).ephemeral).toEqual({ aws_eks_cluster_auth: { cluster: { name: "demo" } } });
    expect(json.data!.aws_eks_cluster_auth).toBeUndefined();
    expect(json.terraform!.required_version).toBe(">= 1.10.0");
    const cluster = {
      host: "${data.aws_eks_cluster.cluster.endpoint}",
      cluster_ca_certificate: "${base64decode(data.aws_eks_cluster.cluster.certificate_authority[0].data)}",
      token: CLUSTER_TOKEN,
    };
    expect(json.provider!.helm).toEqual([{ kubernetes: cluster }]);
    expect(json.provider!.kubernetes).toEqual([cluster]);
    expect(json.provider!.kubectl).toEqual([{ ...cluster, load_config_file: false, apply_retry_count: 3 }]);
    expect(JSON.stringify(json)).not.toContain('"exec"');
  });

  it("can authenticate with `aws eks get-token` instead, for runs longer than a token lives", () => {
    const execJson = readStack(synthApp(config({ karpenter: { kubernetesAuth: "exec" } })), "demo-karpenter");
    const exec = {
      api_version: "client.authentication.k8s.io/v1beta1",
      command: "aws",
      args: ["eks", "get-token", "--cluster-name", "demo", "--region", "us-east-1"],
    };
    const cluster = {
      host: "${data.aws_eks_cluster.cluster.endpoint}",
      cluster_ca_certificate: "${base64decode(data.aws_eks_cluster.cluster.certificate_authority[0].data)}",
    };
    expect(execJson.provider!.helm).toEqual([{ kubernetes: { ...cluster, exec } }]);
    expect(execJson.provider!.kubernetes).toEqual([{ ...cluster, exec: [exec] }]);
    expect(execJson.provider!.kubectl).toEqual([{ ...cluster, exec: [exec], load_config_file: false, apply_retry_count: 3 }]);
    expect((execJson as { ephemeral?: unknown }).ephemeral).toBeUndefined();
  });

  it("pins every provider exactly", () => {
    expect(json.terraform!.required_providers).toEqual({
      aws: { source: "aws", version: "5.100.0" },
      helm: { source: "helm", version: "3.1.1" },
      kubectl: { source: "alekc/kubectl", version: "2.4.1" },
      kubernetes: { source: "kubernetes", version: "2.38.0" },
    });
  });

  it("creates Karpenter's namespace with the restricted Pod Security standard, before the releases", () => {
    const [namespaceId, namespace] = findResource(json, "kubernetes_namespace_v1");
    const labels = Object.fromEntries(
      ["enforce", "warn", "audit"].flatMap((mode) => [
        [`pod-security.kubernetes.io/${mode}`, "restricted"],
        [`pod-security.kubernetes.io/${mode}-version`, "v1.35"],
      ]),
    );
    expect(namespace.metadata).toEqual({ name: "karpenter", labels });
    expect(crds.depends_on).toEqual([`kubernetes_namespace_v1.${namespaceId}`]);
    expect(crds.create_namespace).toBeUndefined();
  });

  it("installs the CRD chart, then the controller chart without its CRDs", () => {
    expect(crds).toMatchObject({
      name: "karpenter-crd",
      repository: "oci://public.ecr.aws/karpenter",
      version: "1.14.1",
      namespace: "karpenter",
    });
    expect(controller).toMatchObject({
      name: "karpenter",
      repository: "oci://public.ecr.aws/karpenter",
      version: "1.14.1",
      namespace: "karpenter",
      skip_crds: true,
      wait: true,
    });
    expect(controller.depends_on).toEqual([`helm_release.${crdsId}`]);
  });

  it("pulls the charts anonymously: no registry credential in config or state", () => {
    expect(json.data!.aws_ecrpublic_authorization_token).toBeUndefined();
    for (const release of [crds, controller]) {
      expect(release.repository_username).toBeUndefined();
      expect(release.repository_password).toBeUndefined();
    }
    expect(json.provider!.aws).toEqual([{ region: "us-east-1", default_tags: [{ tags: {} }] }]);
  });

  it("renders the controller's values as readable YAML with the cluster's endpoint, role and queue", () => {
    const values = parse((controller.values as string[])[0]);
    expect(values.settings).toEqual({ clusterName: "demo", clusterEndpoint: "${data.aws_eks_cluster.cluster.endpoint}", interruptionQueue: "demo-karpenter" });
    expect(values.serviceAccount).toEqual({ annotations: { "eks.amazonaws.com/role-arn": "${data.aws_iam_role.controller-role.arn}" } });
    expect(json.data!.aws_iam_role["controller-role"]).toEqual({ name: "demo-karpenter-controller" });
  });

  it("applies the FlowSchemas outside kube-system, after the release", () => {
    const flowSchemas = resourcesOfType(json, "kubectl_manifest").filter(([, m]) => String(m.yaml_body).includes("kind: FlowSchema"));
    expect(flowSchemas.map(([, m]) => parse(String(m.yaml_body)).metadata.name).sort()).toEqual(["karpenter-leader-election", "karpenter-workload"]);
    for (const [, m] of flowSchemas) {
      expect(parse(String(m.yaml_body)).spec.rules[0].subjects).toEqual([
        { kind: "ServiceAccount", serviceAccount: { name: "karpenter", namespace: "karpenter" } },
      ]);
      expect(m.depends_on).toEqual([`helm_release.${controllerId}`]);
    }
  });

  it("needs no FlowSchemas and no namespace of its own in kube-system", () => {
    const inKubeSystem = readStack(synthApp(config({ karpenter: { namespace: "kube-system" } })), "demo-karpenter");
    expect(resourcesOfType(inKubeSystem, "kubectl_manifest").filter(([, m]) => String(m.yaml_body).includes("FlowSchema"))).toEqual([]);
    expect(resourcesOfType(inKubeSystem, "kubernetes_namespace_v1")).toEqual([]);
  });
});

/** The kubectl_manifest of a Karpenter object by kind and name. */
function manifestOf(json: TerraformJson, kind: string, name: string): [string, Record<string, unknown>] {
  return findResource(json, "kubectl_manifest", (m) => {
    const body = parse(String(m.yaml_body));
    return body.kind === kind && body.metadata.name === name;
  });
}

describe("provisioner manifests", () => {
  const json = readStack(
    synthApp(
      config({
        nodeClasses: [{ name: "default" }, { name: "gpu" }],
        nodePools: [
          { name: "general", nodeClass: "default" },
          { name: "gpu", nodeClass: "gpu", taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }] },
        ],
      }),
    ),
    "demo-karpenter",
  );
  const [controllerId] = findResource(json, "helm_release", (r) => r.chart === "karpenter");

  it("applies each EC2NodeClass after the controller and each NodePool after its class", () => {
    for (const className of ["default", "gpu"]) {
      const [, nodeClass] = manifestOf(json, "EC2NodeClass", className);
      expect(nodeClass.depends_on).toEqual([`helm_release.${controllerId}`]);
    }
    const [defaultClassId] = manifestOf(json, "EC2NodeClass", "default");
    const [gpuClassId] = manifestOf(json, "EC2NodeClass", "gpu");
    expect(manifestOf(json, "NodePool", "general")[1].depends_on).toEqual([`helm_release.${controllerId}`, `kubectl_manifest.${defaultClassId}`]);
    expect(manifestOf(json, "NodePool", "gpu")[1].depends_on).toEqual([`helm_release.${controllerId}`, `kubectl_manifest.${gpuClassId}`]);
  });

  it("server-side applies and waits on delete long enough for Karpenter to drain", () => {
    for (const [, m] of resourcesOfType(json, "kubectl_manifest").filter(([, m]) => /kind: (NodePool|EC2NodeClass)/.test(String(m.yaml_body)))) {
      expect(m).toMatchObject({ server_side_apply: true, force_conflicts: true, wait: true, delete_cascade: "Foreground", timeouts: { delete: "30m" } });
      expect(m.apply_only).toBeUndefined();
    }
  });

  it("points each NodePool at the EC2NodeClass it was rendered with", () => {
    const pool = parse(String(manifestOf(json, "NodePool", "gpu")[1].yaml_body));
    expect(pool.spec.template.spec.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "gpu" });
  });
});
