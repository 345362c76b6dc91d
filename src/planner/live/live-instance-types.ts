import type { InstanceTypeInfo } from "@aws-sdk/client-ec2";
import { allocatableOf, amiFamilyFlags, eniLimitedPods } from "../../instance-catalogue/allocatable";
import type { CatalogueRow } from "../../instance-catalogue/catalogue-file";
import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import { MIB } from "../../shared/quantity";
import { awsLabel, LABEL } from "../../shared/vocabulary/well-known-labels";

// EC2's DescribeInstanceTypes answer into catalogue rows, with the labels Karpenter derives from it
// (types.go, computeRequirements) and the allocatable resources it computes (src/instance-catalogue/allocatable.ts).
// Two facts are not in the API: Karpenter's network-bandwidth table and the pod-ENI (trunking) limits. For
// a type the committed catalogue knows they are carried over from it; a new type goes without them.

/** Karpenter's instanceTypeScheme: category, optional "-<n>tb" (u-6tb1), generation. */
const INSTANCE_TYPE_SCHEME = /(^[a-z]+)(-[0-9]+tb)?([0-9]+).*\./;

const ARCHITECTURES: Readonly<Record<string, string>> = { x86_64: "amd64", arm64: "arm64" };

const lowerKebab = (s: string | undefined) => (s ?? "").replace(/ /g, "-").toLowerCase();

function labelsOf(info: InstanceTypeInfo, arch: string, known: InstanceCatalogue | undefined): Record<string, string> {
  const name = info.InstanceType as string;
  const [family, size] = name.split(".");
  const labels: Record<string, string> = {
    [LABEL.instanceType]: name,
    [LABEL.arch]: arch,
    [LABEL.os]: "linux",
    [awsLabel("instance-cpu")]: String(info.VCpuInfo?.DefaultVCpus ?? 0),
    [awsLabel("instance-memory")]: String(info.MemoryInfo?.SizeInMiB ?? 0),
    [awsLabel("instance-hypervisor")]: info.Hypervisor ?? "",
    [awsLabel("instance-encryption-in-transit-supported")]: String(info.NetworkInfo?.EncryptionInTransitSupported ?? false),
    [awsLabel("instance-capability-flex")]: String(family.includes("-flex")),
  };
  const scheme = INSTANCE_TYPE_SCHEME.exec(name);
  if (scheme !== null) {
    labels[awsLabel("instance-category")] = scheme[1];
    labels[awsLabel("instance-generation")] = scheme[3];
  }
  if (size !== undefined) {
    labels[awsLabel("instance-family")] = family;
    labels[awsLabel("instance-size")] = size;
  }
  const storage = info.InstanceStorageInfo;
  if (storage !== undefined && storage.NvmeSupport !== "unsupported" && storage.TotalSizeInGB !== undefined) {
    labels[awsLabel("instance-local-nvme")] = String(storage.TotalSizeInGB);
  }
  const gpus = info.GpuInfo?.Gpus ?? [];
  if (gpus.length === 1) {
    labels[awsLabel("instance-gpu-name")] = lowerKebab(gpus[0].Name);
    labels[awsLabel("instance-gpu-manufacturer")] = lowerKebab(gpus[0].Manufacturer);
    labels[awsLabel("instance-gpu-count")] = String(gpus[0].Count ?? 0);
    labels[awsLabel("instance-gpu-memory")] = String(gpus[0].MemoryInfo?.SizeInMiB ?? 0);
  }
  const accelerators = info.InferenceAcceleratorInfo?.Accelerators ?? [];
  const neuron = info.NeuronInfo?.NeuronDevices ?? [];
  if (neuron.length === 1) {
    labels[awsLabel("instance-accelerator-name")] = lowerKebab(neuron[0].Name);
    labels[awsLabel("instance-accelerator-manufacturer")] = "aws";
    labels[awsLabel("instance-accelerator-count")] = String(neuron[0].Count ?? 0);
  } else if (accelerators.length === 1) {
    labels[awsLabel("instance-accelerator-name")] = lowerKebab(accelerators[0].Name);
    labels[awsLabel("instance-accelerator-manufacturer")] = lowerKebab(accelerators[0].Manufacturer);
    labels[awsLabel("instance-accelerator-count")] = String(accelerators[0].Count ?? 0);
  }
  if (info.ProcessorInfo !== undefined) {
    labels[awsLabel("instance-cpu-manufacturer")] = lowerKebab(info.ProcessorInfo.Manufacturer);
    labels[awsLabel("instance-cpu-sustained-clock-speed-mhz")] = String(Math.round((info.ProcessorInfo.SustainedClockSpeedInGhz ?? 0) * 1000));
  }
  const ebs = info.EbsInfo;
  if (ebs?.EbsOptimizedSupport === "default" && ebs.EbsOptimizedInfo !== undefined) {
    labels[awsLabel("instance-ebs-bandwidth")] = String(ebs.EbsOptimizedInfo.MaximumBandwidthInMbps ?? 0);
  }
  const bandwidth = known?.type(name)?.labels[awsLabel("instance-network-bandwidth")];
  if (bandwidth !== undefined) labels[awsLabel("instance-network-bandwidth")] = bandwidth;
  return labels;
}

