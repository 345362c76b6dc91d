// A running cluster's state, made up but shaped like a real one, as `kubectl get ... -o json` prints it: two
// Karpenter NodePools (on-demand general purpose, and spot with Graviton) and a managed node group, nodes of
// several types across three zones (each Karpenter node with its NodeClaim) filled to 50-90% by Deployments of
// varied sizes (a zone spread, hostnames apart preferred or required on some), DaemonSets on every node (pinned
// there by their controller's node affinity),
// PodDisruptionBudgets (one in ten deployments has one, one in fifty allows no disruption), and CoreDNS on Fargate. Deterministic for a seed: the
// savings tests and `npm run bench` use it.

export interface GeneratedStateOptions {
  readonly nodes: number;
  /** Pods per node on average, DaemonSets aside. */
  readonly podsPerNode: number;
  readonly seed?: number;
}

type Json = Record<string, unknown>;

const ZONES = ["us-east-1a", "us-east-1b", "us-east-1c"];
/** name, vCPU, memory GiB, arch, pool (undefined: the node group). */
const TYPES: readonly [string, number, number, string, string | undefined][] = [
  ["m5.xlarge", 4, 16, "amd64", "general"],
  ["m5.2xlarge", 8, 32, "amd64", "general"],
  ["c5.2xlarge", 8, 16, "amd64", "general"],
  ["r5.xlarge", 4, 32, "amd64", "general"],
  ["m6g.xlarge", 4, 16, "arm64", "spot"],
  ["c6g.2xlarge", 8, 16, "arm64", "spot"],
  ["m5.large", 2, 8, "amd64", undefined],
];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function nodePool(name: string, capacityTypes: string[], archs: string[], weight: number): Json {
  return {
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name },
    spec: {
      weight,
      template: {
        spec: {
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
          requirements: [
            { key: "karpenter.sh/capacity-type", operator: "In", values: capacityTypes },
            { key: "kubernetes.io/arch", operator: "In", values: archs },
            { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
            { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["4"] },
          ],
        },
      },
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m", budgets: [{ nodes: "10%" }] },
      limits: { cpu: "4000", memory: "16000Gi" },
    },
  };
}

const pod = (
  name: string,
  namespace: string,
  node: string,
  owner: Json,
  labels: Json,
  cpu: number,
  memoryMi: number,
  extra: Json = {},
  scheduling: Json = {},
): Json => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, labels, ownerReferences: [{ apiVersion: "apps/v1", controller: true, ...owner }], ...extra },
  spec: {
    nodeName: node,
    ...scheduling,
    containers: [
      { name: "app", image: `registry.example/${namespace}/${String(labels.app)}:1.0`, resources: { requests: { cpu: `${cpu}m`, memory: `${memoryMi}Mi` } } },
    ],
  },
  status: { phase: "Running" },
});

/** The NodeClaim behind a Karpenter node, as Karpenter 1.x writes it once the node has initialized. */
function nodeClaim(name: string, nodeName: string, type: string, zone: string, labels: Json, cpuMillis: number, memoryMi: number): Json {
  const conditions = ["Launched", "Registered", "Initialized", "Ready"].map((t) => ({ type: t, status: "True", reason: t }));
  return {
    apiVersion: "karpenter.sh/v1",
    kind: "NodeClaim",
    metadata: { name, labels: { ...labels, "node.kubernetes.io/instance-type": type, "topology.kubernetes.io/zone": zone } },
    spec: { nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" }, requirements: [] },
    status: {
      nodeName,
      providerID: `aws:///${zone}/i-${name}`,
      allocatable: { cpu: `${cpuMillis}m`, memory: `${memoryMi}Mi`, pods: "58" },
      conditions,
    },
  };
}

/** A DaemonSet's pod as its controller creates it: pinned to its node by name, tolerating what a node's conditions taint. */
function daemonSetPod(name: string, daemonSet: string, node: string): Json {
  const made = pod(name, "kube-system", node, { kind: "DaemonSet", name: daemonSet }, { app: daemonSet }, 50, 64);
  const spec = made.spec as Json;
  spec.affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: [node] }] }],
      },
    },
  };
  spec.tolerations = [
    { operator: "Exists" },
    ...["not-ready", "unreachable"].map((t) => ({ key: `node.kubernetes.io/${t}`, operator: "Exists", effect: "NoExecute" })),
    ...["disk-pressure", "memory-pressure", "pid-pressure", "unschedulable", "network-unavailable"].map((t) => ({
      key: `node.kubernetes.io/${t}`,
      operator: "Exists",
      effect: "NoSchedule",
    })),
  ];
  return made;
}

/**
 * What Helm charts commonly ask of their replicas' placement, one Deployment in four each: a zone spread that
 * gives way (ScheduleAnyway), hostnames apart preferred, or required; the rest ask nothing.
 */
function schedulingOf(d: number, app: string): Json {
  const selector = { matchLabels: { app } };
  switch (d % 4) {
    case 1:
      return {
        topologySpreadConstraints: [{ maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "ScheduleAnyway", labelSelector: selector }],
      };
    case 2:
      return {
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 100, podAffinityTerm: { topologyKey: "kubernetes.io/hostname", labelSelector: selector } },
            ],
          },
        },
      };
    case 3:
      return d % 12 === 3
        ? {
            affinity: {
              podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/hostname", labelSelector: selector }] },
            },
          }
        : {};
    default:
      return {};
  }
}

