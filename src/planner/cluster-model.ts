import type { ClusterConfig } from "../config/cluster-schema";
import { isFolder } from "../config/load-clusters";
import { CLUSTER_CONFIG_ENV, clusterConfigPath, loadClusterConfig, parseClusterConfig, readClusterConfigFile } from "../config/load-config";
import { configurationJson, projectAddonValues } from "../eks/addon-configuration";
import { COREDNS_RESOURCES } from "../eks/addon-settings";
import { EKS_SUPPORT_CALENDAR, supportPhase } from "../eks/kubernetes-version-support";
import { systemFargateProfiles } from "../fargate/fargate-config";
import { karpenterChartValues } from "../karpenter/kubernetes/chart-values";
import { goDurationNanos } from "../provisioners/go-duration";
import { clusterNodeClassContext, renderProvisioners } from "../provisioners/render-provisioners";
import { InputError } from "../shared/input-error";
import { bytes, cpuMillis, MIB } from "../shared/quantity";
import { LABEL } from "../shared/vocabulary/well-known-labels";
import type { ClusterModel, FargateProfileModel, NodeClassModel, PoolModel, SystemPods } from "./model";
import { nodeClassModel, poolModelOf } from "./node-pool-model";

// The planner's only door to the rest of the project. It reads the cluster config and the NodePools and
// EC2NodeClasses exactly as synth renders them (renderProvisioners, the call the Karpenter stack makes),
// plus what the stacks always create, and turns them into the planner's ClusterModel. Nothing else under
// src/planner imports from outside src/planner but the shared ground floor (src/shared) and the instance
// catalogue, so a layout change elsewhere touches this file only.
// test/planner/cluster-model.test.ts holds every value here against a real synth of the app.

/**
 * EKS's self-managed CoreDNS (what the Lambda mode keeps): 2 replicas requesting 100m CPU and 70Mi memory,
 * the requests of Kubernetes' CoreDNS add-on manifest that EKS installs at cluster creation.
 * @see https://github.com/kubernetes/kubernetes/blob/master/cluster/addons/dns/coredns/coredns.yaml.base
 * @see https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html
 */
const EKS_DEFAULT_COREDNS = { replicas: 2, requests: { cpu: "100m", memory: "70Mi" } } as const;

/**
 * The managed add-on's pods as the stack configures them: the configuration's `replicaCount` (or, with EKS's
 * CoreDNS autoscaling on, its `minReplicas`), else the add-on's default 2; its resource requests, else the
 * project's (0.25 vCPU / 256M).
 */
function addonCoreDns(config: ClusterConfig): {
  readonly replicas: number;
  readonly requests: { readonly cpu: string; readonly memory: string };
  readonly source: string;
} {
  const json = configurationJson(config.coreDns.configurationValues, projectAddonValues("coredns", { windowsNodes: false }));
  const values = (json === undefined ? {} : JSON.parse(json)) as {
    replicaCount?: number;
    autoScaling?: { enabled?: boolean; minReplicas?: number };
    resources?: { requests?: { cpu?: string; memory?: string } };
  };
  const replicas = values.replicaCount ?? (values.autoScaling?.enabled ? (values.autoScaling.minReplicas ?? 2) : 2);
  const requests = { cpu: values.resources?.requests?.cpu ?? "0", memory: values.resources?.requests?.memory ?? "0" };
  const defaults = JSON.stringify(requests) === JSON.stringify(COREDNS_RESOURCES.requests) && replicas === 2;
  return {
    replicas,
    requests,
    source: defaults
      ? "coredns add-on configuration (0.25 vCPU / 256M)"
      : `coredns add-on configuration (${replicas} x ${requests.cpu} CPU / ${requests.memory})`,
  };
}

/**
 * The DaemonSets EKS's vpc-cni and kube-proxy add-ons (src/eks/core-addons.ts) put on every node. aws-node
 * requests 25m for its aws-node container and 25m for the network policy agent (aws-eks-nodeagent), its
 * init container 25m: 50m in all; kube-proxy requests 100m. Neither requests memory.
 * @see https://github.com/aws/amazon-vpc-cni-k8s/blob/master/charts/aws-vpc-cni/values.yaml (resources, nodeAgent.resources)
 * @see https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html
 */
