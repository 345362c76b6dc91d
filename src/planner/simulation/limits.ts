import { formatBytes, formatCpu } from "../../shared/quantity";
import type { PoolModel } from "../model";
import type { InstanceOption } from "./pool-offerings";

// A NodePool's limits during one provisioning loop, as Karpenter's scheduler tracks them: what is left of each
// limited resource once the pool's nodes are counted, on the nodes' capacity (not their allocatable, nor EC2's
// nominal memory). A new NodeClaim may only take types that fit in what is left, and reserves the largest option
// it still has: Karpenter "pessimistically assume[s] that if e.g. we request a 2, 4 or 8 CPU instance type that
// the 8 CPU instance type is all that will be available" (subtractMax, filterByRemainingResources).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go
//      (NewScheduler remainingResources, calculateExistingNodeClaims, subtractMax, filterByRemainingResources)

const limitsText = new WeakMap<PoolModel, string>();

/** "cpu 1000, memory 1000 GiB": a pool's limits for people (said often, written once). */
function formatLimits(pool: PoolModel): string {
  let text = limitsText.get(pool);
  if (text === undefined) {
    text = Object.entries(pool.limits)
      .map(([key, value]) => `${key} ${key === "cpu" ? formatCpu(value) : key === "memory" ? formatBytes(value) : value}`)
      .join(", ");
    limitsText.set(pool, text);
  }
  return text;
}

export class RemainingResources {
  /** What is left, by limited resource; `nodes` counts nodes and NodeClaims. */
  private readonly left: Record<string, number>;
  /** The options within what is left, kept until a NodeClaim reserves more. */
  private within: readonly InstanceOption[] | undefined;

  constructor(
    private readonly pool: PoolModel,
    private readonly options: readonly InstanceOption[],
  ) {
    this.left = { ...pool.limits };
  }

  /** Why the pool opens no NodeClaim: "its limits are reached (cpu 10)". */
  get reached(): string {
    return `its limits are reached (${formatLimits(this.pool)})`;
  }

  /** What is left of a limited resource; undefined when the pool does not limit it. */
  of(resource: string): number | undefined {
    return this.left[resource];
  }

  /** Whether the pool may open another NodeClaim at all. */
  get nodesLeft(): boolean {
    return this.left.nodes === undefined || this.left.nodes > 0;
  }

  /** The pool's options whose capacity fits in what is left of every limited resource, in the pool's order. */
  instanceTypes(): readonly InstanceOption[] {
    this.within ??= this.options.filter((c) => this.fits(c));
    return this.within;
  }

  /** Counts a node of the pool at its capacity (a node that exists, or one a loop launched). */
  subtract(capacity: Readonly<Record<string, number>>): void {
    for (const key of Object.keys(this.left)) this.left[key] -= key === "nodes" ? 1 : (capacity[key] ?? 0);
    this.within = undefined;
  }

  /** Reserves the largest capacity among a new NodeClaim's options, and one node. */
  reserveLargest(options: readonly InstanceOption[]): void {
    for (const key of Object.keys(this.left)) this.left[key] -= key === "nodes" ? 1 : Math.max(0, ...options.map((c) => c.capacity[key] ?? 0));
    this.within = undefined;
  }

  private fits(c: InstanceOption): boolean {
    for (const [key, left] of Object.entries(this.left)) {
      if (key !== "nodes" && (c.capacity[key] ?? 0) > left) return false;
    }
    return true;
  }
}
