import type { PodData } from "../simulation/pod-data";
import type { SimulationContext } from "../simulation/simulation-context";
import type { PodGroup } from "../workload/workload-model";
import type { ClusterNode } from "./cluster-node";
import type { DisruptionContext, PendingPods } from "./simulate-scheduling";

export interface DisruptionRun {
  /** The nodes it starts from: their pods are those the scheduler will move. */
  readonly nodes: readonly ClusterNode[];
  /** The cluster's pending pods Karpenter provisions for. */
  readonly pending?: readonly PendingPods[];
  /** Karpenter's SpotToSpotConsolidation feature gate. */
  readonly spotToSpot: boolean;
}

/** What the disruption controller works with, built once for a cluster: its pods' scheduling data and topology. */
export function disruptionContext(simulation: SimulationContext, run: DisruptionRun): DisruptionContext {
  const data = new Map<PodGroup, PodData>();
  for (const node of run.nodes) for (const { group } of node.state.pods) if (!data.has(group)) data.set(group, simulation.podData(group));
  for (const { group } of run.pending ?? []) if (!data.has(group)) data.set(group, simulation.podData(group));
  return {
    simulation,
    topology: simulation.topology(
      [...data.values()],
      run.nodes.map((n) => n.state),
    ),
    podData: (group) => {
      const known = data.get(group);
      if (known === undefined) throw new Error(`bug: pod group ${group.id} is not on any node the disruption controller started from`);
      return known;
    },
    spotToSpot: run.spotToSpot,
    pending: run.pending ?? [],
    launched: 0,
  };
}
