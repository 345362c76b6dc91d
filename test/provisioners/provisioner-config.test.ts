import { parseClusterConfig } from "../../src/config/load-config";
import { problemsOf } from "./helpers";

// Every rule is asserted through the real parser, with the exact line the user sees:
// `<path>: got <value>; <message>`. CEL messages are Karpenter's own text (crd-rules.ts).

const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "a", ...fields }] });
// amd64 pool: some classes here are Windows, which runs on amd64 only.
const nodeClass = (fields: Record<string, unknown>) => ({
  nodeClasses: [{ name: "default", ...fields }],
  nodePools: [{ name: "default", architectures: ["amd64"] }],
});
const requirement = (r: Record<string, unknown>) => pool({ requirements: [r] });

describe("cross-object: Windows", () => {
  it("rejects arm64 in a pool that uses a Windows node class", () => {
    expect(problemsOf({ nodeClasses: [{ name: "win", amiAlias: "windows2022@latest" }], nodePools: [{ name: "win", nodeClass: "win" }] })).toEqual([
      'nodePools[0].architectures: got ["amd64","arm64"]; must be [amd64] with the Windows node class win: EKS runs Windows nodes on amd64 only',
    ]);
    expect(
      problemsOf({ nodeClasses: [{ name: "win", amiAlias: "windows2022@latest" }], nodePools: [{ name: "win", nodeClass: "win", architectures: ["amd64"] }] }),
    ).toEqual([]);
  });
});

describe("defaults", () => {
  it("fills the default node class and pool when both are omitted", () => {
    const config = parseClusterConfig({ name: "demo" }, "t.yaml");
    expect(config.nodeClasses).toEqual([
      {
        name: "default",
        amiAlias: "al2023@latest",
        rootVolumeSize: "50Gi",
        metadataOptions: { httpEndpoint: "enabled", httpProtocolIPv6: "disabled", httpPutResponseHopLimit: 1, httpTokens: "required" },
        tags: {},
      },
    ]);
    expect(config.nodePools).toEqual([
      {
        name: "default",
        nodeClass: "default",
        architectures: ["amd64", "arm64"],
        capacityTypes: ["spot", "on-demand"],
        instanceCategories: ["c", "m", "r"],
        minGeneration: 3,
        labels: {},
        taints: [],
        startupTaints: [],
        limits: { cpu: "1000", memory: "1000Gi" },
        consolidationPolicy: "WhenEmptyOrUnderutilized",
        consolidateAfter: "1m",
        budgets: [{ nodes: "10%" }],
        expireAfter: "720h",
        requirements: [],
      },
    ]);
  });

  it("gives a pool with instanceFamilies no default categories", () => {
    const config = parseClusterConfig({ name: "demo", ...pool({ instanceFamilies: ["g5"] }) }, "t.yaml");
    expect(config.nodePools[0].instanceCategories).toBeUndefined();
  });

  it("takes YAML integers for quantities and budget node counts", () => {
    const config = parseClusterConfig({ name: "demo", ...pool({ limits: { cpu: 64 }, budgets: [{ nodes: 5 }] }) }, "t.yaml");
    expect(config.nodePools[0].limits).toEqual({ cpu: "64" });
    expect(config.nodePools[0].budgets).toEqual([{ nodes: "5" }]);
  });

  it("drops the default root volume size when blockDeviceMappings replace it", () => {
    const config = parseClusterConfig(
      { name: "demo", ...nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "80Gi" } }] }) },
      "t.yaml",
    );
    expect(config.nodeClasses[0].rootVolumeSize).toBeUndefined();
    expect(config.nodeClasses[0].blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "80Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
  });

  it("accepts the well-known labels the CRD allows", () => {
    expect(
      problemsOf(
        pool({
          labels: { "karpenter.sh/capacity-type": "spot", "karpenter.k8s.aws/instance-gpu-count": "1", "example.com/team": "ml" },
          requirements: [
            { key: "karpenter.k8s.aws/instance-capability-flex", operator: "In", values: ["false"] },
            { key: "karpenter.k8s.aws/instance-cpu", operator: "Lte", values: ["32"] },
            { key: "example.com/zone-group", operator: "Exists" },
          ],
        }),
      ),
    ).toEqual([]);
  });
});