const NODE_DAEMON_SETS: readonly SystemPods[] = [
  {
    name: "aws-node",
    namespace: "kube-system",
    replicas: 1,
    requests: { cpuMillis: 50, memoryBytes: 0 },
    source: "EKS vpc-cni add-on: aws-node 25m + aws-eks-nodeagent 25m",
  },
  { name: "kube-proxy", namespace: "kube-system", replicas: 1, requests: { cpuMillis: 100, memoryBytes: 0 }, source: "EKS kube-proxy add-on: 100m" },
];

/**
 * The optional add-ons' pods. eks-pod-identity-agent: a DaemonSet whose chart requests nothing (it still takes
 * a pod slot on every node). aws-ebs-csi-driver: the node plugin DaemonSet runs 3 containers of 10m / 40Mi
 * (its sidecars inherit node.resources) and stays off a1 types; the controller, 2 replicas of 5 containers of
 * 10m / 40Mi (the snapshotter runs only where the snapshot CRDs are installed), runs in kube-system, on
 * Fargate. metrics-server: 1 replica of 100m / 200Mi, the upstream manifest's, on Fargate.
 * @see https://github.com/aws/eks-pod-identity-agent/blob/main/charts/eks-pod-identity-agent/values.yaml
 * @see https://github.com/kubernetes-sigs/aws-ebs-csi-driver/blob/master/charts/aws-ebs-csi-driver/values.yaml
 * @see https://github.com/kubernetes-sigs/metrics-server/releases (components.yaml)
 */
const ADDON_PODS = {
  "eks-pod-identity-agent": {
    daemonSet: {
      name: "eks-pod-identity-agent",
      namespace: "kube-system",
      replicas: 1,
      requests: { cpuMillis: 0, memoryBytes: 0 },
      source: "EKS eks-pod-identity-agent add-on: no requests",
    },
  },
  "aws-ebs-csi-driver": {
    daemonSet: {
      name: "ebs-csi-node",
      namespace: "kube-system",
      replicas: 1,
      requests: { cpuMillis: 30, memoryBytes: 120 * MIB },
      source: "EKS aws-ebs-csi-driver add-on: 3 containers of 10m / 40Mi",
      excludes: [{ key: LABEL.instanceFamily, operator: "NotIn", values: ["a1"] }],
    },
    fargate: {
      name: "ebs-csi-controller",
      namespace: "kube-system",
      replicas: 2,
      requests: { cpuMillis: 50, memoryBytes: 200 * MIB },
      source: "EKS aws-ebs-csi-driver add-on: 5 containers of 10m / 40Mi",
    },
  },
  "metrics-server": {
    fargate: {
      name: "metrics-server",
      namespace: "kube-system",
      replicas: 1,
      requests: { cpuMillis: 100, memoryBytes: 200 * MIB },
      source: "metrics-server manifest (100m / 200Mi)",
    },
  },
} as const satisfies Record<string, { readonly daemonSet?: SystemPods; readonly fargate?: SystemPods }>;

/** The pods of the optional add-ons the config installs, by where they run. */
function addonPods(config: ClusterConfig, where: "daemonSet" | "fargate"): SystemPods[] {
  return (Object.keys(ADDON_PODS) as (keyof typeof ADDON_PODS)[]).flatMap((name) => {
    const pods = (ADDON_PODS[name] as { readonly daemonSet?: SystemPods; readonly fargate?: SystemPods })[where];
    return config.addons[name] !== undefined && pods !== undefined ? [pods] : [];
  });
}

/**
 * The support tier the control plane is billed at, on the date of EKS's calendar (a version past standard
 * support is billed extended support whatever the upgradePolicy), and the day standard support ends.
 */
function controlPlaneSupport(config: ClusterConfig): Pick<ClusterModel, "controlPlaneSupport" | "standardSupportEnds" | "standardSupportEndsIsEstimate"> {
  const phase = supportPhase(config.kubernetesVersion);
  return {
    controlPlaneSupport: phase === "standard" ? "standard" : "extended",
    standardSupportEnds: EKS_SUPPORT_CALENDAR[config.kubernetesVersion].endOfStandardSupport,
    standardSupportEndsIsEstimate: EKS_SUPPORT_CALENDAR[config.kubernetesVersion].estimate !== undefined,
  };
}

/** Seconds of a Go duration the config validated, or undefined when it is not set. */
function secondsOf(duration: string | undefined): number | undefined {
  const nanos = duration === undefined ? undefined : goDurationNanos(duration);
  return nanos === undefined ? undefined : Number(nanos) / 1e9;
}

