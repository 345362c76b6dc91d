import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError } from "../../src/config/config-error";
import { loadClusterConfig, parseClusterConfig, readClusterConfigFile } from "../../src/config/load-config";

function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError, but the config was accepted");
}

const problems = (input: unknown) => problemsOf(() => parseClusterConfig(input, "test.yaml"));

function writeTemp(name: string, text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aeks-config-")), name);
  fs.writeFileSync(file, text);
  return file;
}

describe("defaults", () => {
  it("fills every default from a name alone", () => {
    const config = parseClusterConfig({ name: "demo" }, "test.yaml");
    expect(config.region).toBe("us-east-1");
    expect(config.kubernetesVersion).toBe("1.35");
    expect(config.network).toEqual({
      kind: "new",
      vpcCidr: "10.0.0.0/16",
      availabilityZones: ["us-east-1a", "us-east-1b", "us-east-1c"],
      natGateways: "single",
    });
    expect(config.cluster).toEqual({
      endpointPublicAccess: true,
      endpointPrivateAccess: true,
      publicAccessCidrs: ["0.0.0.0/0"],
      logTypes: ["api", "audit", "authenticator", "controllerManager", "scheduler"],
      logRetentionDays: 90,
      adminPrincipalArns: [],
      creatorAdmin: true,
    });
    expect(config.coreDns).toEqual({ mode: "lambda" });
    expect(config.karpenter).toEqual({
      version: "1.14.1",
      namespace: "karpenter",
      replicas: 2,
      createSpotServiceLinkedRole: false,
      logLevel: "info",
      kubernetesAuth: "token",
    });
    expect(config.backend).toEqual({ type: "local" });
  });

  it("derives the default zones from the region", () => {
    expect(parseClusterConfig({ name: "demo", region: "eu-west-1" }, "t").network).toMatchObject({
      availabilityZones: ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
    });
  });

  it("takes an existing VPC", () => {
    const config = parseClusterConfig({ name: "demo", network: { vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"] } }, "t");
    expect(config.network).toEqual({ kind: "existing", vpcId: "vpc-0abc", privateSubnetIds: ["subnet-01", "subnet-02"], publicSubnetIds: [] });
  });

  it("uses the embedded default cluster without CLUSTER_CONFIG", () => {
    expect(loadClusterConfig({}).name).toBe("karpenter-autonomous");
  });
});

describe("cluster name", () => {
  it("rejects characters EKS does not allow", () => {
    expect(problems({ name: "my cluster" })).toEqual([
      `name: got "my cluster"; must start with a letter or digit and contain only letters, digits, '-' and '_' (EKS cluster name rules)`,
    ]);
  });

  it("rejects a name whose longest derived AWS name exceeds its limit", () => {
    const name = "a".repeat(42);
    expect(problems({ name })).toEqual([
      `name: got "${name}"; is 42 characters; the derived EventBridge rule name "${name}-karpenter-state-change" would be 65, over the limit of 64: use at most 41 characters`,
    ]);
  });

  it("accepts the longest allowed name", () => {
    expect(parseClusterConfig({ name: "a".repeat(41) }, "t").name).toHaveLength(41);
  });

  it("reports a missing name", () => {
    expect(problems({})).toEqual(["name: missing; required, a string: the cluster name"]);
  });
});

describe("region, version and zones", () => {
  it("rejects an unknown region", () => {
    expect(problems({ name: "demo", region: "us-east1" })).toEqual([
      'region: got "us-east1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (the README lists them)',
    ]);
  });

  it("rejects a Kubernetes version the pinned Karpenter does not support", () => {
    expect(problems({ name: "demo", kubernetesVersion: "1.28" })).toEqual([
      'kubernetesVersion: got "1.28"; must be a Kubernetes version supported by Karpenter 1.14.1 and EKS: 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36',
    ]);
  });

  it("explains the YAML number trap for versions", () => {
    expect(problems({ name: "demo", kubernetesVersion: 1.3 })).toEqual([
      'kubernetesVersion: got 1.3; must be a quoted string such as "1.35" (YAML reads 1.30 as the number 1.3)',
    ]);
  });

  it("rejects zones outside the region, duplicates and too few zones", () => {
    expect(problems({ name: "demo", region: "eu-west-1", network: { availabilityZones: ["eu-west-1a", "us-east-1b", "eu-west-1a"] } })).toEqual([
      'network.availabilityZones[1]: got "us-east-1b"; is not an availability zone of eu-west-1; expected eu-west-1 followed by a zone letter, such as eu-west-1a',
      'network.availabilityZones[2]: got "eu-west-1a"; is listed twice; each availability zone may appear once',
    ]);
    expect(problems({ name: "demo", network: { availabilityZones: ["us-east-1a"] } })).toEqual([
      'network.availabilityZones: got ["us-east-1a"]; must list at least 2 availability zones (EKS requires subnets in two)',
    ]);
  });
});

describe("network", () => {
  it("rejects malformed CIDRs and host bits", () => {
    expect(problems({ name: "demo", network: { vpcCidr: "10.0.0.1/16" } })).toEqual([
      'network.vpcCidr: got "10.0.0.1/16"; must be an IPv4 CIDR block such as 10.0.0.0/16 (the new VPC\'s range), with no host bits set',
    ]);
    expect(problems({ name: "demo", cluster: { publicAccessCidrs: ["203.0.113.0/33"] } })).toEqual([
      'cluster.publicAccessCidrs[0]: got "203.0.113.0/33"; must be an IPv4 CIDR block such as 10.0.0.0/16 (a client range), with no host bits set',
    ]);
  });

  it("rejects VPC ranges too small or too large for the zones", () => {
    expect(problems({ name: "demo", network: { vpcCidr: "10.0.0.0/22" } })).toEqual([
      'network.vpcCidr: got "10.0.0.0/22"; is too small for 3 availability zones: private subnets would be /25; use a prefix between /16 and /21',
    ]);
    expect(problems({ name: "demo", network: { vpcCidr: "10.0.0.0/8" } })).toEqual([
      'network.vpcCidr: got "10.0.0.0/8"; is larger than AWS allows for a VPC: use a prefix between /16 and /21',
    ]);
  });

  it("asks for zones in regions whose zone letters differ between accounts", () => {
    expect(problems({ name: "demo", region: "ap-northeast-1" })).toEqual([
      "network.availabilityZones: missing; must be listed in ap-northeast-1, whose zone letters differ between accounts (aws ec2 describe-availability-zones lists yours)",
    ]);
    expect(
      parseClusterConfig({ name: "demo", region: "ap-northeast-1", network: { availabilityZones: ["ap-northeast-1a", "ap-northeast-1c"] } }, "t").network,
    ).toMatchObject({
      availabilityZones: ["ap-northeast-1a", "ap-northeast-1c"],
    });
  });

  it("rejects pool zones where the new VPC has no subnet", () => {
    expect(
      problems({
        name: "demo",
        network: { availabilityZones: ["us-east-1a", "us-east-1b"] },
        nodePools: [{ name: "default", zones: ["us-east-1a", "us-east-1d"] }],
      }),
    ).toEqual(['nodePools[0].zones[1]: got "us-east-1d"; has no subnet in this VPC; the VPC\'s zones are us-east-1a, us-east-1b']);
  });

  it("rejects mixing a new VPC's fields with an existing VPC", () => {
    expect(problems({ name: "demo", network: { vpcId: "vpc-0abc", vpcCidr: "10.0.0.0/16", privateSubnetIds: ["subnet-01"] } })).toEqual([
      'network.vpcCidr: got "10.0.0.0/16"; applies to a new VPC only; remove it, or remove vpcId to create a VPC',
      'network.privateSubnetIds: got ["subnet-01"]; must list at least 2 private subnets (in different zones) when vpcId is set',
    ]);
    expect(problems({ name: "demo", network: { privateSubnetIds: ["subnet-01", "subnet-02"] } })).toEqual([
      'network.privateSubnetIds: got ["subnet-01","subnet-02"]; applies to an existing VPC only; set vpcId too, or remove it',
    ]);
  });
});

describe("structure", () => {
  it("names unknown keys with the allowed ones", () => {
    expect(problems({ name: "demo", cluster: { endpointPublicAcess: false } })).toEqual([
      "cluster.endpointPublicAcess: unknown key; allowed keys: endpointPublicAccess, endpointPrivateAccess, publicAccessCidrs, logTypes, logRetentionDays, adminPrincipalArns, creatorAdmin",
    ]);
  });

  it("reports wrong types and enum values", () => {
    expect(problems({ name: "demo", karpenter: { replicas: "2" }, coreDns: { mode: "patch" } })).toEqual([
      'coreDns.mode: got "patch"; allowed: lambda, addon',
      'karpenter.replicas: got "2" (string); expected a number',
    ]);
  });

  it("rejects Fargate profiles that collide with the built-in ones", () => {
    expect(
      problems({
        name: "demo",
        fargate: {
          profiles: [
            { name: "karpenter", namespaces: ["monitoring"] },
            { name: "apps", namespaces: ["kube-system"] },
            { name: "apps", namespaces: ["apps"] },
          ],
        },
      }),
    ).toEqual([
      'fargate.profiles[2]: got "apps"; is listed twice; each profile name may appear once',
      'fargate.profiles[0].name: got "karpenter"; is reserved for the profile this project creates itself; choose another name',
      'fargate.profiles[1].namespaces[0]: got "kube-system"; already has a Fargate profile created by this project; remove it here',
    ]);
  });

  it("reports every problem of a file at once", () => {
    expect(problems({ name: "bad name", region: "mars-1", network: { natGateways: "many" }, extra: true })).toEqual([
      `name: got "bad name"; must start with a letter or digit and contain only letters, digits, '-' and '_' (EKS cluster name rules)`,
      'region: got "mars-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (the README lists them)',
      'network.natGateways: got "many"; allowed: single, perAz',
      "extra: unknown key; allowed keys: name, region, kubernetesVersion, tags, network, cluster, fargate, coreDns, karpenter, nodeClasses, nodePools, backend",
    ]);
  });

  it("rejects a private-endpoint-off cluster whose public endpoint would not admit its own NAT", () => {
    expect(problems({ name: "demo", cluster: { endpointPrivateAccess: false, publicAccessCidrs: ["203.0.113.0/24"] } })).toEqual([
      "cluster.endpointPrivateAccess: got false; cannot be false with a narrowed publicAccessCidrs: nodes, Fargate pods and the CoreDNS Lambda would reach the API from the NAT addresses, which the list does not include; keep the private endpoint on",
    ]);
  });

  it("rejects a cluster nobody could administer", () => {
    expect(problems({ name: "demo", cluster: { creatorAdmin: false } })).toEqual([
      "cluster.creatorAdmin: got false; cannot be false without adminPrincipalArns: nobody could administer the cluster, and the Karpenter stack could not be deployed",
    ]);
    expect(
      parseClusterConfig({ name: "demo", cluster: { creatorAdmin: false, adminPrincipalArns: ["arn:aws:iam::123456789012:role/platform"] } }, "t").cluster
        .creatorAdmin,
    ).toBe(false);
  });

  it("rejects a node class role other than the cluster's node role", () => {
    expect(problems({ name: "demo", nodeClasses: [{ name: "default", role: "other-role" }] })).toEqual([
      `nodeClasses[0].role: got "other-role"; must be demo-karpenter-node or omitted: Karpenter may pass only this cluster's node role, and only that role may join the cluster`,
    ]);
  });

  it("rejects both endpoints off", () => {
    expect(problems({ name: "demo", cluster: { endpointPublicAccess: false, endpointPrivateAccess: false } })).toEqual([
      "cluster.endpointPrivateAccess: got false; cannot be false when endpointPublicAccess is false too: the API server would be unreachable",
    ]);
  });

  it("rejects reserved tag keys", () => {
    expect(problems({ name: "demo", tags: { "aws:owner": "me" } })).toEqual([
      'tags.aws:owner: got "aws:owner"; tag keys starting with "aws:" are reserved by AWS',
    ]);
  });

  it("rejects cluster tags that Karpenter reserves, since they also tag every EC2NodeClass", () => {
    expect(problems({ name: "demo", tags: { "karpenter.sh/nodepool": "x" } })).toEqual([
      'tags.karpenter.sh/nodepool: got "karpenter.sh/nodepool"; tag contains a restricted tag matching karpenter.sh/nodepool (cluster tags are also applied to every EC2NodeClass)',
    ]);
  });
});

describe("files", () => {
  it("reads YAML", () => {
    const file = writeTemp("c.yaml", 'name: from-file\nregion: eu-central-1\nkubernetesVersion: "1.34"\n');
    expect(readClusterConfigFile(file)).toMatchObject({ name: "from-file", region: "eu-central-1", kubernetesVersion: "1.34" });
  });

  it("reads JSON", () => {
    const file = writeTemp("c.json", '{"name": "from-json"}');
    expect(readClusterConfigFile(file).name).toBe("from-json");
  });

  it("reports malformed YAML with its line", () => {
    const file = writeTemp("bad.yaml", "name: demo\nnetwork:\n  vpcCidr: [10.0.0.0/16\n");
    expect(problemsOf(() => readClusterConfigFile(file))).toEqual([expect.stringMatching(/^line 4, column 1: /)]);
  });

  it("reports duplicate keys with their line", () => {
    const file = writeTemp("dup.yaml", "name: demo\nregion: us-east-1\nregion: eu-west-1\n");
    expect(problemsOf(() => readClusterConfigFile(file))).toEqual(["line 3, column 1: Map keys must be unique"]);
  });

  it("reports a missing file by the variable that named it", () => {
    expect(problemsOf(() => loadClusterConfig({ CLUSTER_CONFIG: "/nonexistent/cluster.yaml" }))).toEqual([
      "cannot read the cluster config (no such file); CLUSTER_CONFIG must name a readable YAML or JSON file",
    ]);
  });
});
