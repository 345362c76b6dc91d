import { configWarnings } from "../../src/config/config-warnings";
import { parseClusterConfig } from "../../src/config/load-config";
import { clusterProblems } from "../helpers/problems";

// Configs the API server would admit that fail in the account: each launch of a NodePool, or the apply of a
// stack half way. Each rule has a config it refuses, with the exact line the user reads, and a neighbour that
// differs by the least that makes it right, which must pass: a rule that refused too much fails here too.
// The expectations are written out by hand from the sources each rule cites, not computed by the code.

const nodeClass = (fields: Record<string, unknown>) => ({ nodeClasses: [{ name: "default", ...fields }] });
const pool = (fields: Record<string, unknown>) => ({ nodePools: [{ name: "default", ...fields }] });
const volume = (ebs: Record<string, unknown>, deviceName = "/dev/xvda") => nodeClass({ blockDeviceMappings: [{ deviceName, rootVolume: true, ebs }] });

interface Rule {
  readonly rule: string;
  readonly refused: Record<string, unknown>;
  readonly problems: readonly string[];
  readonly neighbour: Record<string, unknown>;
}

const RULES: readonly Rule[] = [
  // kubelet clusterDNS: the kubelet drops what is no IP, and an address nobody answers at breaks every pod's DNS.
  {
    rule: "clusterDNS must be an IPv4 address",
    refused: nodeClass({ kubelet: { clusterDNS: ["kube-dns.kube-system", "172.20.0.10:53"] } }),
    problems: [
      'nodeClasses[0].kubelet.clusterDNS[0]: got "kube-dns.kube-system"; must be an IPv4 address such as 169.254.20.10 (no host name, port or prefix): the cluster is IPv4, and the kubelet drops anything else',
      'nodeClasses[0].kubelet.clusterDNS[1]: got "172.20.0.10:53"; must be an IPv4 address such as 169.254.20.10 (no host name, port or prefix): the cluster is IPv4, and the kubelet drops anything else',
    ],
    neighbour: nodeClass({ kubelet: { clusterDNS: ["172.20.0.10", "169.254.20.10"] } }),
  },
  {
    // The default VPC is 10.0.0.0/16, so EKS gives services 172.20.0.0/16, not 10.100.0.0/16.
    rule: "clusterDNS inside the service range EKS picks for a new VPC",
    refused: nodeClass({ kubelet: { clusterDNS: ["10.100.0.10"] } }),
    problems: [
      "nodeClasses[0].kubelet.clusterDNS[0]: got \"10.100.0.10\"; is outside the cluster's service range 172.20.0.0/16 (EKS picks it for this VPC's range) and the link-local 169.254.0.0/16: no DNS server answers there, so every pod on these nodes would fail to resolve names; use the kube-dns Service's address (172.20.0.10), NodeLocal DNSCache's (169.254.20.10), or leave clusterDNS out",
    ],
    neighbour: { network: { vpcCidr: "192.168.0.0/16" }, ...nodeClass({ kubelet: { clusterDNS: ["10.100.0.10"] } }) },
  },
  {
    rule: "clusterDNS inside either of EKS's service ranges for an existing VPC",
    refused: {
      network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"] },
      ...nodeClass({ kubelet: { clusterDNS: ["8.8.8.8"] } }),
    },
    problems: [
      "nodeClasses[0].kubelet.clusterDNS[0]: got \"8.8.8.8\"; is outside the cluster's service range (10.100.0.0/16 or 172.20.0.0/16: EKS picks one from the existing VPC's range) and the link-local 169.254.0.0/16: no DNS server answers there, so every pod on these nodes would fail to resolve names; use the kube-dns Service's address (10.100.0.10 or 172.20.0.10), NodeLocal DNSCache's (169.254.20.10), or leave clusterDNS out",
    ],
    neighbour: {
      network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"] },
      ...nodeClass({ kubelet: { clusterDNS: ["10.100.0.10"] } }),
    },
  },
  // Volumes smaller than the AMI's snapshot: EC2 refuses the launch (InvalidBlockDeviceMapping).
  {
    // 17Gi is 18.25 * 10^9 bytes: Karpenter sends 19, under AL2023's 20 GiB snapshot.
    rule: "the default root volume holds AL2023's 20 GiB snapshot",
    refused: nodeClass({ rootVolumeSize: "17Gi" }),
    problems: [
      'nodeClasses[0].rootVolumeSize: got "17Gi"; reaches EC2 as 19 GiB, smaller than the 20 GiB snapshot /dev/xvda starts from in EKS\'s al2023 AMIs: EC2 refuses every launch (InvalidBlockDeviceMapping); use at least 20Gi',
    ],
    neighbour: nodeClass({ rootVolumeSize: "20G" }),
  },
  {
    rule: "a Bottlerocket OS volume holds its 2 GiB snapshot",
    refused: nodeClass({
      amiAlias: "bottlerocket@latest",
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { volumeSize: "1G" } },
        { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "1Gi" } },
      ],
    }),
    problems: [
      'nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: got "1G"; reaches EC2 as 1 GiB, smaller than the 2 GiB snapshot /dev/xvda starts from in EKS\'s bottlerocket AMIs: EC2 refuses every launch (InvalidBlockDeviceMapping); use at least 2Gi',
    ],
    neighbour: nodeClass({
      amiAlias: "bottlerocket@latest",
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { volumeSize: "4Gi" } },
        { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "1Gi" } },
      ],
    }),
  },
  {
    // A volume restored from a snapshot of its own is sized by that snapshot, which synth cannot see.
    rule: "a volume with its own snapshot is not held to the AMI's",
    refused: volume({ volumeSize: "8Gi" }),
    problems: [
      'nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: got "8Gi"; reaches EC2 as 9 GiB, smaller than the 20 GiB snapshot /dev/xvda starts from in EKS\'s al2023 AMIs: EC2 refuses every launch (InvalidBlockDeviceMapping); use at least 20Gi',
    ],
    neighbour: volume({ volumeSize: "8Gi", snapshotID: "snap-0123456789abcdef0" }),
  },
  // IOPS and throughput: the CRD checks neither, EC2 refuses what is out of range.
  {
    rule: "io1 and io2 need iops",
    refused: volume({ volumeSize: "100Gi", volumeType: "io2" }),
    problems: ["nodeClasses[0].blockDeviceMappings[0].ebs.iops: missing; is required for io2 (EC2 refuses the volume without it): 100-256000 IOPS"],
    neighbour: volume({ volumeSize: "100Gi", volumeType: "io2", iops: 10000 }),
  },
  {
    // 20Gi reaches EC2 as 22 GiB: gp3 allows 500 IOPS per GiB, 11,000.
    rule: "gp3 iops within its range and 500 per GiB",
    refused: nodeClass({
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "20Gi", iops: 12000 } },
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "100Gi", iops: 2000 } },
      ],
    }),
    problems: [
      "nodeClasses[0].blockDeviceMappings[0].ebs.iops: got 12000; is more than gp3's 500 IOPS per GiB allow for 20Gi (22 GiB as EC2 reads it): at most 11000, or a larger volume",
      "nodeClasses[0].blockDeviceMappings[1].ebs.iops: got 2000; is outside gp3's 3000-80000 IOPS",
    ],
    neighbour: nodeClass({
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "20Gi", iops: 11000 } },
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "200Gi", iops: 80000 } },
      ],
    }),
  },
  {
    rule: "gp3 throughput within 0.25 MiB/s per IOPS",
    refused: volume({ volumeSize: "100Gi", throughput: 1000 }),
    problems: [
      "nodeClasses[0].blockDeviceMappings[0].ebs.throughput: got 1000; is more than gp3 allows for the default 3000 IOPS (0.25 MiB/s per IOPS): at most 750, or raise iops to 4000",
    ],
    neighbour: volume({ volumeSize: "100Gi", throughput: 1000, iops: 4000 }),
  },
  {
    rule: "iops and throughput only where the type takes them",
    refused: nodeClass({
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", volumeType: "gp2", iops: 3000 } },
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "100Gi", volumeType: "io1", iops: 3000, throughput: 250 } },
      ],
    }),
    problems: [
      "nodeClasses[0].blockDeviceMappings[0].ebs.iops: got 3000; does not apply to gp2, whose IOPS EC2 sets itself; only gp3, io1, io2 take iops",
      "nodeClasses[0].blockDeviceMappings[1].ebs.throughput: got 250; does not apply to io1; only gp3 takes throughput",
    ],
    neighbour: nodeClass({
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi", volumeType: "gp2" } },
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "100Gi", volumeType: "io1", iops: 3000 } },
      ],
    }),
  },
  // AMI alias versions: Karpenter builds the SSM parameter from them.
  {
    rule: "Amazon Linux aliases pin an amazon-eks-ami release tag",
    refused: nodeClass({ amiAlias: "al2023@2025.11.06" }),
    problems: [
      'nodeClasses[0].amiAlias: got "al2023@2025.11.06"; has version "2025.11.06"; al2023 takes "latest" or an amazon-eks-ami release such as v20251106: Karpenter builds the SSM parameter of the AMI from it, and any other form finds no AMI, so the node class would never become Ready',
    ],
    neighbour: nodeClass({ amiAlias: "al2023@v20251106" }),
  },
  {
    rule: "Bottlerocket aliases pin a release, with or without its v",
    refused: nodeClass({ amiSelectorTerms: [{ alias: "bottlerocket@v1.50" }] }),
    problems: [
      'nodeClasses[0].amiSelectorTerms[0].alias: got "bottlerocket@v1.50"; has version "v1.50"; bottlerocket takes "latest" or a Bottlerocket release such as v1.50.0: Karpenter builds the SSM parameter of the AMI from it, and any other form finds no AMI, so the node class would never become Ready',
    ],
    neighbour: nodeClass({ amiSelectorTerms: [{ alias: "bottlerocket@1.50.0" }] }),
  },
  // The metadata service: every EKS AMI's bootstrap reads its user data from it.
  {
    rule: "httpEndpoint stays enabled for EKS AMIs",
    refused: nodeClass({ metadataOptions: { httpEndpoint: "disabled" } }),
    problems: [
      "nodeClasses[0].metadataOptions.httpEndpoint: got \"disabled\"; must be enabled with al2023 AMIs: their bootstrap reads the node's configuration (user data) and identity from the instance metadata service, so no node would join; httpTokens: required with httpPutResponseHopLimit: 1 already keeps pods from the node's credentials",
    ],
    // A custom AMI bootstraps however it was built to.
    neighbour: nodeClass({ amiFamily: "Custom", amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }], metadataOptions: { httpEndpoint: "disabled" } }),
  },
  // Zones: topology.kubernetes.io/zone takes names, topology.k8s.aws/zone-id takes IDs.
  {
    rule: "zone IDs are not zone names",
    refused: pool({
      zones: ["use1-az1"],
      labels: { "topology.kubernetes.io/zone": "use1-az2" },
      requirements: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a", "use1-az4"] }],
    }),
    problems: [
      'nodePools[0].zones[0]: got "use1-az1"; is a zone ID, and zones here are zone names such as us-east-1a (topology.kubernetes.io/zone): no subnet\'s zone name would match; keep zone IDs to a requirement on topology.k8s.aws/zone-id',
      'nodePools[0].requirements[0].values[1]: got "use1-az4"; is a zone ID, and zones here are zone names such as us-east-1a (topology.kubernetes.io/zone): no subnet\'s zone name would match; keep zone IDs to a requirement on topology.k8s.aws/zone-id',
      'nodePools[0].labels.topology.kubernetes.io/zone: got "use1-az2"; is a zone ID, and zones here are zone names such as us-east-1a (topology.kubernetes.io/zone): no subnet\'s zone name would match; keep zone IDs to a requirement on topology.k8s.aws/zone-id',
    ],
    neighbour: pool({
      zones: ["us-east-1a"],
      labels: { "topology.kubernetes.io/zone": "us-east-1b" },
      requirements: [{ key: "topology.k8s.aws/zone-id", operator: "In", values: ["use1-az1", "use1-az4"] }],
    }),
  },
  {
    rule: "zone names are not zone IDs",
    refused: pool({ requirements: [{ key: "topology.k8s.aws/zone-id", operator: "NotIn", values: ["us-east-1c"] }] }),
    problems: [
      'nodePools[0].requirements[0].values[0]: got "us-east-1c"; is not a zone ID such as use1-az1 (us-east-1c is a zone name: those go under topology.kubernetes.io/zone): Karpenter matches it against each subnet\'s zone ID, so no subnet would match',
    ],
    neighbour: pool({ requirements: [{ key: "topology.kubernetes.io/zone", operator: "NotIn", values: ["us-east-1c"] }] }),
  },
  // minValues: Karpenter (policy Strict, its default) launches nothing when the types cannot hold that many values.
  {
    // The default categories are c, m and r: three values, whatever the operator.
    rule: "minValues that no combination of the catalogue's types can meet, with Exists",
    refused: pool({ requirements: [{ key: "karpenter.k8s.aws/instance-category", operator: "Exists", minValues: 4 }] }),
    problems: [
      "nodePools[0].requirements[0].minValues: got 4; can never be met: the instance types this pool admits have 3 distinct values of karpenter.k8s.aws/instance-category (c, m, r) in the catalogue of 2026-07-06, so Karpenter (minValues policy Strict, its default) would launch nothing; lower minValues to 3 or widen the pool",
    ],
    neighbour: pool({ requirements: [{ key: "karpenter.k8s.aws/instance-category", operator: "Exists", minValues: 3 }] }),
  },
  {
    rule: "minValues on a key the pool's families decide",
    refused: pool({
      instanceFamilies: ["m7g", "m7i"],
      requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "NotIn", values: ["m7i-flex"], minValues: 3 }],
    }),
    problems: [
      "nodePools[0].requirements[0].minValues: got 3; can never be met: the instance types this pool admits have 2 distinct values of karpenter.k8s.aws/instance-family (m7g, m7i) in the catalogue of 2026-07-06, so Karpenter (minValues policy Strict, its default) would launch nothing; lower minValues to 2 or widen the pool",
    ],
    neighbour: pool({
      instanceFamilies: ["m7g", "m7i", "m8g"],
      requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "NotIn", values: ["m7i-flex"], minValues: 3 }],
    }),
  },
  // limits: a key no node has is never exceeded, so a misspelt one removes the guard.
  {
    rule: "limits keys are resources Karpenter counts",
    refused: pool({ limits: { cpus: "100", memory: "400Gi", "nvidia.com/gpu": "8" } }),
    problems: [
      'nodePools[0].limits.cpus: got "cpus"; is not a resource Karpenter counts, so it would limit nothing (did you mean cpu?); allowed: cpu, memory, pods, ephemeral-storage, nodes, or an extended resource such as nvidia.com/gpu',
    ],
    neighbour: pool({ limits: { cpu: "100", memory: "400Gi", "nvidia.com/gpu": "8", nodes: "20" } }),
  },
  // Tags reach IAM (roles through default tags, the instance profile through the node class), which refuses other characters.
  {
    rule: "tag keys and values hold only the characters IAM takes",
    refused: { tags: { "cost#center": "42", owner: "platform (EMEA)" }, ...nodeClass({ tags: { team: "ml*" } }) },
    problems: [
      'tags.cost#center: got "cost#center"; tag keys may hold only letters, digits and spaces, and _ . : / = + - @ (IAM refuses other characters, half way through an apply)',
      'tags.owner: got "platform (EMEA)"; tag values may hold only letters, digits and spaces, and _ . : / = + - @ (IAM refuses other characters, half way through an apply)',
      'nodeClasses[0].tags.team: got "ml*"; tag values may hold only letters, digits and spaces, and _ . : / = + - @ (IAM refuses other characters, half way through an apply)',
    ],
    // Any script's letters and digits, and spaces, are fine.
    neighbour: { tags: { "cost-center": "42", owner: "platform EMEA", équipe: "données" }, ...nodeClass({ tags: { team: "ml" } }) },
  },
  // State buckets: S3's rules beyond the characters.
  ...[
    ["acme..state", "no two adjacent periods"],
    ["192.168.5.4", "not formatted as an IP address"],
    ["xn--acme-state", "the prefix xn-- is reserved"],
    ["acme-state--x-s3", "the suffix --x-s3 is reserved"],
  ].map(([bucket, rule]) => ({
    rule: `S3 bucket names: ${rule}`,
    refused: { backend: { type: "s3", bucket } },
    problems: [`backend.bucket: got "${bucket}"; breaks S3's naming rules: ${rule}; S3 would refuse it, and terraform init would fail`],
    neighbour: { backend: { type: "s3", bucket: "acme.state-192-168-5-4" } },
  })),
  {
    rule: "a subnet is private or public, not both",
    refused: { network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: ["subnet-03", "subnet-02"] } },
    problems: [
      'network.publicSubnetIds[1]: got "subnet-02"; is also in privateSubnetIds; a subnet is either private (nodes, Fargate pods, behind NAT) or public (internet-facing load balancers), and Karpenter would launch nodes into it',
    ],
    neighbour: { network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: ["subnet-03", "subnet-04"] } },
  },
];

