import { bytes, cpuMillis, MIB } from "../shared/quantity";

// What Karpenter 1.14 subtracts from an instance type's capacity before it packs pods, so that the planner
// sees the same allocatable cpu, memory and pods that Karpenter schedules against. Ported from
// karpenter-provider-aws pkg/providers/instancetype/types.go (memory, pods, ENILimitedPods,
// kubeReservedResources, evictionThreshold) and pkg/providers/amifamily (FeatureFlags).
// test/instance-catalogue/allocatable.test.ts reproduces the reference's allocatable for all 1,336 instance types.
// @see https://github.com/aws/karpenter-provider-aws/blob/v1.14.1/pkg/providers/instancetype/types.go

/** Karpenter's --vm-memory-overhead-percent default: EC2 reports more memory than the guest OS sees. */
export const VM_MEMORY_OVERHEAD_PERCENT = 0.075;

/** Graviton instances reserve 64 MiB of CMA memory that the OS cannot use (types.go, memory()). */
const GRAVITON_CMA_MIB = 64;

/** kubelet's default hard eviction threshold for memory.available. */
const DEFAULT_EVICTION_MEMORY = 100 * MIB;

/** The pod density when neither maxPods nor ENI-limited density applies (Windows). */
const DEFAULT_MAX_PODS = 110;

/**
 * kube-reserved CPU, from the Bottlerocket/EKS AMI ladder: 6% of the first core, 1% of the second, 0.5% of
 * the next two, 0.25% of every core above four. Each tier is truncated to whole millicores, as Go's
 * int64(r*percentage) does.
 */
const CPU_TIERS = [
  { start: 0, end: 1000, percentage: 0.06 },
  { start: 1000, end: 2000, percentage: 0.01 },
  { start: 2000, end: 4000, percentage: 0.005 },
  { start: 4000, end: 2 ** 31, percentage: 0.0025 },
] as const;

/** What an instance type brings, before any overhead. */
export interface InstanceCapacity {
  readonly vcpu: number;
  /** EC2's MemoryInfo.SizeInMiB (the instance-memory label). */
  readonly memoryMiB: number;
  readonly arch: string;
  /** The VPC CNI's pod limit from ENIs and IPv4 addresses per ENI (ENILimitedPods). */
  readonly eniLimitedPods: number;
}

/** The node class's kubelet block: only the fields that change allocatable resources. */
export interface KubeletSettings {
  readonly maxPods?: number;
  readonly podsPerCore?: number;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly kubeReserved?: Readonly<Record<string, string>>;
  readonly evictionHard?: Readonly<Record<string, string>>;
}

/** What differs between AMI families (amifamily FeatureFlags). */
export interface AmiFamilyFlags {
  /** kube-reserved memory is sized from the ENI-limited pod count even when maxPods says otherwise. */
  readonly usesEniLimitedMemoryOverhead: boolean;
  readonly podsPerCoreEnabled: boolean;
  readonly supportsEniLimitedPodDensity: boolean;
}

/**
 * AL2, AL2023 and Custom inherit DefaultFamily's flags; Bottlerocket and Windows override them.
 * @see https://github.com/aws/karpenter-provider-aws/blob/v1.14.1/pkg/providers/amifamily/resolver.go
 */
export function amiFamilyFlags(amiFamily: string): AmiFamilyFlags {
  if (amiFamily === "Bottlerocket") return { usesEniLimitedMemoryOverhead: false, podsPerCoreEnabled: false, supportsEniLimitedPodDensity: true };
  if (amiFamily.startsWith("Windows")) return { usesEniLimitedMemoryOverhead: false, podsPerCoreEnabled: true, supportsEniLimitedPodDensity: false };
  return { usesEniLimitedMemoryOverhead: true, podsPerCoreEnabled: true, supportsEniLimitedPodDensity: true };
}

export interface Allocatable {
  readonly cpuMillis: number;
  readonly memoryBytes: number;
  readonly pods: number;
}

/** Memory after the VM overhead, in MiB: what the node reports as capacity. */
export function memoryCapacityMiB(capacity: InstanceCapacity): number {
  const mib = capacity.memoryMiB - (capacity.arch === "arm64" ? GRAVITON_CMA_MIB : 0);
  // The same float64 operations in the same order as Go's math.Ceil(float64(mem.Value())*percent/1024/1024).
  return mib - Math.ceil((mib * MIB * VM_MEMORY_OVERHEAD_PERCENT) / 1024 / 1024);
}

/** The pods a node of this type admits (pods()). */
export function maxPodsOf(capacity: InstanceCapacity, flags: AmiFamilyFlags, kubelet: KubeletSettings = {}): number {
  let count = kubelet.maxPods ?? (flags.supportsEniLimitedPodDensity ? capacity.eniLimitedPods : DEFAULT_MAX_PODS);
  if ((kubelet.podsPerCore ?? 0) > 0 && flags.podsPerCoreEnabled) count = Math.min(count, (kubelet.podsPerCore ?? 0) * capacity.vcpu);
  return count;
}

