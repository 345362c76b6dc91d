import * as path from "node:path";
import { parse } from "yaml";
import { clusterModelFromDocument, loadClusterModel } from "../../src/planner/cluster-model";
import { InputError } from "../../src/shared/input-error";
import { config, findResource, readStack, resourcesOfType, synthApp, type TerraformJson } from "../helpers/synth-app";

// The planner's model held against what a real synth writes: the NodePools, the Fargate profiles, the
// CoreDNS add-on, the Karpenter chart values and the NAT gateways. A change on either side that makes a plan
// disagree with a deployment fails here.

const MULTI = {
  name: "demo",
  fargate: { profiles: [{ name: "monitoring", namespaces: ["monitoring", "logging"], labels: { team: "obs" } }] },
  coreDns: { mode: "addon" },
  network: { natGateways: "perAz" },
  karpenter: { replicas: 3 },
  nodeClasses: [
    { name: "default" },
    { name: "tight", amiAlias: "bottlerocket@latest", kubelet: { maxPods: 58, systemReserved: { cpu: "100m" } } },
    { name: "win", amiAlias: "windows2022@latest" },
  ],
  nodePools: [
    { name: "default" },
    {
      name: "batch",
      nodeClass: "tight",
      architectures: ["arm64"],
      capacityTypes: ["spot"],
      weight: 50,
      labels: { "example.com/pool": "batch" },
      taints: [{ key: "example.com/batch", value: "true", effect: "NoSchedule" }],
      limits: { cpu: 64, memory: "256Gi", "nvidia.com/gpu": 2 },
      requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["c7g", "m7g"], minValues: 2 }],
    },
    { name: "windows", nodeClass: "win", architectures: ["amd64"] },
  ],
} as const;

function manifests(json: TerraformJson, kind: string): Record<string, unknown>[] {
  return resourcesOfType(json, "kubectl_manifest")
    .map(([, m]) => parse(String(m.yaml_body)))
    .filter((m) => m.kind === kind);
}

