import type { StateKindName } from "./state-kinds";

// What of each object the report keeps, and nothing else: a cluster of 150,000 pods sends over a gigabyte of
// JSON, most of it environment variables, probes, managed fields and statuses the report never reads; and a
// saved state (`--save`) must hold no more of a pod than its scheduling, its resources, its owner and its images.
// Each object is cut to this shape as its page arrives.

/** Which fields to keep: `true` keeps a value whole; a mapping keeps those keys; `ITEMS` keeps those of each list item. */
type Keep = true | { readonly [key: string]: Keep };

/** The key that stands for each item of a list. */
const ITEMS = "[]";
const OBJECT_NAME = { name: true, namespace: true, uid: true, creationTimestamp: true, deletionTimestamp: true } as const;

/** Annotations the report reads; the rest (last-applied configurations, checksums) can be large, and are not its. */
const KEPT_ANNOTATIONS = new Set([
  "karpenter.sh/do-not-disrupt",
  "kubernetes.io/config.mirror",
  "CapacityProvisioned",
  "controller.kubernetes.io/pod-deletion-cost",
  "storageclass.kubernetes.io/is-default-class",
  "volume.kubernetes.io/selected-node",
  "karpenter.sh/nodepool-hash",
]);

const CONTAINER = {
  [ITEMS]: {
    name: true,
    image: true,
    resources: true,
    restartPolicy: true,
    ports: { [ITEMS]: { containerPort: true, hostPort: true, hostIP: true, protocol: true } },
  },
} as const;

const SCHEDULING = {
  nodeName: true,
  nodeSelector: true,
  affinity: true,
  tolerations: true,
  topologySpreadConstraints: true,
  priority: true,
  priorityClassName: true,
  preemptionPolicy: true,
  schedulerName: true,
  hostNetwork: true,
  runtimeClassName: true,
  overhead: true,
  resources: true,
  containers: CONTAINER,
  initContainers: CONTAINER,
  volumes: { [ITEMS]: { name: true, persistentVolumeClaim: true, ephemeral: true } },
} as const;

const POD_METADATA = {
  ...OBJECT_NAME,
  labels: true,
  annotations: true,
  ownerReferences: { [ITEMS]: { apiVersion: true, kind: true, name: true, controller: true } },
} as const;

const KEEP: Readonly<Record<StateKindName, Keep>> = {
  Node: {
    metadata: { ...OBJECT_NAME, labels: true, annotations: true },
    spec: { taints: true, unschedulable: true, providerID: true },
    status: {
      capacity: true,
      allocatable: true,
      conditions: { [ITEMS]: { type: true, status: true } },
      nodeInfo: { architecture: true, kubeletVersion: true },
    },
  },
  // Its conditions say whether kube-scheduler marked it unschedulable (Karpenter provisions only then) and whether
  // it is ready (a budget's AlwaysAllow lets an unready pod go).
  Pod: {
    metadata: POD_METADATA,
    spec: SCHEDULING,
    status: { phase: true, nominatedNodeName: true, startTime: true, conditions: { [ITEMS]: { type: true, status: true, reason: true } } },
  },
  NodePool: { metadata: { ...OBJECT_NAME, annotations: true }, spec: true, status: { resources: true } },
  NodeClaim: {
    metadata: { ...OBJECT_NAME, labels: true, annotations: true },
    spec: { nodeClassRef: true, requirements: true, taints: true, startupTaints: true },
    status: { nodeName: true, providerID: true, capacity: true, allocatable: true, conditions: { [ITEMS]: { type: true, status: true } } },
  },
  EC2NodeClass: { metadata: OBJECT_NAME, spec: { kubelet: true, blockDeviceMappings: true, amiFamily: true, amiSelectorTerms: true, metadataOptions: true } },
  PodDisruptionBudget: {
    metadata: OBJECT_NAME,
    spec: true,
    status: { disruptionsAllowed: true, currentHealthy: true, desiredHealthy: true, expectedPods: true },
  },
  DaemonSet: { metadata: { ...OBJECT_NAME, labels: true }, spec: { template: { metadata: { labels: true }, spec: SCHEDULING } } },
  PersistentVolumeClaim: {
    metadata: OBJECT_NAME,
    spec: { storageClassName: true, volumeName: true, accessModes: true, resources: { requests: true } },
    status: { phase: true },
  },
  PersistentVolume: {
    metadata: OBJECT_NAME,
    // local and hostPath say the volume is on one host: its hostname requirement is then not the pod's (volume-topology.ts).
    spec: {
      nodeAffinity: true,
      storageClassName: true,
      claimRef: { name: true, namespace: true },
      capacity: true,
      accessModes: true,
      local: true,
      hostPath: true,
    },
  },
  StorageClass: { metadata: { ...OBJECT_NAME, annotations: true }, provisioner: true, volumeBindingMode: true, allowedTopologies: true },
};

/**
 * The object of a kind cut to what the report reads, with `kind` set (kubectl's list items may lack it) and its
 * `apiVersion` kept (it says which Karpenter API a NodePool is).
 */
export function trimObject(kind: StateKindName, object: unknown): Record<string, unknown> {
  const trimmed = keep(object, { ...(KEEP[kind] as Record<string, Keep>), apiVersion: true });
  const result = (isMapping(trimmed) ? trimmed : {}) as Record<string, unknown>;
  const annotations = (result.metadata as { annotations?: unknown } | undefined)?.annotations;
  if (isMapping(annotations)) {
    const kept = Object.fromEntries(Object.entries(annotations).filter(([key]) => KEPT_ANNOTATIONS.has(key)));
    (result.metadata as Record<string, unknown>).annotations = Object.keys(kept).length > 0 ? kept : undefined;
  }
  const { apiVersion, ...rest } = result;
  return { ...(apiVersion === undefined ? {} : { apiVersion }), kind, ...rest };
}

function keep(value: unknown, spec: Keep): unknown {
  if (spec === true) return value;
  const each = spec[ITEMS];
  if (each !== undefined) return Array.isArray(value) ? value.map((item) => keep(item, each)) : undefined;
  if (!isMapping(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const rule = spec[key];
    if (rule === undefined) continue;
    const kept = keep(item, rule);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