function resources(requests: { readonly cpu: string; readonly memory: string }): SystemPods["requests"] {
  return { cpuMillis: cpuMillis(requests.cpu) ?? 0, memoryBytes: bytes(requests.memory) ?? 0 };
}

function fargateSystemPods(config: ClusterConfig): SystemPods[] {
  const coreDns = config.coreDns.mode === "addon" ? addonCoreDns(config) : { ...EKS_DEFAULT_COREDNS, source: "EKS's default CoreDNS Deployment (100m / 70Mi)" };
  // The chart values synth writes; the endpoint, role and queue do not change resources.
  const chart = karpenterChartValues({
    clusterName: config.name,
    region: config.region,
    settings: config.karpenter,
    clusterEndpoint: "",
    controllerRoleArn: "",
    interruptionQueueName: "",
  });
  const karpenterRequests = chart.controller.resources.requests;
  return [
    { name: "coredns", namespace: "kube-system", replicas: coreDns.replicas, requests: resources(coreDns.requests), source: coreDns.source },
    {
      name: "karpenter",
      namespace: config.karpenter.namespace,
      replicas: chart.replicas,
      requests: resources(karpenterRequests),
      source: `Karpenter chart values (requests ${karpenterRequests.cpu} CPU / ${karpenterRequests.memory})`,
    },
    ...addonPods(config, "fargate"),
  ];
}

/** The profiles ClusterStack creates: the system ones (the same function), then the config's. */
function fargateProfiles(config: ClusterConfig): FargateProfileModel[] {
  const system = systemFargateProfiles(config.karpenter.namespace);
  return [system.kubeSystem, ...(system.karpenter ? [system.karpenter] : []), ...config.fargate.profiles].map((p) => ({
    name: p.name,
    selectors: p.namespaces.map((ns) => ({ namespace: ns, labels: { ...p.labels } })),
  }));
}

function natGateways(config: ClusterConfig): number {
  if (config.network.kind === "existing") return 0;
  return config.network.natGateways === "perAz" ? config.network.availabilityZones.length : 1;
}

/** The planner's model of a validated config. */
export function clusterModelOf(config: ClusterConfig): ClusterModel {
  const rendered = renderProvisioners(config, clusterNodeClassContext(config));
  const classes = new Map(rendered.nodeClasses.map((c) => [c.object.metadata.name, nodeClassModel(c.object)]));
  const pools: PoolModel[] = rendered.nodePools.map(({ object, nodeClassName }) => poolModelOf(object, classes.get(nodeClassName) as NodeClassModel));
  return {
    name: config.name,
    region: config.region,
    zones: config.network.kind === "new" ? [...config.network.availabilityZones] : undefined,
    zoneCount: config.network.kind === "new" ? config.network.availabilityZones.length : config.network.privateSubnetIds.length,
    pools,
    fargateProfiles: fargateProfiles(config),
    fargateSystemPods: fargateSystemPods(config),
    nodeDaemonSets: [...NODE_DAEMON_SETS, ...addonPods(config, "daemonSet")],
    natGateways: natGateways(config),
    provisioningBatch: { idleSeconds: secondsOf(config.karpenter.batchIdleDuration), maxSeconds: secondsOf(config.karpenter.batchMaxDuration) },
    flowLogTraffic: config.network.kind === "new" ? config.network.flowLogs?.traffic : undefined,
    ...controlPlaneSupport(config),
    upgradePolicy: config.cluster.upgradePolicy,
    kubernetesVersion: config.kubernetesVersion,
  };
}

/** The model of a config document (already parsed YAML or an object), validated as synth validates it. */
export function clusterModelFromDocument(document: unknown, source: string): ClusterModel {
  return clusterModelOf(parseClusterConfig(document, source));
}

/**
 * The cluster the plan is for: the file given, else CLUSTER_CONFIG (what synth reads), else the embedded
 * default. Config mistakes throw the config's own InputError.
 */
export function loadClusterModel(configPath: string | undefined, env: NodeJS.ProcessEnv): { readonly model: ClusterModel; readonly source: string } {
  if (configPath !== undefined) return { model: clusterModelOf(readClusterConfigFile(configPath)), source: configPath };
  const fromEnv = clusterConfigPath(env);
  if (fromEnv && isFolder(fromEnv)) {
    throw new InputError(fromEnv, [`is a fleet folder (${CLUSTER_CONFIG_ENV}); a plan is for one cluster: name its file with --config`]);
  }
  return { model: clusterModelOf(loadClusterConfig(env)), source: fromEnv ? fromEnv : "embedded default cluster" };
}