describe("NodePool CEL rules", () => {
  it.each([
    [
      "In without values",
      requirement({ key: "example.com/team", operator: "In", values: [] }),
      "nodePools[0].requirements[0].values: got []; requirements with operator 'In' must have a value defined",
    ],
    [
      "In with values omitted",
      requirement({ key: "example.com/team", operator: "In" }),
      "nodePools[0].requirements[0].values: missing; requirements with operator 'In' must have a value defined",
    ],
    [
      "Gt with two values",
      requirement({ key: "example.com/n", operator: "Gt", values: ["1", "2"] }),
      `nodePools[0].requirements[0].values: got ["1","2"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ],
    [
      "Lt with no value",
      requirement({ key: "example.com/n", operator: "Lt" }),
      "nodePools[0].requirements[0].values: missing; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
    ],
    [
      "Gte with a non-integer",
      requirement({ key: "example.com/n", operator: "Gte", values: ["x"] }),
      `nodePools[0].requirements[0].values: got ["x"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ],
    [
      "Lte with a decimal",
      requirement({ key: "example.com/n", operator: "Lte", values: ["1.5"] }),
      `nodePools[0].requirements[0].values: got ["1.5"]; requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value`,
    ],
    [
      "minValues above the number of values",
      requirement({ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["m5", "c5"], minValues: 3 }),
      "nodePools[0].requirements[0].minValues: got 3; requirements with 'minValues' must have at least that many values specified in the 'values' field",
    ],
    [
      "label domain karpenter.sh",
      pool({ labels: { "karpenter.sh/team": "a" } }),
      'nodePools[0].labels.karpenter.sh/team: got "karpenter.sh/team"; label domain "karpenter.sh" is restricted',
    ],
    [
      "label karpenter.sh/nodepool",
      pool({ labels: { "karpenter.sh/nodepool": "a" } }),
      'nodePools[0].labels.karpenter.sh/nodepool: got "karpenter.sh/nodepool"; label "karpenter.sh/nodepool" is restricted',
    ],
    [
      "label kubernetes.io/hostname",
      pool({ labels: { "kubernetes.io/hostname": "a" } }),
      'nodePools[0].labels.kubernetes.io/hostname: got "kubernetes.io/hostname"; label "kubernetes.io/hostname" is restricted',
    ],
    [
      "label domain karpenter.k8s.aws",
      pool({ labels: { "karpenter.k8s.aws/custom": "a" } }),
      'nodePools[0].labels.karpenter.k8s.aws/custom: got "karpenter.k8s.aws/custom"; label domain "karpenter.k8s.aws" is restricted',
    ],
    [
      "requirement key in domain karpenter.sh",
      requirement({ key: "sub.karpenter.sh/x", operator: "Exists" }),
      'nodePools[0].requirements[0].key: got "sub.karpenter.sh/x"; label domain "karpenter.sh" is restricted',
    ],
    [
      "requirement key karpenter.sh/nodepool",
      requirement({ key: "karpenter.sh/nodepool", operator: "Exists" }),
      'nodePools[0].requirements[0].key: got "karpenter.sh/nodepool"; label "karpenter.sh/nodepool" is restricted',
    ],
    [
      "requirement key kubernetes.io/hostname",
      requirement({ key: "kubernetes.io/hostname", operator: "In", values: ["a"] }),
      'nodePools[0].requirements[0].key: got "kubernetes.io/hostname"; label "kubernetes.io/hostname" is restricted',
    ],
    [
      "requirement key in domain karpenter.k8s.aws",
      requirement({ key: "karpenter.k8s.aws/instance-price", operator: "Exists" }),
      'nodePools[0].requirements[0].key: got "karpenter.k8s.aws/instance-price"; label domain "karpenter.k8s.aws" is restricted',
    ],
    [
      "budget schedule without duration",
      pool({ budgets: [{ nodes: "0", schedule: "0 9 * * mon-fri" }] }),
      `nodePools[0].budgets[0]: got {"nodes":"0","schedule":"0 9 * * mon-fri"}; 'schedule' must be set with 'duration'`,
    ],
    [
      "budget duration without schedule",
      pool({ budgets: [{ nodes: "0", duration: "8h" }] }),
      `nodePools[0].budgets[0]: got {"nodes":"0","duration":"8h"}; 'schedule' must be set with 'duration'`,
    ],
  ])("%s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });
});

describe("NodePool field rules (OpenAPI schema)", () => {
  it.each([
    [
      "name not a DNS subdomain",
      { nodePools: [{ name: "GPU_pool" }] },
      `nodePools[0].name: got "GPU_pool"; must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (a Kubernetes NodePool name)`,
    ],
    [
      "name too long",
      { nodePools: [{ name: "a".repeat(64) }] },
      `nodePools[0].name: got "${"a".repeat(56)}...; must be at most 63 characters: the NodePool name is the value of the karpenter.sh/nodepool node label`,
    ],
    [
      "consolidateAfter",
      pool({ consolidateAfter: "1d" }),
      `nodePools[0].consolidateAfter: got "1d"; must be a duration such as "30s", "1m" or "1h30m", or "Never"`,
    ],
    [
      "consolidationPolicy",
      pool({ consolidationPolicy: "WhenUnderutilized" }),
      `nodePools[0].consolidationPolicy: got "WhenUnderutilized"; allowed: WhenEmpty, WhenEmptyOrUnderutilized, Balanced`,
    ],
    ["expireAfter", pool({ expireAfter: "30d" }), `nodePools[0].expireAfter: got "30d"; must be a duration such as "720h", or "Never"`],
    [
      "terminationGracePeriod has no Never",
      pool({ terminationGracePeriod: "Never" }),
      `nodePools[0].terminationGracePeriod: got "Never"; must be a duration such as "48h" or "30m"`,
    ],
    [
      "budget nodes",
      pool({ budgets: [{ nodes: "150%" }] }),
      `nodePools[0].budgets[0].nodes: got "150%"; must be a node count such as "5" or a percentage such as "10%"`,
    ],
    [
      "budget duration",
      pool({ budgets: [{ nodes: "0", schedule: "@daily", duration: "30s" }] }),
      `nodePools[0].budgets[0].duration: got "30s"; must be a duration in hours and minutes such as "8h" or "1h30m"`,
    ],
    [
      "budget reasons",
      pool({ budgets: [{ nodes: "1", reasons: ["Expired"] }] }),
      `nodePools[0].budgets[0].reasons[0]: got "Expired"; allowed: Underutilized, Empty, Drifted`,
    ],
    ["weight 0", pool({ weight: 0 }), "nodePools[0].weight: got 0; must be between 1 and 100"],
    ["weight 101", pool({ weight: 101 }), "nodePools[0].weight: got 101; must be between 1 and 100"],
    [
      "minValues 51",
      requirement({ key: "example.com/a", operator: "Exists", minValues: 51 }),
      "nodePools[0].requirements[0].minValues: got 51; must be between 1 and 50",
    ],
    [
      "operator",
      requirement({ key: "example.com/a", operator: "Matches" }),
      `nodePools[0].requirements[0].operator: got "Matches"; allowed: In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte`,
    ],
    [
      "requirement key syntax",
      requirement({ key: "-bad", operator: "Exists" }),
      `nodePools[0].requirements[0].key: got "-bad"; must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'`,
    ],
    [
      "requirement value syntax",
      requirement({ key: "example.com/a", operator: "In", values: ["a b"] }),
      `nodePools[0].requirements[0].values[0]: got "a b"; must be a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit`,
    ],
    [
      "more than 100 requirements",
      pool({ requirements: Array.from({ length: 101 }, () => ({ key: "example.com/a", operator: "Exists" })) }),
      `nodePools[0].requirements: got [{"key":"example.com/a","operator":"Exists"},{"key":"exam...; must list at most 100 requirements`,
    ],
    [
      "requirements over 100 with the generated ones",
      pool({ requirements: Array.from({ length: 96 }, () => ({ key: "example.com/a", operator: "Exists" })) }),
      "nodePools[0].requirements: got 96; must list at most 95 requirements: the CRD allows 100 and this pool's other fields generate 5",
    ],
    [
      "taint effect",
      pool({ taints: [{ key: "nvidia.com/gpu", effect: "NoRun" }] }),
      `nodePools[0].taints[0].effect: got "NoRun"; allowed: NoSchedule, PreferNoSchedule, NoExecute`,
    ],
    [
      "taint key",
      pool({ startupTaints: [{ key: "a b", effect: "NoSchedule" }] }),
      `nodePools[0].startupTaints[0].key: got "a b"; must be a taint key such as nvidia.com/gpu: an optional DNS prefix and '/', then letters, digits, '-', '_' and '.'`,
    ],
    [
      "label key syntax",
      pool({ labels: { "a b": "x" } }),
      `nodePools[0].labels.a b: got "a b"; must be a label key: an optional DNS subdomain prefix and '/', then letters, digits, '-', '_' and '.'`,
    ],
    [
      "label value",
      pool({ labels: { team: "a/b" } }),
      `nodePools[0].labels.team: got "a/b"; must be a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit`,
    ],
    [
      "limit quantity",
      pool({ limits: { cpu: "lots" } }),
      `nodePools[0].limits.cpu: got "lots"; must be a resource quantity such as "1000", "1000Gi" or "500m"`,
    ],
    ["architecture", pool({ architectures: ["x86_64"] }), `nodePools[0].architectures[0]: got "x86_64"; allowed: amd64, arm64`],
    ["capacity type", pool({ capacityTypes: ["preemptible"] }), `nodePools[0].capacityTypes[0]: got "preemptible"; allowed: spot, on-demand, reserved`],
    ["empty list", pool({ zones: [] }), "nodePools[0].zones: got []; must list at least one value (omit the field to leave it open)"],
    [
      "unknown key",
      pool({ instanceTypes: ["m5.large"] }),
      "nodePools[0].instanceTypes: unknown key; allowed keys: name, nodeClass, architectures, capacityTypes, instanceCategories, instanceFamilies, instanceSizes, minGeneration, zones, labels, taints, startupTaints, limits, weight, consolidationPolicy, consolidateAfter, budgets, expireAfter, terminationGracePeriod, requirements",
    ],
  ])("%s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });
});

describe("EC2NodeClass CEL rules", () => {
  it.each([
    [
      "both role and instanceProfile",
      nodeClass({ role: "demo-karpenter-node", instanceProfile: "custom-profile" }),
      `nodeClasses[0]: got {"role":"demo-karpenter-node","instanceProfile":"custom-p...; must specify exactly one of ['role', 'instanceProfile']`,
    ],
    ["empty role", nodeClass({ role: "" }), `nodeClasses[0].role: got ""; role cannot be empty`],
    ["empty instanceProfile", nodeClass({ instanceProfile: "" }), `nodeClasses[0].instanceProfile: got ""; instanceProfile cannot be empty`],
    [
      "an alias with another term",
      nodeClass({ amiSelectorTerms: [{ alias: "al2023@latest" }, { id: "ami-0123" }] }),
      `nodeClasses[0].amiSelectorTerms: got [{"alias":"al2023@latest"},{"id":"ami-0123"}]; 'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms`,
    ],
    [
      "an alias with other fields in its term",
      nodeClass({ amiSelectorTerms: [{ alias: "al2023@latest", owner: "amazon" }] }),
      `nodeClasses[0].amiSelectorTerms[0]: got {"alias":"al2023@latest","owner":"amazon"}; 'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms`,
    ],
    [
      "an id with other fields in its term",
      nodeClass({ amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0123", name: "my-ami" }] }),
      `nodeClasses[0].amiSelectorTerms[0]: got {"id":"ami-0123","name":"my-ami"}; 'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms`,
    ],
    [
      "an empty term",
      nodeClass({ amiFamily: "AL2023", amiSelectorTerms: [{ owner: "self" }] }),
      `nodeClasses[0].amiSelectorTerms[0]: got {"owner":"self"}; expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']`,
    ],
    [
      "no amiFamily without an alias",
      nodeClass({ amiSelectorTerms: [{ ssmParameter: "/my/ami" }] }),
      "nodeClasses[0].amiFamily: missing; must specify amiFamily if amiSelectorTerms does not contain an alias",
    ],
    [
      "amiFamily against the default alias",
      nodeClass({ amiFamily: "AL2" }),
      `nodeClasses[0].amiFamily: got "AL2"; if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias`,
    ],
    [
      "amiFamily against a Bottlerocket alias",
      nodeClass({ amiAlias: "bottlerocket@latest", amiFamily: "AL2023" }),
      `nodeClasses[0].amiFamily: got "AL2023"; if set, amiFamily must be 'Bottlerocket' or 'Custom' when using a Bottlerocket alias`,
    ],
    [
      "amiFamily against a Windows alias in a term",
      nodeClass({ amiSelectorTerms: [{ alias: "windows2025@latest" }], amiFamily: "Windows2022" }),
      `nodeClasses[0].amiFamily: got "Windows2022"; if set, amiFamily must be 'Windows2025' or 'Custom' when using a Windows2025 alias`,
    ],
    [
      "a pinned Windows alias",
      nodeClass({ amiAlias: "windows2022@v20250101" }),
      `nodeClasses[0].amiAlias: got "windows2022@v20250101"; windows families may only specify version 'latest'`,
    ],
    [
      "an alias without a version",
      nodeClass({ amiAlias: "al2023" }),
      `nodeClasses[0].amiAlias: got "al2023"; 'alias' is improperly formatted, must match the format 'family@version'`,
    ],
    [
      "an unknown alias family",
      nodeClass({ amiSelectorTerms: [{ alias: "ubuntu@latest" }] }),
      `nodeClasses[0].amiSelectorTerms[0].alias: got "ubuntu@latest"; family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windows2019', 'windows2022', 'windows2025'`,
    ],
    [
      "an alias over 30 characters",
      nodeClass({ amiAlias: "bottlerocket@v1.40.0-extra-long" }),
      `nodeClasses[0].amiAlias: got "bottlerocket@v1.40.0-extra-long"; must be at most 30 characters`,
    ],
    [
      "an empty selector tag value",
      nodeClass({ amiFamily: "AL2023", amiSelectorTerms: [{ tags: { team: "" } }] }),
      `nodeClasses[0].amiSelectorTerms[0].tags: got {"team":""}; empty tag keys or values aren't supported`,
    ],
    [
      "tag eks:eks-cluster-name",
      nodeClass({ tags: { "eks:eks-cluster-name": "x" } }),
      `nodeClasses[0].tags.eks:eks-cluster-name: got "eks:eks-cluster-name"; tag contains a restricted tag matching eks:eks-cluster-name`,
    ],
    [
      "tag kubernetes.io/cluster/*",
      nodeClass({ tags: { "kubernetes.io/cluster/demo": "owned" } }),
      `nodeClasses[0].tags.kubernetes.io/cluster/demo: got "kubernetes.io/cluster/demo"; tag contains a restricted tag matching kubernetes.io/cluster/`,
    ],
    [
      "tag karpenter.sh/nodepool",
      nodeClass({ tags: { "karpenter.sh/nodepool": "x" } }),
      `nodeClasses[0].tags.karpenter.sh/nodepool: got "karpenter.sh/nodepool"; tag contains a restricted tag matching karpenter.sh/nodepool`,
    ],
    [
      "tag karpenter.sh/nodeclaim",
      nodeClass({ tags: { "karpenter.sh/nodeclaim": "x" } }),
      `nodeClasses[0].tags.karpenter.sh/nodeclaim: got "karpenter.sh/nodeclaim"; tag contains a restricted tag matching karpenter.sh/nodeclaim`,
    ],
    [
      "tag karpenter.k8s.aws/ec2nodeclass",
      nodeClass({ tags: { "karpenter.k8s.aws/ec2nodeclass": "x" } }),
      `nodeClasses[0].tags.karpenter.k8s.aws/ec2nodeclass: got "karpenter.k8s.aws/ec2nodeclass"; tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass`,
    ],
    ["an empty tag key", nodeClass({ tags: { "": "x" } }), `nodeClasses[0].tags.: got ""; empty tag keys aren't supported`],
    [
      "two root volumes",
      nodeClass({
        blockDeviceMappings: [
          { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "20Gi" } },
          { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "100Gi" } },
        ],
      }),
      `nodeClasses[0].blockDeviceMappings: got ["/dev/xvda","/dev/xvdb"]; must have only one blockDeviceMappings with rootVolume`,
    ],
    [
      "a volume with neither size nor snapshot",
      nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeType: "gp3" } }] }),
      `nodeClasses[0].blockDeviceMappings[0].ebs: got {"volumeType":"gp3","encrypted":true,"deleteOnTermination...; snapshotID or volumeSize must be defined`,
    ],
    [
      "imageGC high not above low",
      nodeClass({ kubelet: { imageGCHighThresholdPercent: 60, imageGCLowThresholdPercent: 60 } }),
      "nodeClasses[0].kubelet.imageGCHighThresholdPercent: got 60; imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent",
    ],
    [
      "evictionSoft without a grace period",
      nodeClass({ kubelet: { evictionSoft: { "memory.available": "5%" } } }),
      `nodeClasses[0].kubelet.evictionSoft.memory.available: got "memory.available"; evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod`,
    ],
    [
      "a grace period without evictionSoft",
      nodeClass({ kubelet: { evictionSoft: { "memory.available": "5%" }, evictionSoftGracePeriod: { "memory.available": "1m", "nodefs.available": "1m" } } }),
      `nodeClasses[0].kubelet.evictionSoftGracePeriod.nodefs.available: got "nodefs.available"; evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft`,
    ],
    [
      "an unknown eviction signal",
      nodeClass({ kubelet: { evictionHard: { "memory.free": "100Mi" } } }),
      `nodeClasses[0].kubelet.evictionHard.memory.free: got "memory.free"; valid keys for evictionHard are ['memory.available','nodefs.available','nodefs.inodesFree','imagefs.available','imagefs.inodesFree','pid.available']`,
    ],
    [
      "an unknown reserved resource",
      nodeClass({ kubelet: { systemReserved: { gpu: "1" } } }),
      `nodeClasses[0].kubelet.systemReserved.gpu: got "gpu"; valid keys for systemReserved are ['cpu','memory','ephemeral-storage','pid']`,
    ],
    [
      "a negative reservation",
      nodeClass({ kubelet: { kubeReserved: { memory: "-100Mi" } } }),
      `nodeClasses[0].kubelet.kubeReserved.memory: got "-100Mi"; kubeReserved value cannot be a negative resource quantity`,
    ],
  ])("%s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });
});

