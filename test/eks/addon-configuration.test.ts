import * as path from "node:path";
import { configWarnings } from "../../src/config/config-warnings";
import { parseClusterConfig, readClusterConfigFile } from "../../src/config/load-config";
import { clusterModelOf } from "../../src/planner/cluster-model";
import { clusterProblems } from "../helpers/problems";
import { config, readStack, resourcesOfType, synthApp } from "../helpers/synth-app";

const MULTIARCH = path.join(__dirname, "../../clusters/multiarch.yaml");

/** Each add-on's rendered fields, by name. */
function addonsOf(fields: Record<string, unknown>) {
  const json = readStack(synthApp(config(fields)), "demo-cluster");
  return Object.fromEntries(
    resourcesOfType(json, "aws_eks_addon").map(([, a]) => [
      String(a.addon_name),
      {
        configuration: a.configuration_values === undefined ? undefined : String(a.configuration_values),
        onCreate: a.resolve_conflicts_on_create,
        onUpdate: a.resolve_conflicts_on_update,
      },
    ]),
  );
}

describe("add-on configuration", () => {
  it("passes each add-on's configurationValues as JSON in a fixed order, whatever the YAML's", () => {
    const a = addonsOf({ addons: { "kube-proxy": { configurationValues: { mode: "ipvs", ipvs: { scheduler: "rr" } } } } });
    const b = addonsOf({ addons: { "kube-proxy": { configurationValues: { ipvs: { scheduler: "rr" }, mode: "ipvs" } } } });
    expect(a["kube-proxy"].configuration).toBe('{"ipvs":{"scheduler":"rr"},"mode":"ipvs"}');
    expect(b["kube-proxy"].configuration).toBe(a["kube-proxy"].configuration);
  });

  it("keeps the bytes a cluster without configurationValues always had", () => {
    const addons = addonsOf({});
    expect(addons.coredns.configuration).toBe('{"computeType":"fargate","resources":{"requests":{"cpu":"0.25","memory":"256M"},"limits":{"memory":"256M"}}}');
    expect(addons["vpc-cni"].configuration).toBeUndefined();
  });

  it("lays CoreDNS's configuration over the project's: resources may change, computeType stays fargate", () => {
    const addons = addonsOf({ coreDns: { configurationValues: { replicaCount: 3, resources: { requests: { cpu: "0.5" } } } } });
    expect(JSON.parse(String(addons.coredns.configuration))).toEqual({
      computeType: "fargate",
      resources: { requests: { cpu: "0.5", memory: "256M" }, limits: { memory: "256M" } },
      replicaCount: 3,
    });
    expect(clusterProblems({ coreDns: { configurationValues: { computeType: "ec2" } } })).toEqual([
      'coreDns.configurationValues.computeType: got "ec2"; conflicts with the "fargate" this project sets: CoreDNS runs on Fargate: the cluster has no node until Karpenter launches one, and Karpenter needs DNS; remove it',
    ]);
    expect(clusterProblems({ coreDns: { configurationValues: { computeType: "fargate" } } })).toEqual([]);
  });

  it("refuses a vpc-cni value that undoes Windows IPAM, only when a Windows node class needs it", () => {
    const windows = { nodeClasses: [{ name: "default" }, { name: "win", amiAlias: "windows2022@latest" }] };
    const off = { addons: { "vpc-cni": { configurationValues: { enableWindowsIpam: "false" } } } };
    expect(clusterProblems({ ...windows, ...off })).toEqual([
      `addons.vpc-cni.configurationValues.enableWindowsIpam: got "false"; conflicts with the "true" this project sets: a Windows node class needs the VPC resource controller's Windows IPAM, which the vpc-cni add-on switches on; remove it`,
    ]);
    expect(clusterProblems(off)).toEqual([]);
    const merged = addonsOf({ ...windows, addons: { "vpc-cni": { configurationValues: { enableNetworkPolicy: "true" } } } });
    expect(merged["vpc-cni"].configuration).toBe('{"enableWindowsIpam":"true","enableNetworkPolicy":"true"}');
  });

  it("takes CoreDNS's configuration and resolve modes in add-on mode only", () => {
    expect(clusterProblems({ coreDns: { mode: "lambda", configurationValues: { replicaCount: 3 }, resolveConflictsOnUpdate: "PRESERVE" } })).toEqual([
      'coreDns.configurationValues: got {"replicaCount":3}; applies to mode addon only; in lambda mode CoreDNS stays the self-managed copy EKS installed',
      'coreDns.resolveConflictsOnUpdate: got "PRESERVE"; applies to mode addon only; in lambda mode CoreDNS stays the self-managed copy EKS installed',
    ]);
  });

  it("renders the resolve modes as configured, OVERWRITE by default", () => {
    const addons = addonsOf({
      addons: { "kube-proxy": { resolveConflictsOnCreate: "NONE", resolveConflictsOnUpdate: "PRESERVE" } },
      coreDns: { resolveConflictsOnUpdate: "PRESERVE" },
    });
    expect(addons["kube-proxy"]).toMatchObject({ onCreate: "NONE", onUpdate: "PRESERVE" });
    expect(addons.coredns).toMatchObject({ onCreate: "OVERWRITE", onUpdate: "PRESERVE" });
    expect(addons["vpc-cni"]).toMatchObject({ onCreate: "OVERWRITE", onUpdate: "OVERWRITE" });
    // PRESERVE exists for updates only (the provider refuses it on create).
    expect(clusterProblems({ addons: { "kube-proxy": { resolveConflictsOnCreate: "PRESERVE" } } })).toEqual([
      'addons.kube-proxy.resolveConflictsOnCreate: got "PRESERVE"; allowed: OVERWRITE, NONE',
    ]);
  });

  it("takes a mapping, not a list", () => {
    expect(clusterProblems({ addons: { "kube-proxy": { configurationValues: ["mode", "ipvs"] } } })).toEqual([
      'addons.kube-proxy.configurationValues: got ["mode","ipvs"] (a list); expected a mapping',
    ]);
  });
});

