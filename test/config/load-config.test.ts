import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadClusterConfig, parseClusterConfig, readClusterConfigFile } from "../../src/config/load-config";
import { problemsOf } from "../helpers/problems";

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
      flowLogs: { traffic: "REJECT", retentionDays: 90 },
    });
    expect(config.cluster).toEqual({
      // Private unless ranges are listed (CIS EKS 5.4.2).
      endpointPublicAccess: false,
      endpointPrivateAccess: true,
      publicAccessCidrs: [],
      logTypes: ["api", "audit", "authenticator", "controllerManager", "scheduler"],
      logRetentionDays: 90,
      adminPrincipalArns: [],
      creatorAdmin: true,
      upgradePolicy: "extended",
    });
    expect(config.coreDns).toEqual({ mode: "addon" });
    const overwrite = { resolveConflictsOnCreate: "OVERWRITE", resolveConflictsOnUpdate: "OVERWRITE" };
    expect(config.addons).toEqual({ "vpc-cni": { version: "default", ...overwrite }, "kube-proxy": { version: "default", ...overwrite } });
    expect(config.access).toEqual([]);
    expect(config.karpenter).toEqual({
      version: "1.14.1",
      namespace: "karpenter",
      replicas: 2,
      createSpotServiceLinkedRole: false,
      nodeSsm: false,
      logLevel: "info",
      kubernetesAuth: "token",
    });
    expect(config.backend).toEqual({ type: "local" });
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

describe("region and version", () => {
  it("rejects an unknown region", () => {
    expect(problems({ name: "demo", region: "us-east1" })).toEqual([
      'region: got "us-east1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)',
    ]);
  });

  it("rejects a Kubernetes version the pinned Karpenter does not support", () => {
    expect(problems({ name: "demo", kubernetesVersion: "1.28" })).toEqual([
      'kubernetesVersion: got "1.28"; must be a Kubernetes version supported by Karpenter 1.14.1 and EKS: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36',
    ]);
  });

  it("says when EKS stopped running a version it once offered", () => {
    expect(problems({ name: "demo", kubernetesVersion: "1.30" })).toEqual([
      `kubernetesVersion: got "1.30"; EKS's extended support for it ended on 2026-07-23 (EKS's calendar as of 2026-11-23): EKS creates no cluster on it; must be a Kubernetes version supported by Karpenter 1.14.1 and EKS: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36`,
    ]);
  });

  it("shows numbers too large to hold as what YAML made of them, not null", () => {
    expect(problems({ name: "demo", karpenter: { replicas: Number.POSITIVE_INFINITY } })).toEqual([
      "karpenter.replicas: got Infinity (a number too large to hold, such as 1e400); expected a number",
    ]);
    expect(problems({ name: "demo", karpenter: { replicas: Number.NaN } })).toEqual(["karpenter.replicas: got NaN (not a number); expected a number"]);
  });

  it("explains the YAML number trap for versions", () => {
    expect(problems({ name: "demo", kubernetesVersion: 1.3 })).toEqual([
      'kubernetesVersion: got 1.3; must be a quoted string such as "1.35" (YAML reads 1.30 as the number 1.3)',
    ]);
  });
});

describe("structure", () => {
  it("names unknown keys with the allowed ones", () => {
    expect(problems({ name: "demo", cluster: { endpointPublicAcess: false } })).toEqual([
      "cluster.endpointPublicAcess: unknown key; allowed keys: endpointPublicAccess, endpointPrivateAccess, publicAccessCidrs, logTypes, logRetentionDays, adminPrincipalArns, creatorAdmin, secretsKeyAdministrators, upgradePolicy (did you mean endpointPublicAccess?)",
    ]);
  });

  it("reports wrong types and enum values", () => {
    expect(problems({ name: "demo", karpenter: { replicas: "2" }, coreDns: { mode: "patch" } })).toEqual([
      'coreDns.mode: got "patch"; allowed: addon, lambda',
      'karpenter.replicas: got "2" (string); expected a number',
    ]);
  });

  it("reports every problem of a file at once", () => {
    expect(problems({ name: "bad name", region: "mars-1", network: { natGateways: "many" }, extra: true })).toEqual([
      `name: got "bad name"; must start with a letter or digit and contain only letters, digits, '-' and '_' (EKS cluster name rules)`,
      'region: got "mars-1"; must be an AWS region where EKS and Fargate run, such as us-east-1 or eu-west-1 (docs/configuration.md lists them)',
      'network.natGateways: got "many"; allowed: single, perAz',
      "extra: unknown key; allowed keys: name, region, kubernetesVersion, tags, network, cluster, access, fargate, coreDns, addons, karpenter, nodeClasses, nodePools, backend",
    ]);
  });

  it("rejects a node class role other than the cluster's node role", () => {
    expect(problems({ name: "demo", nodeClasses: [{ name: "default", role: "other-role" }] })).toEqual([
      `nodeClasses[0].role: got "other-role"; must be demo-karpenter-node or omitted: Karpenter may pass only this cluster's node roles, and only they may join the cluster`,
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

  it("refuses what readConfigDocument refuses, before validating", () => {
    const file = writeTemp("list.yaml", "- name: demo\n");
    expect(problemsOf(() => readClusterConfigFile(file))).toEqual([
      'the document is a list, not a mapping; a cluster config is a YAML or JSON mapping with at least a name, such as "name: my-cluster"',
    ]);
  });

  it("reports a missing file by the variable that named it", () => {
    expect(problemsOf(() => loadClusterConfig({ CLUSTER_CONFIG: "/nonexistent/cluster.yaml" }))).toEqual([
      "cannot read the cluster config (no such file or folder); CLUSTER_CONFIG must name a readable YAML or JSON file",
    ]);
  });
});
