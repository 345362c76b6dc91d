import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { PoolDisruption } from "../model";
import type { ProvisioningResult } from "../simulation/provisioner";
import type { StateNode } from "../simulation/state-node";
import type { ClusterNode } from "./cluster-node";

// A node Karpenter launched, once it runs: initialized, priced as it launched, owned by its NodePool. Replacements
// the disruption controller launches and the nodes a plan launches join the cluster this one way.

export interface HowLaunched {
  readonly instanceType: string;
  readonly capacityType: string;
  readonly hourlyUsd: number;
  /** Spot priced at the on-demand rate (no spot prices offline). */
  readonly upperBound: boolean;
}

export function runningNode(state: StateNode, how: HowLaunched, pools: ReadonlyMap<string, PoolDisruption>): ClusterNode {
  const poolName = state.labels[LABEL.nodePool];
  return {
    state: { ...state, initialized: true },
    pool: poolName === undefined ? undefined : pools.get(poolName),
    managed: poolName !== undefined,
    ready: true,
    instanceTerminating: false,
    instanceType: how.instanceType,
    capacityType: how.capacityType,
    zone: state.labels[LABEL.zone],
    hourlyUsd: how.hourlyUsd,
    priceIsUpperBound: how.upperBound,
    doNotDisrupt: false,
    deleting: false,
  };
}

/** The nodes a provisioning run launched, running. */
export function launchedRunning(result: ProvisioningResult, pools: ReadonlyMap<string, PoolDisruption>): ClusterNode[] {
  return result.launched.map(({ planned, state }) =>
    runningNode(
      state,
      { instanceType: planned.type.name, capacityType: planned.capacityType, hourlyUsd: planned.hourlyUsd, upperBound: planned.priceIsUpperBound },
      pools,
    ),
  );
}