describe("EC2NodeClass field rules (OpenAPI schema and ours)", () => {
  it.each([
    [
      "name",
      { nodeClasses: [{ name: "Default" }], nodePools: [{ name: "a", nodeClass: "Default" }] },
      `nodeClasses[0].name: got "Default"; must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (a Kubernetes EC2NodeClass name)`,
    ],
    [
      "amiFamily",
      nodeClass({ amiFamily: "Ubuntu" }),
      `nodeClasses[0].amiFamily: got "Ubuntu"; allowed: AL2, AL2023, Bottlerocket, Custom, Windows2019, Windows2022, Windows2025`,
    ],
    [
      "AMI id",
      nodeClass({ amiFamily: "Custom", amiSelectorTerms: [{ id: "i-0123" }] }),
      `nodeClasses[0].amiSelectorTerms[0].id: got "i-0123"; must be an AMI id such as ami-0123456789abcdef0`,
    ],
    ["no AMI terms", nodeClass({ amiSelectorTerms: [] }), "nodeClasses[0].amiSelectorTerms: got []; must list at least one term"],
    [
      "hop limit",
      nodeClass({ metadataOptions: { httpPutResponseHopLimit: 65 } }),
      "nodeClasses[0].metadataOptions.httpPutResponseHopLimit: got 65; must be between 1 and 64",
    ],
    [
      "httpTokens",
      nodeClass({ metadataOptions: { httpTokens: "disabled" } }),
      `nodeClasses[0].metadataOptions.httpTokens: got "disabled"; allowed: required, optional`,
    ],
    [
      "volume type",
      nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "20Gi", volumeType: "gp4" } }] }),
      `nodeClasses[0].blockDeviceMappings[0].ebs.volumeType: got "gp4"; allowed: standard, io1, io2, gp2, sc1, st1, gp3`,
    ],
    [
      "root volume size",
      nodeClass({ rootVolumeSize: "50GB" }),
      `nodeClasses[0].rootVolumeSize: got "50GB"; must be a volume size such as 50Gi, 100G or 1Ti (1Gi-59000Gi)`,
    ],
    [
      "rootVolumeSize with blockDeviceMappings",
      nodeClass({ rootVolumeSize: "80Gi", blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "20Gi" } }] }),
      `nodeClasses[0].rootVolumeSize: got "80Gi"; applies to the default root volume only; with blockDeviceMappings, set ebs.volumeSize on the root volume there`,
    ],
    [
      "amiAlias with amiSelectorTerms",
      nodeClass({ amiAlias: "al2023@latest", amiSelectorTerms: [{ alias: "al2023@latest" }] }),
      `nodeClasses[0].amiSelectorTerms: got [{"alias":"al2023@latest"}]; cannot be combined with amiAlias; set one of them`,
    ],
    [
      "kubelet percent",
      nodeClass({ kubelet: { imageGCLowThresholdPercent: 101 } }),
      "nodeClasses[0].kubelet.imageGCLowThresholdPercent: got 101; must be between 0 and 100",
    ],
    ["no node classes", { nodeClasses: [] }, "nodeClasses: got []; must list at least one node class (omit nodeClasses for the default one)"],
  ])("%s", (_name, config, line) => {
    expect(problemsOf(config)).toEqual([line]);
  });
});

