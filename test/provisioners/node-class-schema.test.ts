import { parseClusterConfig } from "../../src/config/load-config";
import { clusterProblems as problemsOf } from "../helpers/problems";

// Every rule is asserted through the real parser, with the exact line the user sees:
// `<path>: got <value>; <message>`. CEL messages are Karpenter's own text (src/provisioners/rules/crd-messages.ts).

// amd64 pool: some classes here are Windows, which runs on amd64 only.
const nodeClass = (fields: Record<string, unknown>) => ({
  nodeClasses: [{ name: "default", ...fields }],
  nodePools: [{ name: "default", architectures: ["amd64"] }],
});

describe("defaults", () => {
  it("fills the default node class when nodeClasses is omitted; the AMI and the disk are the renderer's", () => {
    expect(parseClusterConfig({ name: "demo" }, "t.yaml").nodeClasses).toEqual([
      {
        name: "default",
        metadataOptions: { httpEndpoint: "enabled", httpProtocolIPv6: "disabled", httpPutResponseHopLimit: 1, httpTokens: "required" },
        tags: {},
      },
    ]);
  });

  it("fills the volume defaults of blockDeviceMappings", () => {
    const config = parseClusterConfig(
      { name: "demo", ...nodeClass({ blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "80Gi" } }] }) },
      "t.yaml",
    );
    expect(config.nodeClasses[0].blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "80Gi", volumeType: "gp3", encrypted: true, deleteOnTermination: true } },
    ]);
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

describe("capacityReservationSelectorTerms", () => {
  const terms = (...list: unknown[]) => nodeClass({ capacityReservationSelectorTerms: list });

  it("takes reservations by id, or by tags and match criteria, optionally of one owner", () => {
    expect(problemsOf(terms({ id: "cr-0123456789abcdef0" }, { tags: { team: "ml" }, ownerID: "123456789012" }, { instanceMatchCriteria: "open" }))).toEqual([]);
  });

  it.each([
    [
      "an id with other fields, in any term (the CRD checks only when every term does it)",
      [{ tags: { team: "ml" } }, { id: "cr-0123456789abcdef0", ownerID: "123456789012" }],
      `nodeClasses[0].capacityReservationSelectorTerms[1]: got {"id":"cr-0123456789abcdef0","ownerID":"123456789012"}; 'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term`,
    ],
    [
      "an owner alone",
      [{ ownerID: "123456789012" }],
      `nodeClasses[0].capacityReservationSelectorTerms[0]: got {"ownerID":"123456789012"}; expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']`,
    ],
    [
      "a malformed id",
      [{ id: "r-1234" }],
      `nodeClasses[0].capacityReservationSelectorTerms[0].id: got "r-1234"; must be a capacity reservation id such as cr-0123456789abcdef0`,
    ],
    [
      "an 11-digit owner",
      [{ tags: { a: "b" }, ownerID: "12345678901" }],
      `nodeClasses[0].capacityReservationSelectorTerms[0].ownerID: got "12345678901"; must be a 12-digit AWS account id`,
    ],
    [
      "empty tags",
      [{ tags: {} }],
      "nodeClasses[0].capacityReservationSelectorTerms[0].tags: got {}; must hold at least one tag (omit tags to select by the other fields)",
    ],
    [
      "an unknown match criterion",
      [{ instanceMatchCriteria: "any" }],
      `nodeClasses[0].capacityReservationSelectorTerms[0].instanceMatchCriteria: got "any"; allowed: open, targeted`,
    ],
  ])("rejects %s", (_name, list, line) => {
    expect(problemsOf(terms(...(list as unknown[])))).toEqual([line]);
  });
});
