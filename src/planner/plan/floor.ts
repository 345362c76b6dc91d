import { MIB } from "../../shared/quantity";

// The floor: what the pods' requests would cost bought at the cheapest $/vCPU and $/GiB of the allowed
// types, with no node overhead, no packing loss and no max-pods limit. A type's price buys its vCPUs and its
// memory together, so the two rates are not simply added (that would count each price twice): the floor is
// the cheapest fractional mix of types covering both the vCPU and the memory, a two-constraint linear
// program whose optimum uses at most two types. Every real plan costs at least this much.

export interface FloorOffering {
  readonly vcpu: number;
  readonly memoryMiB: number;
  readonly hourlyUsd: number;
}

/** Hourly USD of the cheapest fractional cover of `cpuMillis` and `memoryBytes` by the offerings. */
export function floorHourlyUsd(cpuMillis: number, memoryBytes: number, offerings: readonly FloorOffering[]): number {
  const cpu = cpuMillis / 1000;
  const memory = memoryBytes / MIB;
  if ((cpu <= 0 && memory <= 0) || offerings.length === 0) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (const o of offerings) best = Math.min(best, Math.max(cpu / o.vcpu, memory / o.memoryMiB) * o.hourlyUsd);
  // Two types, both constraints tight: solve the 2x2 system and keep non-negative solutions.
  for (let i = 0; i < offerings.length; i++) {
    const a = offerings[i];
    for (let j = i + 1; j < offerings.length; j++) {
      const b = offerings[j];
      const det = a.vcpu * b.memoryMiB - b.vcpu * a.memoryMiB;
      if (det === 0) continue;
      const x = (cpu * b.memoryMiB - b.vcpu * memory) / det;
      const y = (a.vcpu * memory - cpu * a.memoryMiB) / det;
      if (x >= 0 && y >= 0) best = Math.min(best, x * a.hourlyUsd + y * b.hourlyUsd);
    }
  }
  return best;
}

/** Only offerings on the lower-left frontier can be part of an optimum; this keeps the pair loop small. */
export function cheapestPerShape(offerings: readonly FloorOffering[]): FloorOffering[] {
  const byShape = new Map<string, FloorOffering>();
  for (const o of offerings) {
    const key = `${o.vcpu}/${o.memoryMiB}`;
    const seen = byShape.get(key);
    if (seen === undefined || o.hourlyUsd < seen.hourlyUsd) byShape.set(key, o);
  }
  // Drop an offering when another is at least as large in both resources per dollar.
  const list = [...byShape.values()];
  return list.filter(
    (o) =>
      !list.some(
        (p) =>
          p !== o &&
          p.vcpu / p.hourlyUsd >= o.vcpu / o.hourlyUsd &&
          p.memoryMiB / p.hourlyUsd >= o.memoryMiB / o.hourlyUsd &&
          (p.vcpu / p.hourlyUsd > o.vcpu / o.hourlyUsd || p.memoryMiB / p.hourlyUsd > o.memoryMiB / o.hourlyUsd),
      ),
  );
}
