import type { Requirement } from "../../instance-catalogue/requirements";
import { formatBytes } from "../../shared/quantity";
import type { PoolModel } from "../model";
import { EPHEMERAL_STORAGE, type HostPort } from "../workload/workload-model";
import type { PoolOfferings } from "./pool-offerings";
import type { Resources } from "./resources";

// A NodePool as the scheduler opens NodeClaims from it: its offerings (the instance types it may launch, each
// with its DaemonSet overhead), the requirements whose minValues every NodeClaim must keep meeting, and whether
// spot offerings are known per zone (then a NodeClaim keeps only the types offered where it may still land).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go (NodeClaimTemplate)

export class NodeClaimTemplate {
  readonly minValues: readonly Requirement[];
  /**
   * The host ports of the DaemonSets that run on the pool's nodes (on any of its types), held on every NodeClaim
   * from the start, as the scheduler counts them with the DaemonSet overhead (scheduler.go, its daemon_host_ports phase).
   */
  readonly daemonHostPorts: readonly { readonly port: HostPort; readonly by: string }[];

  constructor(
    readonly offerings: PoolOfferings,
    readonly spotKnown: boolean,
  ) {
    this.minValues = offerings.pool.requirements.filter((r) => r.minValues !== undefined);
    const daemonSets = new Set(offerings.options.flatMap((c) => c.daemonSets));
    this.daemonHostPorts = [...daemonSets].flatMap((ds) => (ds.pod.hostPorts ?? []).map((port) => ({ port, by: `DaemonSet ${ds.id}` })));
  }

  get pool(): PoolModel {
    return this.offerings.pool;
  }

  /**
   * Why no node of the pool can hold a pod for its ephemeral storage, when none can: every type of a node class
   * offers the same (what kubelet leaves of the root volume), less what the DaemonSets on it request.
   */
  ephemeralStorageShortfall(requests: Resources): string | undefined {
    const wanted = requests.extended[EPHEMERAL_STORAGE] ?? 0;
    if (wanted === 0) return undefined;
    const offered = Math.max(
      0,
      ...this.offerings.options.map((c) => (c.allocatable.extended[EPHEMERAL_STORAGE] ?? 0) - (c.overhead.extended[EPHEMERAL_STORAGE] ?? 0)),
    );
    if (wanted <= offered) return undefined;
    return `the pod requests ${formatBytes(wanted)} of ephemeral storage; its nodes offer ${formatBytes(offered)} (what kubelet leaves of node class ${this.pool.nodeClass.name}'s root volume, less the DaemonSets' share)`;
  }
}