function extendedOf(info: InstanceTypeInfo, known: InstanceCatalogue | undefined): Record<string, number> {
  const gpus = info.GpuInfo?.Gpus ?? [];
  const count = (manufacturer: string) => gpus.filter((g) => g.Manufacturer === manufacturer).reduce((n, g) => n + (g.Count ?? 0), 0);
  const neuron = info.NeuronInfo?.NeuronDevices ?? [];
  return {
    "nvidia.com/gpu": count("NVIDIA"),
    "amd.com/gpu": count("AMD"),
    "habana.ai/gaudi": count("Habana"),
    "aws.amazon.com/neuron": neuron.reduce((n, d) => n + (d.Count ?? 0), 0),
    "aws.amazon.com/neuroncore": neuron.length === 0 ? 0 : (neuron[0].Count ?? 0) * (neuron[0].CoreInfo?.Count ?? 0),
    "vpc.amazonaws.com/efa": info.NetworkInfo?.EfaInfo?.MaximumEfaInterfaces ?? 0,
    "vpc.amazonaws.com/pod-eni": known?.type(info.InstanceType as string)?.extendedResources["vpc.amazonaws.com/pod-eni"] ?? 0,
  };
}

/** The ENIs the VPC CNI may use: those of the default network card (ENILimitedPods). */
function podLimit(info: InstanceTypeInfo): number {
  const network = info.NetworkInfo;
  const card = network?.NetworkCards?.find((c) => c.NetworkCardIndex === (network.DefaultNetworkCardIndex ?? 0));
  return eniLimitedPods(card?.MaximumNetworkInterfaces ?? network?.MaximumNetworkInterfaces ?? 0, network?.Ipv4AddressesPerInterface ?? 0);
}

/**
 * Catalogue rows in the given label and resource column order. Types Karpenter cannot launch (Mac
 * architectures, no usage class it knows) are left out, as Karpenter leaves them out.
 */
export function rowsFromInstanceTypes(
  infos: readonly InstanceTypeInfo[],
  labelKeys: readonly string[],
  resourceKeys: readonly string[],
  known: InstanceCatalogue | undefined,
): CatalogueRow[] {
  const rows: CatalogueRow[] = [];
  for (const info of infos) {
    const name = info.InstanceType;
    const arch = (info.ProcessorInfo?.SupportedArchitectures ?? []).map((a) => ARCHITECTURES[a]).find((a) => a !== undefined);
    const usage = info.SupportedUsageClasses ?? [];
    if (name === undefined || arch === undefined || !usage.some((u) => u === "on-demand" || u === "spot")) continue;
    const labels = labelsOf(info, arch, known);
    const capacity = { vcpu: info.VCpuInfo?.DefaultVCpus ?? 0, memoryMiB: info.MemoryInfo?.SizeInMiB ?? 0, arch, eniLimitedPods: podLimit(info) };
    const allocatable = allocatableOf(capacity, amiFamilyFlags("AL2023"));
    const extended = extendedOf(info, known);
    rows.push([
      name,
      labelKeys.map((k) => labels[k] ?? null),
      [capacity.vcpu, capacity.memoryMiB, capacity.eniLimitedPods],
      [allocatable.cpuMillis, allocatable.memoryBytes / MIB, allocatable.pods],
      resourceKeys.map((k) => extended[k] ?? 0),
    ]);
  }
  return rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
