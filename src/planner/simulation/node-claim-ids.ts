// The numbers of the NodeClaims one planning opens, across every scheduler it runs: the provisioning loops of a
// launch and each simulation consolidation runs after it. A NodeClaim's placeholder hostname is made from its
// number, and topology counts the pods of a node by hostname: were a simulation to number its NodeClaims from 1
// again, its first NodeClaim would be the node the launch named so, holding that node's pods, and a hostname
// anti-affinity would fail where Karpenter's does not. Karpenter numbers them from one counter for its process.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go (NewNodeClaim: nodeID)

export class NodeClaimIds {
  private taken = 0;

  /** The number the next NodeClaim opened will have. */
  get next(): number {
    return this.taken + 1;
  }

  /** A NodeClaim was opened with `next`. */
  opened(): void {
    this.taken++;
  }
}
