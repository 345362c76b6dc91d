import type { PodData } from "./pod-data";

// The pods a provisioning loop schedules, in Karpenter's order: by decreasing CPU, then memory, ties in the
// order given. A pod that finds no node goes to the back; once the queue has gone round without placing a pod
// (the pod at its head was pushed back when as many pods were placed as now), the loop stops and what is left
// stays pending. The planner queues runs of identical pods, and counts progress in pods placed.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/queue.go (NewQueue, Pop, Push)

/** `count` pods of one group waiting for a node, and why the last of them found none. */
export interface QueuedPods {
  readonly pod: PodData;
  readonly count: number;
  readonly reason?: string;
}

/** The order of a first provisioning loop (queue.go byCPUAndMemoryDescending); ties keep the order given. */
export function byCpuAndMemoryDescending<T extends { readonly pod: PodData }>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => b.pod.requests.cpu - a.pod.requests.cpu || b.pod.requests.memory - a.pod.requests.memory);
}

export class Queue {
  private readonly items: { readonly run: QueuedPods; readonly placedAtPush: number }[];
  private head = 0;
  private placed = 0;

  /** The runs in the order to try them. */
  constructor(runs: readonly QueuedPods[]) {
    this.items = runs.map((run) => ({ run, placedAtPush: -1 }));
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
