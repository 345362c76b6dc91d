import { daemonSetRunsOn } from "../simulation/daemon-overhead";
import type { Workload } from "../workload/workload-model";
import type { ScenarioRun } from "./simulate";

// What each of the workload's DaemonSets adds: its pod's requests on every node it runs on, and how many of
// the as-configured plan's nodes that is. Karpenter launches no node for a DaemonSet (it provisions for
// pending pods), so a workload of DaemonSets alone launches nothing and still costs room on every node.

export interface DaemonSetJson {
  readonly id: string;
  readonly cpuMillis: number;
  readonly memoryBytes: number;
  /** The as-configured plan's nodes it runs on. */
  readonly nodes: number;
}

export function daemonSetReport(workload: Workload, asConfigured: ScenarioRun): DaemonSetJson[] {
  return workload.daemonSets.map((ds) => {
    const nodes = asConfigured.result.nodes.filter((node) => {
      const offerings = asConfigured.simulation.pools.find((p) => p.pool.name === node.pool);
      const index = offerings?.options.findIndex((c) => c.type === node.type) ?? -1;
      return offerings !== undefined && index >= 0 && daemonSetRunsOn(ds, offerings, asConfigured.simulation.fits)(index);
    }).length;
    return { id: ds.id, cpuMillis: ds.pod.cpuMillis, memoryBytes: ds.pod.memoryBytes, nodes };
  });
}