/** The state as one kubectl List. */
export function generatedState(options: GeneratedStateOptions): Json {
  const next = random(options.seed ?? 7);
  const items: Json[] = [
    nodePool("general", ["on-demand"], ["amd64"], 0),
    nodePool("spot", ["spot"], ["amd64", "arm64"], 10),
    { apiVersion: "karpenter.k8s.aws/v1", kind: "EC2NodeClass", metadata: { name: "default" }, spec: { amiSelectorTerms: [{ alias: "al2023@latest" }] } },
  ];
  const free: { name: string; cpu: number; memory: number }[] = [];
  for (let i = 0; i < options.nodes; i++) {
    const [type, vcpu, gib, arch, pool] = TYPES[Math.floor(next() * TYPES.length)];
    const name = `ip-10-${Math.floor(i / 250)}-${i % 250}-${(i * 7) % 250}.ec2.internal`;
    const zone = ZONES[i % ZONES.length];
    const karpenter =
      pool === undefined
        ? { "eks.amazonaws.com/nodegroup": "system", "eks.amazonaws.com/capacityType": "ON_DEMAND" }
        : {
            "karpenter.sh/nodepool": pool,
            "karpenter.sh/registered": "true",
            "karpenter.sh/initialized": "true",
            "karpenter.sh/capacity-type": pool === "spot" ? "spot" : "on-demand",
          };
    const allocatableCpu = vcpu * 1000 - 90;
    const allocatableMi = gib * 1024 - 1100;
    items.push({
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name,
        labels: {
          "node.kubernetes.io/instance-type": type,
          "topology.kubernetes.io/zone": zone,
          "topology.kubernetes.io/region": "us-east-1",
          "kubernetes.io/arch": arch,
          "kubernetes.io/os": "linux",
          "kubernetes.io/hostname": name,
          ...karpenter,
        },
      },
      status: {
        allocatable: { cpu: `${allocatableCpu}m`, memory: `${allocatableMi}Mi`, pods: "58" },
        capacity: { cpu: String(vcpu), memory: `${gib * 1024 - 500}Mi`, pods: "58" },
        conditions: [{ type: "Ready", status: "True" }],
      },
    });
    if (pool !== undefined) items.push(nodeClaim(`${pool}-${i.toString(36)}`, name, type, zone, karpenter, allocatableCpu, allocatableMi));
    for (const ds of ["aws-node", "kube-proxy"]) items.push(daemonSetPod(`${ds}-${i.toString(36)}`, ds, name));
    // Filled to between 50% and 90% of its CPU.
    free.push({ name, cpu: Math.floor(allocatableCpu * (0.5 + 0.4 * next())), memory: Math.floor(allocatableMi * 0.85) });
  }
  const total = options.nodes * options.podsPerNode;
  let placed = 0;
  let cursor = 0;
  for (let d = 0; placed < total; d++) {
    const replicas = 1 + Math.floor(next() * 12);
    const cpu = 25 + Math.floor(next() * 8) * 25;
    const memoryMi = 64 + Math.floor(next() * 12) * 64;
    const namespace = `team-${d % 17}`;
    const app = `app-${d}`;
    const hash = (1_000_000 + d * 7919).toString(36);
    const doNotDisrupt = d % 97 === 0 ? { annotations: { "karpenter.sh/do-not-disrupt": "true" } } : {};
    const scheduling = schedulingOf(d, app);
    for (let r = 0; r < replicas && placed < total; r++) {
      let tries = 0;
      while (tries < free.length && (free[cursor].cpu < cpu || free[cursor].memory < memoryMi)) {
        cursor = (cursor + 1) % free.length;
        tries++;
      }
      if (tries === free.length) return withTail(items, d);
      const node = free[cursor];
      node.cpu -= cpu;
      node.memory -= memoryMi;
      items.push(
        pod(
          `${app}-${hash}-${r}`,
          namespace,
          node.name,
          { kind: "ReplicaSet", name: `${app}-${hash}` },
          { app, "pod-template-hash": hash },
          cpu,
          memoryMi,
          doNotDisrupt,
          scheduling,
        ),
      );
      placed++;
      cursor = (cursor + 1 + Math.floor(next() * 3)) % free.length;
    }
  }
  return withTail(items, Math.ceil(total / 6));
}

/** The PDBs of the first `deployments`, the DaemonSets, and CoreDNS on Fargate. */
function withTail(items: Json[], deployments: number): Json {
  for (let d = 0; d < deployments; d += 5) {
    const blocks = d % 50 === 0;
    items.push({
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: `app-${d}`, namespace: `team-${d % 17}` },
      spec: { maxUnavailable: blocks ? 0 : 1, selector: { matchLabels: { app: `app-${d}` } } },
      status: { disruptionsAllowed: blocks ? 0 : 1 },
    });
  }
  for (const ds of ["aws-node", "kube-proxy"]) {
    items.push({
      apiVersion: "apps/v1",
      kind: "DaemonSet",
      metadata: { name: ds, namespace: "kube-system" },
      spec: {
        template: {
          spec: { tolerations: [{ operator: "Exists" }], containers: [{ name: ds, image: "x", resources: { requests: { cpu: "50m", memory: "64Mi" } } }] },
        },
      },
    });
  }
  for (let i = 0; i < 2; i++) {
    const name = `fargate-ip-192-168-0-${i}.ec2.internal`;
    items.push({
      apiVersion: "v1",
      kind: "Node",
      metadata: { name, labels: { "eks.amazonaws.com/compute-type": "fargate", "topology.kubernetes.io/zone": ZONES[i] } },
    });
    items.push(
      pod(`coredns-${i}`, "kube-system", name, { kind: "ReplicaSet", name: "coredns-6f5c" }, { app: "coredns", "pod-template-hash": "6f5c" }, 250, 256, {
        annotations: { CapacityProvisioned: "0.25vCPU 0.5GB" },
      }),
    );
  }
  return { apiVersion: "v1", kind: "List", items };
}
