import { type BudgetMapping, blockingBudget } from "./budget-mapping";
import { type Blocker, bySavingsRatio, type Candidate, consolidationDisabled, NOT_CONSOLIDATABLE } from "./candidates";
import type { DisruptionMethod } from "./disruption-method";
import { simulateScheduling } from "./simulate-scheduling";

// Emptiness: every empty candidate goes in one command, across NodePools, each pool within its budget for the
// reason Empty. Karpenter simulates nothing: an empty node holds no pod that needs a new home. The planner does
// run the scheduler for the pods of no eviction cost such a node may still hold, which come back and are placed.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/emptiness.go (ShouldDisrupt, ComputeCommands)

export interface EmptinessOutcome {
  /** The nodes to delete; empty when there are none. */
  readonly empty: readonly Candidate[];
  /** Empty candidates their pool's budget kept, with the budget's message. */
  readonly heldByBudget: readonly { readonly candidate: Candidate; readonly message: string }[];
}

/** A candidate with pods to move: consolidation's, not emptiness's. No event: Karpenter publishes none. */
export const NOT_EMPTY: Blocker = { event: undefined, message: "not empty: its pods would move, which is consolidation's to decide" };

/** Why emptiness leaves the candidate alone, or undefined (ShouldDisrupt): any policy, once the node is empty and consolidatable. */
function shouldDisrupt(candidate: Candidate): Blocker | undefined {
  if (candidate.pool.consolidateAfterNever) return consolidationDisabled(candidate.pool);
  if (!candidate.empty) return NOT_EMPTY;
  return candidate.node.consolidatable === false ? NOT_CONSOLIDATABLE : undefined;
}

/** The empty candidates, in savings order, each pool within its budget; and those a budget kept. */
export function emptiness(candidates: readonly Candidate[], budgets: BudgetMapping): EmptinessOutcome {
  const empty: Candidate[] = [];
  const heldByBudget: { candidate: Candidate; message: string }[] = [];
  for (const candidate of [...candidates].sort(bySavingsRatio)) {
    if (shouldDisrupt(candidate) !== undefined) continue;
    const left = budgets.get(candidate.pool.pool) ?? 0;
    if (left <= 0) {
      heldByBudget.push({ candidate, message: blockingBudget("Empty") });
      continue;
    }
    budgets.set(candidate.pool.pool, left - 1);
    empty.push(candidate);
  }
  return { empty, heldByBudget };
}

export const EMPTINESS: DisruptionMethod = {
  name: "emptiness",
  reason: "Empty",
  class: "graceful",
  consolidationType: "empty",
  shouldDisrupt: (_ctx, candidate) => shouldDisrupt(candidate),
  computeCommand({ ctx, nodes, candidates, budgets }) {
    const { empty } = emptiness(candidates, budgets);
    if (empty.length === 0) return { refused: new Map() };
    // Empty nodes may still hold pods of no eviction cost: they come back and the provisioner places them.
    const { results } = simulateScheduling(ctx, nodes, empty);
    return { command: { candidates: empty, results }, refused: new Map() };
  },
};
