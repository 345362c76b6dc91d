import { podDataOf } from "../../../src/planner/simulation/pod-data";
import { byCpuAndMemoryDescending, Queue, type QueuedPods } from "../../../src/planner/simulation/queue";
import { podGroup, podShape } from "./fixtures";

// The queue of one provisioning loop (queue.go NewQueue, Pop, Push), with runs of identical pods for pods and
// pods placed for progress. queue.go has no test of its own upstream; the behaviour it exists for is
// scheduler.go Solve's: "We loop trying to schedule unschedulable pods as long as we are making progress."

const run = (name: string, cpu: number, memoryMiB: number, count = 1): QueuedPods => ({
  pod: podDataOf(podGroup(name, count, podShape(cpu, memoryMiB)), false),
  count,
});

describe("Queue: follows queue.go NewQueue (byCPUAndMemoryDescending), Pop and Push", () => {
  it("orders a first loop by CPU, then memory, both descending; ties keep the order given", () => {
    const runs = [run("small", 100, 512), run("big-cpu", 2000, 128), run("tie-1", 500, 256), run("more-memory", 500, 1024), run("tie-2", 500, 256)];
    expect(byCpuAndMemoryDescending(runs.map((r) => r.pod)).map((p) => p.group.name)).toEqual(["big-cpu", "more-memory", "tie-1", "tie-2", "small"]);
  });

  it("pops in order, and a run pushed back comes round again after the others", () => {
    const queue = new Queue([run("a", 1, 0), run("b", 1, 0)]);
    const a = queue.pop();
    expect(a?.pod.group.name).toBe("a");
    if (a !== undefined) queue.push(a);
    queue.progress(1);
    expect(queue.pop()?.pod.group.name).toBe("b");
    expect(queue.pop()?.pod.group.name).toBe("a");
    expect(queue.pop()).toBeUndefined();
  });

  it("stops once it has gone round without placing a pod, and leaves the rest pending", () => {
    // a and b both fail with no progress in between: when a comes round again, nothing was placed since it was
    // pushed back, and the loop is over with a and b pending.
    const queue = new Queue([run("a", 1, 0), run("b", 1, 0)]);
    const a = queue.pop();
    if (a !== undefined) queue.push({ ...a, reason: "no node" });
    const b = queue.pop();
    if (b !== undefined) queue.push({ ...b, reason: "no node" });
    expect(queue.pop()).toBeUndefined();
    expect(queue.list().map((r) => [r.pod.group.name, r.reason])).toEqual([
      ["a", "no node"],
      ["b", "no node"],
    ]);
  });
});