describe("add-on configuration against the dated published schemas", () => {
  it("refuses what every version's schema refuses: YAML booleans for string values, enum misses, wrong types, misspelt keys", () => {
    expect(
      clusterProblems({
        addons: {
          "vpc-cni": { configurationValues: { env: { ENABLE_PREFIX_DELEGATION: true, WARM_PREFIX_TARGET: 1 }, enableNetworkpolicy: "true" } },
          "kube-proxy": { configurationValues: { mode: "nftables" } },
        },
        coreDns: { configurationValues: { replicaCount: "3", autoScaling: { enabled: "yes" } } },
      }),
    ).toEqual([
      `addons.vpc-cni.configurationValues.env.ENABLE_PREFIX_DELEGATION: got true; must be the string "true" or "false": vpc-cni's schema takes it as a string, so EKS refuses a YAML true; quote it`,
      `addons.vpc-cni.configurationValues.env.WARM_PREFIX_TARGET: got 1; must be a whole number as a string, such as "1": vpc-cni's schema takes it as a string; quote it`,
      `addons.vpc-cni.configurationValues.enableNetworkpolicy: got "enableNetworkpolicy"; is not a key of vpc-cni's configuration; did you mean enableNetworkPolicy? (EKS refuses unknown keys)`,
      'addons.kube-proxy.configurationValues.mode: got "nftables"; must be one of iptables, ipvs',
      'coreDns.configurationValues.replicaCount: got "3"; must be a whole number, such as 2 (not quoted)',
      'coreDns.configurationValues.autoScaling.enabled: got "yes"; must be true or false (not quoted)',
    ]);
  });

  it("warns, without refusing, about a key the dated schema lacks: a later version may have it", () => {
    const fields = { addons: { "vpc-cni": { configurationValues: { nodeAgent: { logLevel: "debug" } } } } };
    expect(clusterProblems(fields)).toEqual([]);
    expect(configWarnings(config(fields)).filter((w) => w.startsWith("addons."))).toEqual([
      "addons.vpc-cni.configurationValues.nodeAgent.logLevel: is not in vpc-cni's configuration schema of v1.15.1-eksbuild.1 (ENABLE_SUBNET_DISCOVERY, NETWORK_POLICY_ENFORCING_MODE and POD_MTU from v1.18.5-eksbuild.1), as of 2024-10: EKS refuses it unless the version it installs has it (aws eks describe-addon-configuration --addon-name vpc-cni --addon-version <version> shows that version's)",
    ]);
  });

  it("refuses a key written one level up from where every version has it, and says where it goes", () => {
    // ENABLE_PREFIX_DELEGATION is an env variable of vpc-cni: at the closed root no version of the schema has it.
    expect(
      clusterProblems({ addons: { "vpc-cni": { configurationValues: { ENABLE_PREFIX_DELEGATION: "true", init: { DISABLE_TCP_EARLY_DEMUX: "true" } } } } }),
    ).toEqual([
      `addons.vpc-cni.configurationValues.ENABLE_PREFIX_DELEGATION: got "ENABLE_PREFIX_DELEGATION"; is not a key of vpc-cni's configuration at this level in any version; did you mean env.ENABLE_PREFIX_DELEGATION? (EKS refuses unknown keys)`,
      `addons.vpc-cni.configurationValues.init.DISABLE_TCP_EARLY_DEMUX: got "DISABLE_TCP_EARLY_DEMUX"; is not a key of vpc-cni's configuration at this level in any version; did you mean env.DISABLE_TCP_EARLY_DEMUX? (EKS refuses unknown keys)`,
    ]);
  });

  it("takes AWS's spelling of CoreDNS's computeType, Fargate, as the project's fargate", () => {
    expect(clusterProblems({ coreDns: { configurationValues: { computeType: "Fargate" } } })).toEqual([]);
  });

  it("does not check add-ons whose schema the project does not hold", () => {
    expect(clusterProblems({ addons: { "aws-ebs-csi-driver": { configurationValues: { defaultStorageClass: { enabled: true } } } } })).toEqual([]);
  });
});

