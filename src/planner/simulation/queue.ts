import type { PodData } from "./pod-data";

// The pods a provisioning loop schedules, in Karpenter's order: the queue sorts them as it is made, by decreasing
// CPU, then memory, ties in the order given (upstream breaks them by creation time, then UID, which a plan's pods
// do not have). A pod that finds no node goes to the back; once the queue has gone round without placing a pod
// (the pod at its head was pushed back when as many pods were placed as now), the loop stops and what is left
// stays pending. The planner queues runs of identical pods, and counts progress in pods placed.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/queue.go (NewQueue, Pop, Push)

/** `count` pods of one group waiting for a node, and why the last of them found none. */
export interface QueuedPods {
  readonly pod: PodData;
  readonly count: number;
  readonly reason?: string;
  /**
   * Pods that were pending before a consolidation simulation (IsProvisionable): their failing to schedule does not
   * block a command, and they may land on a node still initializing (Results.AllNonPendingPodsScheduled).
   */
  readonly pending?: true;
  /**
   * Pods of nodes already being deleted (not the candidates'): they must find a node, but may land on one still
   * initializing (SimulateScheduling leaves deleting nodes' pods out of the UninitializedNodeError).
   */
  readonly fromDeleting?: true;
}

/** The order of a first provisioning loop (queue.go byCPUAndMemoryDescending); ties keep the order given. */
export function byCpuAndMemoryDescending(pods: readonly PodData[]): PodData[] {
  // Sorts positions by keys read once: a plan of distinct pods sorts as many pods as it has.
  const cpu = new Float64Array(pods.length);
  const memory = new Float64Array(pods.length);
  const positions: number[] = [];
  for (let i = 0; i < pods.length; i++) {
    cpu[i] = pods[i].requests.cpu;
    memory[i] = pods[i].requests.memory;
    positions.push(i);
  }
  return positions.sort((a, b) => cpu[b] - cpu[a] || memory[b] - memory[a] || a - b).map((i) => pods[i]);
}

export class Queue {
  private readonly items: { readonly run: QueuedPods; readonly placedAtPush: number }[];
  private head = 0;
  private placed = 0;

  /** The runs, sorted as NewQueue sorts its pods (byCPUAndMemoryDescending); runs of equal requests in the order given. */
  constructor(runs: readonly QueuedPods[]) {
    const order = new Map(byCpuAndMemoryDescending([...new Set(runs.map((r) => r.pod))]).map((pod, rank) => [pod, rank]));
    const ranked = runs.map((run, given) => ({ run, rank: order.get(run.pod) ?? 0, given }));
    ranked.sort((a, b) => a.rank - b.rank || a.given - b.given);
    this.items = ranked.map(({ run }) => ({ run, placedAtPush: -1 }));
  }

  /** The next run, or undefined when the queue is empty or went round without placing a pod. */
  pop(): QueuedPods | undefined {
    const item = this.items[this.head];
    if (item === undefined || item.placedAtPush === this.placed) return undefined;
    this.head++;
    return item.run;
  }

  /** Back of the queue, for pods that found no node this time round. */
  push(run: QueuedPods): void {
    this.items.push({ run, placedAtPush: this.placed });
  }

  /** Counts pods the scheduler placed: the queue is making progress. */
  progress(pods: number): void {
    this.placed += pods;
  }

  /** The runs not popped: what a stalled queue leaves pending. */
  list(): QueuedPods[] {
    return this.items.slice(this.head).map((item) => item.run);
  }
}
