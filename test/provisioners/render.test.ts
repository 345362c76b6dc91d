import * as fs from "node:fs";
import * as path from "node:path";
import { parseClusterConfig } from "../../src/config/load-config";
import { toManifestYaml } from "../../src/kubernetes/manifest-yaml";
import { renderEc2NodeClass } from "../../src/provisioners/render-ec2-node-class";
import { renderNodePool } from "../../src/provisioners/render-node-pool";
import { renderProvisioners } from "../../src/provisioners/render-provisioners";
import { CONTEXT } from "./helpers";

const golden = (name: string) => fs.readFileSync(path.join(__dirname, "golden", name), "utf8");
const configOf = (fields: Record<string, unknown>) => parseClusterConfig({ name: "demo", ...fields }, "t.yaml");

describe("golden manifests (written by hand from the spec)", () => {
  const config = configOf({});

  it("renders the default EC2NodeClass", () => {
    expect(toManifestYaml(renderEc2NodeClass(config.nodeClasses[0], CONTEXT))).toBe(golden("default-ec2nodeclass.yaml"));
  });

  it("renders the default NodePool", () => {
    const nodeClass = renderEc2NodeClass(config.nodeClasses[0], CONTEXT);
    expect(toManifestYaml(renderNodePool(config.nodePools[0], nodeClass))).toBe(golden("default-nodepool.yaml"));
  });
});