describe("configs that would break every launch", () => {
  it.each(RULES)("$rule: refused, with every problem named", ({ refused, problems }) => {
    expect(clusterProblems(refused)).toEqual(problems);
  });

  it.each(RULES)("$rule: the valid neighbour passes", ({ neighbour }) => {
    expect(clusterProblems(neighbour)).toEqual([]);
  });

  it("finds the problems of every node class rule in one config at once", () => {
    // The rules about node classes alone: their node classes go in one file.
    const rules = RULES.filter((r) => Object.keys(r.refused).join() === "nodeClasses");
    const classes = rules.map((r, i) => ({ ...(r.refused.nodeClasses as Record<string, unknown>[])[0], name: `c${i}` }));
    const expected = rules.flatMap((r, i) => r.problems.map((line) => line.replace("nodeClasses[0]", `nodeClasses[${i}]`)));
    const problems = clusterProblems({ nodeClasses: classes, nodePools: classes.map((c) => ({ name: c.name, nodeClass: c.name })) });
    expect([...problems].sort()).toEqual(expected.sort());
  });

  it("finds the problems of every NodePool rule in one config at once", () => {
    const rules = RULES.filter((r) => Object.keys(r.refused).join() === "nodePools");
    const pools = rules.map((r, i) => ({ ...(r.refused.nodePools as Record<string, unknown>[])[0], name: `p${i}` }));
    const expected = rules.flatMap((r, i) => r.problems.map((line) => line.replace("nodePools[0]", `nodePools[${i}]`)));
    expect([...clusterProblems({ nodePools: pools })].sort()).toEqual(expected.sort());
  });
});