describe("the talk's vpc-cni configuration (clusters/multiarch.yaml)", () => {
  const multiarch = readClusterConfigFile(MULTIARCH);

  it("renders the talk's values, and gives the cluster role the VPC resource controller that security groups for pods need", () => {
    const json = readStack(synthApp({ ...multiarch, name: "demo" }), "demo-cluster");
    const vpcCni = resourcesOfType(json, "aws_eks_addon").find(([, a]) => a.addon_name === "vpc-cni")?.[1];
    expect(JSON.parse(String(vpcCni?.configuration_values))).toEqual({
      env: { ENABLE_PREFIX_DELEGATION: "true", ENABLE_POD_ENI: "true", POD_SECURITY_GROUP_ENFORCING_MODE: "standard" },
      enableNetworkPolicy: "true",
      nodeAgent: { enablePolicyEventLogs: "true" },
    });
    const clusterPolicies = resourcesOfType(json, "aws_iam_role_policy_attachment")
      .filter(([id]) => id.startsWith("roles_cluster_"))
      .map(([, a]) => a.policy_arn);
    expect(clusterPolicies.sort()).toEqual(["arn:aws:iam::aws:policy/AmazonEKSClusterPolicy", "arn:aws:iam::aws:policy/AmazonEKSVPCResourceController"]);
  });

  it("sets maxPods, so prefix delegation earns no warning; without it, each Linux class gets one", () => {
    expect(configWarnings(multiarch).filter((w) => w.includes("PREFIX_DELEGATION"))).toEqual([]);
    const withoutMaxPods = parseClusterConfig({ ...structuredClone(rawMultiarch()), nodeClasses: [{ name: "default" }] }, "t.yaml");
    expect(configWarnings(withoutMaxPods).filter((w) => w.includes("PREFIX_DELEGATION"))).toEqual([
      "nodeClasses[0].kubelet.maxPods is unset while vpc-cni's ENABLE_PREFIX_DELEGATION is on: Karpenter gives each node the pod count of its network interfaces (29 on an m5.large), not what the prefixes allow, so nodes hold far fewer pods and more are launched (npm run plan counts the same); set kubelet.maxPods, 110 as EKS recommends (250 for types of more than 30 vCPUs)",
    ]);
  });

  it("plans the nodes with the class's maxPods", () => {
    const model = clusterModelOf(multiarch);
    expect(model.pools.map((p) => [p.name, p.nodeClass.name, p.nodeClass.kubelet.maxPods])).toEqual([
      ["default", "default", 110],
      ["graviton", "default", 110],
    ]);
  });
});

describe("CoreDNS's configuration in the plan", () => {
  it("plans the replicas and requests the configuration gives CoreDNS on Fargate", () => {
    const model = clusterModelOf(
      parseClusterConfig({ name: "demo", coreDns: { configurationValues: { replicaCount: 3, resources: { requests: { cpu: "0.5" } } } } }, "t"),
    );
    expect(model.fargateSystemPods.find((p) => p.name === "coredns")).toMatchObject({
      replicas: 3,
      requests: { cpuMillis: 500, memoryBytes: 256_000_000 },
      source: "coredns add-on configuration (3 x 0.5 CPU / 256M)",
    });
  });
});

function rawMultiarch(): Record<string, unknown> {
  return require("js-yaml").load(require("node:fs").readFileSync(MULTIARCH, "utf8"));
}
