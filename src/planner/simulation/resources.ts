import type { PodShape } from "../workload/workload-model";

// Amounts of what pods request and nodes offer: CPU in millicores, memory in bytes, pods as a count, and
// extended resources (GPUs, ...) as counts by name.

export interface Resources {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly extended: Readonly<Record<string, number>>;
}

export const NO_RESOURCES: Resources = { cpu: 0, memory: 0, pods: 0, extended: {} };

/** What one pod asks of a node: its requests, and one of the node's pods (resources.RequestsForPods). */
export const requestsOf = (pod: PodShape): Resources => ({ cpu: pod.cpuMillis, memory: pod.memoryBytes, pods: 1, extended: pod.extended });

/** What the pods of some groups request together, `count` pods of each (allocation-free: a node may hold thousands). */
export function requestsOfPods(pods: readonly { readonly group: { readonly pod: PodShape }; readonly count: number }[]): Resources {
  let cpu = 0;
  let memory = 0;
  let count = 0;
  let extended: Record<string, number> | undefined;
  for (const { group, count: n } of pods) {
    cpu += group.pod.cpuMillis * n;
    memory += group.pod.memoryBytes * n;
    count += n;
    for (const [name, amount] of Object.entries(group.pod.extended)) {
      extended ??= {};
      extended[name] = (extended[name] ?? 0) + amount * n;
    }
  }
  return { cpu, memory, pods: count, extended: extended ?? {} };
}

export function addResources(a: Resources, b: Resources, times = 1): Resources {
  const extended: Record<string, number> = { ...a.extended };
  for (const [name, amount] of Object.entries(b.extended)) extended[name] = (extended[name] ?? 0) + amount * times;
  return { cpu: a.cpu + b.cpu * times, memory: a.memory + b.memory * times, pods: a.pods + b.pods * times, extended };
}

/**
 * Whether a pod's requests fit on a node beside what is already asked of it: the pods on it and what its
 * DaemonSets take (resources.Fits: every requested amount within what the node offers).
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/resources/resources.go (Fits)
 */
export function fits(pod: Resources, onNode: Resources, daemons: Resources, allocatable: Resources): boolean {
  if (
    pod.cpu + onNode.cpu + daemons.cpu > allocatable.cpu ||
    pod.memory + onNode.memory + daemons.memory > allocatable.memory ||
    pod.pods + onNode.pods + daemons.pods > allocatable.pods
  )
    return false;
  for (const [name, amount] of Object.entries(pod.extended)) {
    if (amount > 0 && amount + (onNode.extended[name] ?? 0) + (daemons.extended[name] ?? 0) > (allocatable.extended[name] ?? 0)) return false;
  }
  return true;
}