function kubeReservedCpuMillis(vcpu: number): number {
  const cpu = vcpu * 1000;
  let reserved = 0;
  for (const tier of CPU_TIERS) {
    if (cpu < tier.start) continue;
    reserved += Math.trunc((Math.min(cpu, tier.end) - tier.start) * tier.percentage);
  }
  return reserved;
}

/** An eviction signal: a percentage of the capacity (rounded up; 100% disables it) or a quantity. */
function evictionSignalBytes(capacityBytes: number, signal: string): number {
  if (signal.endsWith("%")) {
    const percent = Number(signal.slice(0, -1));
    return percent === 100 ? 0 : Math.ceil((capacityBytes / 100) * percent);
  }
  return bytes(signal) ?? 0;
}

const quantityOr = (text: string | undefined, convert: (t: string) => number | undefined, fallback: number): number =>
  text === undefined ? fallback : (convert(text) ?? fallback);

/**
 * Allocatable = capacity - kube-reserved - system-reserved - eviction threshold, per resource, as
 * Karpenter computes it for scheduling (ephemeral storage, which does not depend on the type: ephemeralStorageAllocatable).
 */
export function allocatableOf(capacity: InstanceCapacity, flags: AmiFamilyFlags, kubelet: KubeletSettings = {}): Allocatable {
  const pods = maxPodsOf(capacity, flags, kubelet);
  const memoryCapacity = memoryCapacityMiB(capacity) * MIB;

  const podsForMemory = flags.usesEniLimitedMemoryOverhead ? capacity.eniLimitedPods : pods;
  const kubeCpu = quantityOr(kubelet.kubeReserved?.cpu, cpuMillis, kubeReservedCpuMillis(capacity.vcpu));
  const kubeMemory = quantityOr(kubelet.kubeReserved?.memory, bytes, (11 * podsForMemory + 255) * MIB);
  const systemCpu = quantityOr(kubelet.systemReserved?.cpu, cpuMillis, 0);
  const systemMemory = quantityOr(kubelet.systemReserved?.memory, bytes, 0);
  const evictionSignal = kubelet.evictionHard?.["memory.available"];
  const evictionMemory = evictionSignal === undefined ? DEFAULT_EVICTION_MEMORY : evictionSignalBytes(memoryCapacity, evictionSignal);

  return {
    cpuMillis: Math.max(0, capacity.vcpu * 1000 - kubeCpu - systemCpu),
    memoryBytes: Math.max(0, memoryCapacity - kubeMemory - systemMemory - evictionMemory),
    pods,
  };
}

/** kubelet's kube-reserved ephemeral storage unless the node class says otherwise (types.go kubeReservedResources). */
const DEFAULT_KUBE_RESERVED_STORAGE = "1Gi";

/** kubelet's hard eviction threshold for nodefs.available unless the node class says otherwise (types.go evictionThreshold). */
const DEFAULT_EVICTION_NODEFS = "10%";

/**
 * The ephemeral storage a node offers pods, from what its node class gives kubelet (the root volume's size, in
 * bytes): less kube-reserved (1Gi), system-reserved and the nodefs.available eviction threshold (10%), as
 * Karpenter computes it for every instance type alike.
 */
export function ephemeralStorageAllocatable(capacityBytes: number, kubelet: KubeletSettings = {}): number {
  const kube = quantityOr(kubelet.kubeReserved?.["ephemeral-storage"] ?? DEFAULT_KUBE_RESERVED_STORAGE, bytes, 0);
  const system = quantityOr(kubelet.systemReserved?.["ephemeral-storage"], bytes, 0);
  const eviction = evictionSignalBytes(capacityBytes, kubelet.evictionHard?.["nodefs.available"] ?? DEFAULT_EVICTION_NODEFS);
  return Math.max(0, capacityBytes - kube - system - eviction);
}

/**
 * The ENI-limited pod count from EC2's network facts: ENIs on the default network card times (IPv4
 * addresses per ENI - 1), plus 2 for the host-network pods (aws-node, kube-proxy).
 * @see https://github.com/awslabs/amazon-eks-ami/blob/main/templates/shared/runtime/eni-max-pods.txt
 */
export function eniLimitedPods(maximumNetworkInterfaces: number, ipv4AddressesPerInterface: number, reservedEnis = 0): number {
  const usable = Math.max(maximumNetworkInterfaces - reservedEnis, 0);
  return usable === 0 ? 0 : usable * (ipv4AddressesPerInterface - 1) + 2;
}

/** True when a kubelet block changes nothing the planner computes; the catalogue's values then apply as they are. */
export function isDefaultKubelet(kubelet: KubeletSettings): boolean {
  return (
    kubelet.maxPods === undefined &&
    (kubelet.podsPerCore ?? 0) === 0 &&
    kubelet.systemReserved === undefined &&
    kubelet.kubeReserved === undefined &&
    kubelet.evictionHard?.["memory.available"] === undefined
  );
}