describe("the planner's cluster model", () => {
  const model = clusterModelFromDocument(MULTI, "multi.yaml");
  const outdir = synthApp(config(MULTI as never));
  const clusterJson = readStack(outdir, "demo-cluster");
  const karpenterJson = readStack(outdir, "demo-karpenter");

  it("has each NodePool's requirements, labels, taints, limits and weight exactly as synthesized", () => {
    const synthesized = manifests(karpenterJson, "NodePool") as {
      metadata: { name: string };
      spec: {
        weight?: number;
        limits: Record<string, string>;
        template: { metadata?: { labels?: object }; spec: { requirements: object[]; taints?: object[] } };
      };
    }[];
    // Terraform JSON lists resources by address; the model keeps the config's order.
    expect(model.pools.map((p) => p.name).sort()).toEqual(synthesized.map((s) => s.metadata.name).sort());
    for (const s of synthesized) {
      const pool = model.pools.find((p) => p.name === s.metadata.name)!;
      const defined = <T extends object>(o: T) => JSON.parse(JSON.stringify(o)) as T;
      expect(defined(pool.requirements)).toEqual(s.spec.template.spec.requirements);
      expect(pool.labels).toEqual(s.spec.template.metadata?.labels ?? {});
      expect(defined(pool.taints)).toEqual(s.spec.template.spec.taints ?? []);
      expect(pool.weight).toBe(s.spec.weight ?? 0);
    }
    // Limits in planner units: 64 vCPU in millicores, 256Gi in bytes, GPUs as a count.
    expect(model.pools[1].limits).toEqual({ cpu: 64000, memory: 256 * 2 ** 30, "nvidia.com/gpu": 2 });
  });

  it("has each node class's AMI family, OS and kubelet settings", () => {
    expect(model.pools.map((p) => [p.nodeClass.name, p.nodeClass.amiFamily, p.nodeClass.os])).toEqual([
      ["default", "AL2023", "linux"],
      ["tight", "Bottlerocket", "linux"],
      ["win", "Windows2022", "windows"],
    ]);
    expect(model.pools[1].nodeClass.kubelet).toMatchObject({ maxPods: 58, systemReserved: { cpu: "100m" } });
  });

  it("binds the same namespaces and labels to Fargate as the synthesized profiles", () => {
    const synthesized = resourcesOfType(clusterJson, "aws_eks_fargate_profile").map(([, p]) => ({
      name: p.fargate_profile_name,
      selectors: (p.selector as { namespace: string; labels?: Record<string, string> }[]).map((s) => ({ namespace: s.namespace, labels: s.labels ?? {} })),
    }));
    const byName = (a: { name: unknown }, b: { name: unknown }) => String(a.name).localeCompare(String(b.name));
    expect([...model.fargateProfiles].sort(byName)).toEqual(synthesized.sort(byName));
    expect(model.fargateProfiles.map((p) => p.name)).toEqual(["kube-system", "karpenter", "monitoring"]);
  });

  it("sizes CoreDNS from the add-on's synthesized requests and Karpenter from the chart values", () => {
    const [, addon] = findResource(clusterJson, "aws_eks_addon", (a) => a.addon_name === "coredns");
    const requests = JSON.parse(String(addon.configuration_values)).resources.requests;
    const [, controller] = findResource(karpenterJson, "helm_release", (r) => r.chart === "karpenter");
    const values = parse((controller.values as string[])[0]);
    const [coredns, karpenter] = model.fargateSystemPods;
    // 0.25 CPU = 250m; 256M = 256,000,000 bytes.
    expect(requests).toEqual({ cpu: "0.25", memory: "256M" });
    expect(coredns).toMatchObject({ name: "coredns", namespace: "kube-system", replicas: 2, requests: { cpuMillis: 250, memoryBytes: 256_000_000 } });
    expect(values.controller.resources.requests).toEqual({ cpu: "1", memory: "1Gi" });
    expect(karpenter).toMatchObject({
      name: "karpenter",
      namespace: "karpenter",
      replicas: values.replicas,
      requests: { cpuMillis: 1000, memoryBytes: 2 ** 30 },
    });
    expect(values.replicas).toBe(3);
  });

  it("counts the NAT gateways the network creates: one per zone, one, or none in an existing VPC", () => {
    expect(model.natGateways).toBe(resourcesOfType(clusterJson, "aws_nat_gateway").length);
    expect(model.natGateways).toBe(3);
    const single = clusterModelFromDocument({ name: "demo" }, "single.yaml");
    expect(single.natGateways).toBe(1);
    expect(single.zones).toEqual(["us-east-1a", "us-east-1b", "us-east-1c"]);
    const existing = clusterModelFromDocument({ name: "demo", network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"] } }, "existing.yaml");
    expect(existing.natGateways).toBe(0);
    expect(existing.zones).toBeUndefined();
  });

  it("uses EKS's own CoreDNS requests in the Lambda mode, and standard support", () => {
    const lambda = clusterModelFromDocument({ name: "demo", coreDns: { mode: "lambda" } }, "lambda.yaml");
    expect(lambda.fargateSystemPods[0]).toMatchObject({ replicas: 2, requests: { cpuMillis: 100, memoryBytes: 70 * 2 ** 20 } });
    expect(lambda.controlPlaneSupport).toBe("standard");
    expect(lambda.nodeDaemonSets.map((d) => [d.name, d.requests.cpuMillis, d.requests.memoryBytes])).toEqual([
      ["aws-node", 50, 0],
      ["kube-proxy", 100, 0],
    ]);
  });

  it("reports config mistakes with the config's own messages", () => {
    expect(() => clusterModelFromDocument({ name: "demo", nodePools: [{ name: "x", weight: 500 }] }, "bad.yaml")).toThrow(
      new InputError("bad.yaml", ["nodePools[0].weight: got 500; must be between 1 and 100"]),
    );
    expect(() => loadClusterModel(path.join(__dirname, "missing.yaml"), {})).toThrow(InputError);
    expect(loadClusterModel(undefined, {}).source).toBe("embedded default cluster");
    // A fleet folder holds many clusters; a plan is for one.
    const fleet = path.join(__dirname, "..", "..", "clusters");
    expect(() => loadClusterModel(undefined, { CLUSTER_CONFIG: fleet })).toThrow(
      new InputError(fleet, ["is a fleet folder (CLUSTER_CONFIG); a plan is for one cluster: name its file with --config"]),
    );
    expect(loadClusterModel(path.join(fleet, "prod.yaml"), { CLUSTER_CONFIG: fleet }).model.name).toBe("prod");
  });
});
