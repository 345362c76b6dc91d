// The in-flight NodeClaims in the order Karpenter offers them a pod: fewest pods first, then the oldest
// (scheduler.go add sorts newNodeClaims by len(Pods) before each pod; its sort is not stable, the planner
// breaks ties by age so that a plan is the same every time). Kept sorted: a pod only ever adds one to one
// NodeClaim's count, which moves it a little to the right.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go (add, addToInflightNode)

/** What the order reads of a NodeClaim: how many pods it has, and its age (ids grow as NodeClaims open). */
export interface InFlight {
  readonly podCount: number;
  readonly id: number;
}

const before = (a: InFlight, b: InFlight) => a.podCount < b.podCount || (a.podCount === b.podCount && a.id < b.id);

export class EmptiestFirst<T extends InFlight> {
  private readonly order: T[] = [];

  /** In order; do not change a NodeClaim's pods while iterating (see `moved`). */
  get nodeClaims(): readonly T[] {
    return this.order;
  }

  /** The index a NodeClaim belongs at, among the others (binary search). */
  private slot(nc: T, others: readonly T[]): number {
    let low = 0;
    let high = others.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (before(others[mid], nc)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  add(nc: T): void {
    this.order.splice(this.slot(nc, this.order), 0, nc);
  }

  /** The NodeClaim at `index` took a pod: move it to its new place. */
  moved(index: number): void {
    const [nc] = this.order.splice(index, 1);
    this.order.splice(this.slot(nc, this.order), 0, nc);
  }

  /** Drops the NodeClaims `closed` says no pod can join any more. */
  prune(closed: (nc: T) => boolean): void {
    let kept = 0;
    for (const nc of this.order) if (!closed(nc)) this.order[kept++] = nc;
    this.order.length = kept;
  }
}
