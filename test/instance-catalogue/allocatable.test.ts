import { allocatableOf, amiFamilyFlags, eniLimitedPods, ephemeralStorageAllocatable, maxPodsOf } from "../../src/instance-catalogue/allocatable";
import { loadInstanceCatalogue } from "../../src/instance-catalogue/instance-catalogue";

const MIB = 1024 * 1024;
const AL2023 = amiFamilyFlags("AL2023");
const BOTTLEROCKET = amiFamilyFlags("Bottlerocket");
const WINDOWS = amiFamilyFlags("Windows2022");

/** m5.large: 2 vCPU, 8192 MiB, amd64; 3 ENIs of 10 IPv4 addresses: 3 * (10 - 1) + 2 = 29 pods. */
const M5_LARGE = { vcpu: 2, memoryMiB: 8192, arch: "amd64", eniLimitedPods: 29 };

describe("Karpenter's allocatable resources", () => {
  it("reproduces the reference's allocatable cpu, memory and pods for every one of its 1,336 instance types", () => {
    // The catalogue keeps the reference's allocatable as it was published; the formula sees only the
    // capacity (vCPUs, memory, architecture, ENI-limited pods). Any family Karpenter treated differently
    // would show up here by name.
    const types = loadInstanceCatalogue().types;
    expect(types).toHaveLength(1336);
    const mismatches = types
      .map((t) => ({ name: t.name, computed: allocatableOf(t.capacity, AL2023), reference: t.allocatable }))
      .filter(
        ({ computed, reference }) =>
          computed.cpuMillis !== reference.cpuMillis || computed.memoryBytes !== reference.memoryBytes || computed.pods !== reference.pods,
      )
      .map(({ name, computed, reference }) => `${name}: computed ${JSON.stringify(computed)}, reference ${JSON.stringify(reference)}`);
    expect(mismatches).toEqual([]);
  });

  it("m5.large by hand: kube-reserved CPU tiers, 7.5% VM overhead, 11 MiB per pod + 255 MiB, 100 MiB eviction", () => {
    // cpu: 2000m - (6% of the first core = 60m) - (1% of the second = 10m) = 1930m
    // memory: 8192 - ceil(8192 * 0.075 = 614.4) = 7577 MiB; minus kube-reserved 11 * 29 + 255 = 574 MiB
    //         and the 100 MiB eviction threshold: 7577 - 574 - 100 = 6903 MiB
    expect(allocatableOf(M5_LARGE, AL2023)).toEqual({ cpuMillis: 1930, memoryBytes: 6903 * MIB, pods: 29 });
  });

  it("Graviton loses 64 MiB of CMA memory first (c6g.large: 2 vCPU, 4096 MiB)", () => {
    // 4096 - 64 = 4032; 4032 - ceil(4032 * 0.075 = 302.4) = 3729; 3729 - 574 - 100 = 3055 MiB
    expect(allocatableOf({ vcpu: 2, memoryMiB: 4096, arch: "arm64", eniLimitedPods: 29 }, AL2023).memoryBytes).toBe(3055 * MIB);
  });

  it("truncates each kube-reserved CPU tier to whole millicores, as Go's int64() does, at an odd vCPU count", () => {
    // 5 vCPU: 60 + 10 + (2000 * 0.5% = 10) + (1000 * 0.25% = 2.5, truncated to 2) = 82m: 5000 - 82 = 4918m
    // (rounding would reserve 83m, and 4917m). 7 vCPU: 3000 * 0.25% = 7.5, truncated to 7: 87m, 6913m.
    const capacity = (vcpu: number) => ({ vcpu, memoryMiB: vcpu * 4096, arch: "amd64", eniLimitedPods: 58 });
    expect(allocatableOf(capacity(5), AL2023).cpuMillis).toBe(4918);
    expect(allocatableOf(capacity(7), AL2023).cpuMillis).toBe(6913);
  });

  it("large types: 0.25% of every core above four (c6a.48xlarge: 192 vCPU)", () => {
    // 192000 - 60 - 10 - (2000 * 0.5% = 10) - (188000 * 0.25% = 470) = 191450m
    expect(allocatableOf({ vcpu: 192, memoryMiB: 393216, arch: "amd64", eniLimitedPods: 737 }, AL2023).cpuMillis).toBe(191450);
  });

  it("maxPods changes the pod count; on AL2023 kube-reserved memory still follows the ENI-limited count", () => {
    expect(allocatableOf(M5_LARGE, AL2023, { maxPods: 110 })).toEqual({ cpuMillis: 1930, memoryBytes: 6903 * MIB, pods: 110 });
    // Bottlerocket sizes kube-reserved from the pods it admits: 11 * 110 + 255 = 1465; 7577 - 1465 - 100 = 6012 MiB
    expect(allocatableOf(M5_LARGE, BOTTLEROCKET, { maxPods: 110 })).toEqual({ cpuMillis: 1930, memoryBytes: 6012 * MIB, pods: 110 });
  });

  it("podsPerCore caps pods per vCPU where the AMI family supports it (not on Bottlerocket)", () => {
    expect(maxPodsOf(M5_LARGE, AL2023, { podsPerCore: 4 })).toBe(8); // min(4 * 2, 29)
    expect(maxPodsOf(M5_LARGE, AL2023, { podsPerCore: 20 })).toBe(29); // min(40, 29)
    expect(maxPodsOf(M5_LARGE, BOTTLEROCKET, { podsPerCore: 4 })).toBe(29);
  });

  it("Windows has no ENI-limited density: 110 pods, kube-reserved 11 * 110 + 255 MiB", () => {
    expect(allocatableOf(M5_LARGE, WINDOWS)).toEqual({ cpuMillis: 1930, memoryBytes: (7577 - 1465 - 100) * MIB, pods: 110 });
  });

  it("systemReserved and kubeReserved are subtracted; a kubeReserved value replaces the computed one", () => {
    // systemReserved 100m and 200Mi: 1930 - 100 = 1830m; 6903 - 200 = 6703 MiB
    expect(allocatableOf(M5_LARGE, AL2023, { systemReserved: { cpu: "100m", memory: "200Mi" } })).toEqual({
      cpuMillis: 1830,
      memoryBytes: 6703 * MIB,
      pods: 29,
    });
    // kubeReserved cpu 200m replaces the 70m of the tiers: 2000 - 200 = 1800m; memory 1Gi replaces 574 MiB: 7577 - 1024 - 100 = 6453 MiB
    expect(allocatableOf(M5_LARGE, AL2023, { kubeReserved: { cpu: "200m", memory: "1Gi" } })).toEqual({ cpuMillis: 1800, memoryBytes: 6453 * MIB, pods: 29 });
  });

  it("evictionHard memory.available: a quantity replaces 100Mi; a percentage is of the capacity after VM overhead, rounded up", () => {
    expect(allocatableOf(M5_LARGE, AL2023, { evictionHard: { "memory.available": "500Mi" } }).memoryBytes).toBe((7577 - 574 - 500) * MIB);
    // 5% of 7577 MiB = 7577 * 1048576 * 0.05 = 397253017.6 bytes, rounded up to 397253018
    expect(allocatableOf(M5_LARGE, AL2023, { evictionHard: { "memory.available": "5%" } }).memoryBytes).toBe((7577 - 574) * MIB - 397253018);
    // 100% disables the threshold (kubelet's rule)
    expect(allocatableOf(M5_LARGE, AL2023, { evictionHard: { "memory.available": "100%" } }).memoryBytes).toBe((7577 - 574) * MIB);
  });

  it("ENI-limited pods: ENIs * (IPv4 addresses per ENI - 1) + 2", () => {
    expect(eniLimitedPods(3, 10)).toBe(29); // m5.large
    expect(eniLimitedPods(2, 2)).toBe(4); // t3.micro
    expect(eniLimitedPods(15, 50)).toBe(737); // p4d.24xlarge's default network card
    expect(eniLimitedPods(3, 10, 1)).toBe(20); // one ENI reserved for custom networking
    expect(eniLimitedPods(1, 10, 1)).toBe(0);
  });

  it("ephemeral storage: the root volume less 1Gi kube-reserved and the 10% nodefs.available eviction threshold, or the node class's own", () => {
    const GI = 2 ** 30;
    // 50Gi - 1Gi - 5Gi: 44Gi.
    expect(ephemeralStorageAllocatable(50 * GI)).toBe(44 * GI);
    // 20Gi - 1Gi - 2Gi: 17Gi.
    expect(ephemeralStorageAllocatable(20 * GI)).toBe(17 * GI);
    // 100Gi - 2Gi kube-reserved - 1Gi system-reserved - 5% (5Gi): 92Gi.
    const kubelet = {
      kubeReserved: { "ephemeral-storage": "2Gi" },
      systemReserved: { "ephemeral-storage": "1Gi" },
      evictionHard: { "nodefs.available": "5%" },
    };
    expect(ephemeralStorageAllocatable(100 * GI, kubelet)).toBe(92 * GI);
  });
});
