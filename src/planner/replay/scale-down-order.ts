// Which running pods a ReplicaSet deletes when its replicas fall, once those not running yet are gone: every pod
// ranks by how many of the workload's active pods share its node, the most crowded node's first; between nodes as
// crowded, the pods ready for less time first (the node that started them later); then by name, where upstream
// breaks ties by pod UID, which is random. It evens the pods out over the nodes rather than emptying any, which
// leaves the cleaning up to consolidation.
// @see kubernetes/kubernetes pkg/controller/replicaset/replica_set.go (getPodsToDelete, getPodsRankedByRelatedPodsOnSameNode)
// @see kubernetes/kubernetes pkg/controller/controller_utils.go (ActivePodsWithRanks.Less)

export interface PodsOnNode<N> {
  readonly node: N;
  readonly name: string;
  /** The workload's pods on the node. */
  readonly count: number;
  /** When its pods started running there (seconds from the start). */
  readonly readySince: number;
}

/** How many pods to delete from each node, in the order the ReplicaSet deletes them, `diff` in all at most. */
export function podsToDelete<N>(holdings: readonly PodsOnNode<N>[], diff: number): { readonly node: N; readonly count: number }[] {
  const ordered = [...holdings].sort((a, b) => b.count - a.count || b.readySince - a.readySince || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const taken: { node: N; count: number }[] = [];
  let left = diff;
  for (const h of ordered) {
    if (left <= 0) break;
    const n = Math.min(left, h.count);
    if (n > 0) taken.push({ node: h.node, count: n });
    left -= n;
  }
  return taken;
}
