// The node labels Kubernetes and Karpenter define, each spelt once: NodePool rendering, synth's checks, the
// instance catalogue and the planner read their keys from here.
// @see https://kubernetes.io/docs/reference/labels-annotations-taints/
// @see https://karpenter.sh/docs/reference/instance-types/ (the karpenter.k8s.aws labels of each type)

export const LABEL = {
  // Kubernetes
  arch: "kubernetes.io/arch",
  os: "kubernetes.io/os",
  hostname: "kubernetes.io/hostname",
  instanceType: "node.kubernetes.io/instance-type",
  windowsBuild: "node.kubernetes.io/windows-build",
  zone: "topology.kubernetes.io/zone",
  region: "topology.kubernetes.io/region",
  // Karpenter core
  capacityType: "karpenter.sh/capacity-type",
  nodePool: "karpenter.sh/nodepool",
  // Karpenter's AWS provider
  nodeClass: "karpenter.k8s.aws/ec2nodeclass",
  zoneId: "topology.k8s.aws/zone-id",
  instanceCategory: "karpenter.k8s.aws/instance-category",
  instanceFamily: "karpenter.k8s.aws/instance-family",
  instanceSize: "karpenter.k8s.aws/instance-size",
  instanceGeneration: "karpenter.k8s.aws/instance-generation",
  instanceCpu: "karpenter.k8s.aws/instance-cpu",
  instanceMemory: "karpenter.k8s.aws/instance-memory",
  instanceGpuCount: "karpenter.k8s.aws/instance-gpu-count",
  instanceTenancy: "karpenter.k8s.aws/instance-tenancy",
} as const;

export type WellKnownLabel = (typeof LABEL)[keyof typeof LABEL];

/**
 * The deprecated keys Kubernetes still accepts and the current key each names. Karpenter rewrites them in every
 * pod requirement (node selector, node affinity) before it schedules, so a pod that selects
 * `beta.kubernetes.io/os: linux` plans as one that selects `kubernetes.io/os: linux`.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/apis/v1/labels.go (NormalizedLabels), pkg/scheduling/requirement.go (NewRequirement)
 */
export const DEPRECATED_LABELS: Readonly<Record<string, WellKnownLabel>> = {
  "failure-domain.beta.kubernetes.io/zone": LABEL.zone,
  "beta.kubernetes.io/arch": LABEL.arch,
  "beta.kubernetes.io/os": LABEL.os,
  "beta.kubernetes.io/instance-type": LABEL.instanceType,
  "failure-domain.beta.kubernetes.io/region": LABEL.region,
};

/** The current key for a deprecated one (DEPRECATED_LABELS); any other key as it is. */
export const normalizedLabel = (key: string): string => DEPRECATED_LABELS[key] ?? key;

/**
 * The karpenter.k8s.aws labels a NodePool may use (the AWS provider's WellKnownLabels, v1.14.1
 * pkg/apis/v1/labels.go); the CRD restricts every other key of that domain.
 */
const AWS_LABEL_NAMES = [
  "instance-tenancy",
  "capacity-reservation-type",
  "capacity-reservation-id",
  "capacity-reservation-interruptible",
  "ec2nodeclass",
  "instance-encryption-in-transit-supported",
  "nitro-sandbox",
  "instance-category",
  "instance-hypervisor",
  "instance-family",
  "instance-generation",
  "instance-local-nvme",
  "instance-size",
  "instance-cpu",
  "instance-cpu-manufacturer",
  "instance-cpu-sustained-clock-speed-mhz",
  "instance-memory",
  "instance-ebs-bandwidth",
  "instance-network-bandwidth",
  "instance-gpu-name",
  "instance-gpu-manufacturer",
  "instance-gpu-count",
  "instance-gpu-memory",
  "instance-accelerator-name",
  "instance-accelerator-manufacturer",
  "instance-accelerator-count",
  "instance-capability-flex",
  "placement-group-id",
  "placement-group-partition",
] as const;

export type AwsLabelName = (typeof AWS_LABEL_NAMES)[number];

/** A karpenter.k8s.aws label by its name ("instance-gpu-count"), typed so that a misspelt one does not compile. */
export const awsLabel = <N extends AwsLabelName>(name: N): `karpenter.k8s.aws/${N}` => `karpenter.k8s.aws/${name}`;

export const WELL_KNOWN_AWS_LABELS: readonly string[] = AWS_LABEL_NAMES.map(awsLabel);