describe("renderEc2NodeClass", () => {
  // amd64 pool: some classes here are Windows, which runs on amd64 only.
  const render = (fields: Record<string, unknown>, context = CONTEXT) =>
    renderEc2NodeClass(
      configOf({ nodeClasses: [{ name: "default", ...fields }], nodePools: [{ name: "default", architectures: ["amd64"] }] }).nodeClasses[0],
      context,
    );

  it("defaults to the al2023@latest alias and a 50Gi encrypted gp3 root volume", () => {
    const spec = render({}).spec;
    expect(spec.amiSelectorTerms).toEqual([{ alias: "al2023@latest" }]);
    expect(spec.blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
  });

  it("takes blockDeviceMappings as given, without the default root volume", () => {
    const spec = render({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "80Gi" } }] }).spec;
    expect(spec.blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "80Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
  });

  it("uses instanceProfile instead of the role when given", () => {
    const spec = render({ instanceProfile: "my-profile" }).spec;
    expect(spec.instanceProfile).toBe("my-profile");
    expect(spec).not.toHaveProperty("role");
  });

  it("merges the cluster tags under the class's own, and omits an empty map", () => {
    expect(render({ tags: { project: "override", cost: "ml" } }).spec.tags).toEqual({ project: "override", cost: "ml" });
    expect(render({}, { ...CONTEXT, tags: {} }).spec).not.toHaveProperty("tags");
  });

  it("puts Bottlerocket's kubelet data on /dev/xvdb", () => {
    expect(render({ amiAlias: "bottlerocket@latest", rootVolumeSize: "80Gi" }).spec.blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", ebs: { volumeSize: "4Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
      { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "80Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
  });

  it("uses /dev/sda1 for Windows", () => {
    expect(render({ amiAlias: "windows2022@latest" }).spec.blockDeviceMappings?.map((m) => m.deviceName)).toEqual(["/dev/sda1"]);
  });

  it("renders AMI selector terms, amiFamily, kubelet and user data as configured", () => {
    const spec = render({
      amiFamily: "AL2023",
      amiSelectorTerms: [{ name: "my-ami-*", owner: "self" }, { ssmParameter: "/my/ami" }],
      kubelet: { maxPods: 110, systemReserved: { cpu: "100m" }, imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80 },
      userData: "#!/bin/bash\necho hello\n",
      metadataOptions: { httpPutResponseHopLimit: 2 },
    }).spec;
    expect(spec.amiFamily).toBe("AL2023");
    expect(spec.amiSelectorTerms).toEqual([{ name: "my-ami-*", owner: "self" }, { ssmParameter: "/my/ami" }]);
    expect(spec.kubelet).toEqual({ maxPods: 110, systemReserved: { cpu: "100m" }, imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80 });
    expect(spec.metadataOptions).toEqual({ httpEndpoint: "enabled", httpProtocolIPv6: "disabled", httpPutResponseHopLimit: 2, httpTokens: "required" });
    expect(spec.userData).toBe("#!/bin/bash\necho hello\n");
  });

  it("renders capacity reservation selector terms as configured, and none by default", () => {
    const terms = [{ id: "cr-0123456789abcdef0" }, { tags: { team: "ml" }, ownerID: "123456789012", instanceMatchCriteria: "targeted" }];
    expect(render({ capacityReservationSelectorTerms: terms }).spec.capacityReservationSelectorTerms).toEqual(terms);
    expect(render({}).spec).not.toHaveProperty("capacityReservationSelectorTerms");
  });

  it("gives Windows node classes the Windows node role, which has the EC2_WINDOWS access entry", () => {
    expect(render({ amiAlias: "windows2022@latest" }).spec.role).toBe("demo-karpenter-windows-node");
    expect(render({}).spec.role).toBe("demo-karpenter-node");
  });
});

describe("renderNodePool", () => {
  it("takes nodeClassRef.name from the rendered EC2NodeClass", () => {
    const config = configOf({ nodeClasses: [{ name: "gpu" }], nodePools: [{ name: "a", nodeClass: "gpu" }] });
    const nodeClass = renderEc2NodeClass(config.nodeClasses[0], CONTEXT);
    expect(renderNodePool(config.nodePools[0], nodeClass).spec.template.spec.nodeClassRef).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "gpu",
    });
  });

  it("allows the default categories c, m and r only when the pool names no instance families", () => {
    const requirementsOf = (fields: Record<string, unknown>) => {
      const config = configOf({ nodePools: [{ name: "a", ...fields }] });
      return renderNodePool(config.nodePools[0], renderEc2NodeClass(config.nodeClasses[0], CONTEXT)).spec.template.spec.requirements;
    };
    const categories = { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] };
    expect(requirementsOf({})).toContainEqual(categories);
    expect(requirementsOf({ instanceFamilies: ["g5"] }).map((r) => r.key)).not.toContain("karpenter.k8s.aws/instance-category");
  });

  it("renders every configured field", () => {
    const config = configOf({
      region: "eu-west-1",
      nodeClasses: [{ name: "default", capacityReservationSelectorTerms: [{ tags: { team: "ml" } }] }],
      nodePools: [
        {
          name: "gpu",
          architectures: ["amd64"],
          capacityTypes: ["on-demand", "reserved"],
          instanceCategories: ["g", "p"],
          instanceFamilies: ["g5", "p4d"],
          // p4d is of generation 4 and comes in 24xlarge only, with 8 GPUs: without all three, minValues 2
          // below could never be met.
          instanceSizes: ["xlarge", "2xlarge", "24xlarge"],
          minGeneration: 4,
          zones: ["eu-west-1a"],
          labels: { "example.com/gpu": "true" },
          taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }],
          startupTaints: [{ key: "example.com/not-ready", effect: "NoExecute" }],
          limits: { cpu: "64", "nvidia.com/gpu": "8" },
          weight: 20,
          consolidationPolicy: "Balanced",
          consolidateAfter: "Never",
          budgets: [{ nodes: "0", schedule: "@daily", duration: "1h30m", reasons: ["Drifted"] }],
          expireAfter: "Never",
          terminationGracePeriod: "48h",
          requirements: [
            { key: "karpenter.k8s.aws/instance-gpu-count", operator: "Lte", values: ["8"] },
            { key: "example.com/x", operator: "Exists" },
            { key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["g5", "p4d"], minValues: 2 },
          ],
        },
      ],
    });
    const pool = renderNodePool(config.nodePools[0], renderEc2NodeClass(config.nodeClasses[0], CONTEXT));
    expect(pool.spec).toEqual({
      template: {
        metadata: { labels: { "example.com/gpu": "true" } },
        spec: {
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
          requirements: [
            { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
            { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
            { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand", "reserved"] },
            { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["g", "p"] },
            { key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["g5", "p4d"] },
            { key: "karpenter.k8s.aws/instance-size", operator: "In", values: ["xlarge", "2xlarge", "24xlarge"] },
            { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["3"] },
            { key: "topology.kubernetes.io/zone", operator: "In", values: ["eu-west-1a"] },
            { key: "karpenter.k8s.aws/instance-gpu-count", operator: "Lte", values: ["8"] },
            { key: "example.com/x", operator: "Exists" },
            { key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["g5", "p4d"], minValues: 2 },
          ],
          taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }],
          startupTaints: [{ key: "example.com/not-ready", effect: "NoExecute" }],
          expireAfter: "Never",
          terminationGracePeriod: "48h",
        },
      },
      disruption: {
        consolidationPolicy: "Balanced",
        consolidateAfter: "Never",
        budgets: [{ nodes: "0", schedule: "@daily", duration: "1h30m", reasons: ["Drifted"] }],
      },
      limits: { cpu: "64", "nvidia.com/gpu": "8" },
      weight: 20,
    });
  });

  it("schedules Windows node classes with kubernetes.io/os windows", () => {
    const config = configOf({ nodeClasses: [{ name: "default", amiAlias: "windows2022@latest" }], nodePools: [{ name: "win", architectures: ["amd64"] }] });
    const pool = renderNodePool(config.nodePools[0], renderEc2NodeClass(config.nodeClasses[0], CONTEXT));
    expect(pool.spec.template.spec.requirements[1]).toEqual({ key: "kubernetes.io/os", operator: "In", values: ["windows"] });
  });
});