describe("checks across objects", () => {
  it("rejects a pool naming a node class that does not exist", () => {
    expect(problemsOf({ nodeClasses: [{ name: "default" }, { name: "gpu" }], nodePools: [{ name: "a" }, { name: "b", nodeClass: "gpus" }] })).toEqual([
      `nodePools[1].nodeClass: got "gpus"; must name one of the nodeClasses: default, gpu`,
    ]);
  });

  it("explains the default node class when the classes do not include it", () => {
    expect(problemsOf({ nodeClasses: [{ name: "gpu" }] })).toEqual([
      `nodePools[0].nodeClass: got "default"; must name one of the nodeClasses: gpu (the default node class; set nodeClass, or keep a node class named default)`,
    ]);
  });

  it("rejects duplicate names", () => {
    expect(problemsOf({ nodeClasses: [{ name: "default" }, { name: "default" }], nodePools: [{ name: "a" }, { name: "b" }, { name: "a" }] })).toEqual([
      `nodeClasses[1].name: got "default"; is listed twice; each node class name may appear once`,
      `nodePools[2].name: got "a"; is listed twice; each NodePool name may appear once`,
    ]);
  });

  it("rejects zones outside the region", () => {
    expect(problemsOf({ region: "eu-west-1", ...pool({ zones: ["eu-west-1a", "us-east-1b", "eu-west-1-lax-1a"] }) })).toEqual([
      `nodePools[0].zones[1]: got "us-east-1b"; is not an availability zone of eu-west-1; expected eu-west-1 followed by a zone letter, such as eu-west-1a`,
      `nodePools[0].zones[2]: got "eu-west-1-lax-1a"; is not an availability zone of eu-west-1; expected eu-west-1 followed by a zone letter, such as eu-west-1a`,
    ]);
  });

  it("checks zones against the default region", () => {
    expect(problemsOf(pool({ zones: ["us-west-2a"] }))).toEqual([
      `nodePools[0].zones[0]: got "us-west-2a"; is not an availability zone of us-east-1; expected us-east-1 followed by a zone letter, such as us-east-1a`,
    ]);
  });

  it("needs at least one pool", () => {
    expect(problemsOf({ nodePools: [] })).toEqual([
      "nodePools: got []; must list at least one NodePool: Karpenter launches every workload node from one (omit nodePools for the default pool)",
    ]);
  });

  it("rejects an instance family outside the pool's categories", () => {
    expect(problemsOf(pool({ instanceCategories: ["c", "m"], instanceFamilies: ["m7g", "g5"] }))).toEqual([
      `nodePools[0].instanceFamilies[1]: got "g5"; is in instance category "g", which instanceCategories (c, m) leaves out, so no instance type could match; add "g" to instanceCategories or remove this family`,
    ]);
  });

  it("reports every problem at once, cross-object checks included when fields are invalid", () => {
    expect(
      problemsOf({
        nodeClasses: [{ name: "default", amiFamily: "Ubuntu", tags: { "karpenter.sh/nodepool": "x" } }],
        nodePools: [
          { name: "a", weight: 0, nodeClass: "gpu" },
          { name: "b", requirements: [{ key: "kubernetes.io/hostname", operator: "In", values: [] }] },
        ],
      }),
    ).toEqual([
      `nodeClasses[0].amiFamily: got "Ubuntu"; allowed: AL2, AL2023, Bottlerocket, Custom, Windows2019, Windows2022, Windows2025`,
      "nodePools[0].weight: got 0; must be between 1 and 100",
      `nodeClasses[0].tags.karpenter.sh/nodepool: got "karpenter.sh/nodepool"; tag contains a restricted tag matching karpenter.sh/nodepool`,
      `nodePools[0].nodeClass: got "gpu"; must name one of the nodeClasses: default`,
      `nodePools[1].requirements[0].key: got "kubernetes.io/hostname"; label "kubernetes.io/hostname" is restricted`,
      "nodePools[1].requirements[0].values: got []; requirements with operator 'In' must have a value defined",
    ]);
  });

  it("survives values of the wrong type without throwing", () => {
    expect(problemsOf({ nodeClasses: "default", nodePools: [null, { name: "a", requirements: "x", budgets: [7], taints: {} }] })).toEqual([
      `nodeClasses: got "default" (string); expected a list`,
      "nodePools[0]: got null (null); expected a mapping",
      `nodePools[1].taints: got {} (a mapping); expected a list`,
      `nodePools[1].budgets[0]: got 7 (number); expected a mapping`,
      `nodePools[1].requirements: got "x" (string); expected a list`,
    ]);
  });
});