describe("warnings a Bottlerocket OS volume earns", () => {
  const bottlerocket = (size: string) =>
    parseClusterConfig(
      {
        name: "demo",
        ...nodeClass({
          amiAlias: "bottlerocket@latest",
          blockDeviceMappings: [
            { deviceName: "/dev/xvda", ebs: { volumeSize: size } },
            { deviceName: "/dev/xvdb", rootVolume: true, ebs: { volumeSize: "50Gi" } },
          ],
        }),
      },
      "t.yaml",
    );

  it("warns between the standard snapshot (2 GiB) and the NVIDIA one (4 GiB)", () => {
    expect(configWarnings(bottlerocket("2Gi"))).toContain(
      "nodeClasses[0].blockDeviceMappings[0].ebs.volumeSize: 2Gi fits Bottlerocket's 2 GiB OS snapshot but not its NVIDIA variants' 4 GiB: GPU instance types would fail every launch; use 4Gi (Karpenter's default)",
    );
  });

  it("is quiet at Karpenter's 4Gi", () => {
    expect(configWarnings(bottlerocket("4Gi")).filter((w) => w.includes("Bottlerocket"))).toEqual([]);
  });
});

describe("what AWS accepts is accepted", () => {
  it("takes EKS's * and ? wildcards in Fargate namespaces (EKS has since 2022)", () => {
    expect(clusterProblems({ fargate: { profiles: [{ name: "teams", namespaces: ["team-*", "batch-?", "*-jobs"], labels: { "app.*": "web-?" } }] } })).toEqual(
      [],
    );
  });

  it("still refuses what is neither a namespace nor a pattern of them", () => {
    expect(clusterProblems({ fargate: { profiles: [{ name: "teams", namespaces: ["team-[ab]", "Team-*"] }] } })).toEqual([
      `fargate.profiles[0].namespaces[0]: got "team-[ab]"; must be a namespace (lowercase letters, digits and '-', starting and ending with a letter or digit), or a pattern of them with EKS's wildcards * (any characters) and ? (one character)`,
      `fargate.profiles[0].namespaces[1]: got "Team-*"; must be a namespace (lowercase letters, digits and '-', starting and ending with a letter or digit), or a pattern of them with EKS's wildcards * (any characters) and ? (one character)`,
    ]);
  });
});