describe("toManifestYaml", () => {
  it("never writes anchors or aliases for shared objects, nor folds long strings", () => {
    const shared = { tags: { "karpenter.sh/discovery": "x".repeat(200) } };
    const text = toManifestYaml({ a: [shared], b: [shared], userData: `#!/bin/bash\n${"y".repeat(300)}\n` });
    expect(text).not.toMatch(/[&*]a1/);
    expect(text).toContain(`karpenter.sh/discovery: ${"x".repeat(200)}\n`);
    expect(text).toContain(`userData: |\n  #!/bin/bash\n  ${"y".repeat(300)}\n`);
  });

  it("quotes strings YAML 1.1 readers (kubectl) would take for numbers, booleans or dates", () => {
    expect(toManifestYaml({ cpu: "1000", value: "true", team: "yes", gpu: "on", date: "2025-01-01", nodes: "10%", schedule: "@daily" })).toBe(
      `cpu: "1000"\nvalue: "true"\nteam: "yes"\ngpu: "on"\ndate: "2025-01-01"\nnodes: 10%\nschedule: "@daily"\n`,
    );
  });
});

describe("renderProvisioners", () => {
  it("renders each class and pool once, each pool with its class's name", () => {
    const config = configOf({ nodeClasses: [{ name: "default" }, { name: "gpu" }], nodePools: [{ name: "general" }, { name: "gpu", nodeClass: "gpu" }] });
    const rendered = renderProvisioners(config, CONTEXT);
    expect(rendered.nodeClasses.map((c) => c.object.metadata.name)).toEqual(["default", "gpu"]);
    expect(rendered.nodePools.map((p) => [p.object.metadata.name, p.nodeClassName, p.object.spec.template.spec.nodeClassRef.name])).toEqual([
      ["general", "default", "default"],
      ["gpu", "gpu", "gpu"],
    ]);
  });

  it("is deterministic: the same config gives the same bytes", () => {
    const once = renderProvisioners(configOf({}), CONTEXT);
    const again = renderProvisioners(configOf({}), CONTEXT);
    expect(again.nodeClasses[0].yaml + again.nodePools[0].yaml).toBe(once.nodeClasses[0].yaml + once.nodePools[0].yaml);
  });

  it("refuses a pool whose class is missing (a bug: the config check prevents it)", () => {
    const config = configOf({});
    expect(() => renderProvisioners({ nodeClasses: [], nodePools: config.nodePools }, CONTEXT)).toThrow(
      "NodePool default names node class default, which does not exist; the config check should have caught this",
    );
  });
});
