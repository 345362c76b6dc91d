import { type BudgetMapping, blockingBudget } from "./budget-mapping";
import { bySavingsRatio, type Candidate, deletableWhenEmpty } from "./candidates";

// Emptiness: every empty candidate goes in one command, across NodePools, each pool within its budget for the
// reason Empty. Nothing is simulated: an empty node holds no pod that needs a new home.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/emptiness.go (ShouldDisrupt, ComputeCommands)

export interface EmptinessOutcome {
  /** The nodes to delete; empty when there are none. */
  readonly empty: readonly Candidate[];
  /** Empty candidates their pool's budget kept, with the budget's message. */
  readonly heldByBudget: readonly { readonly candidate: Candidate; readonly message: string }[];
}

export function emptiness(candidates: readonly Candidate[], budgets: BudgetMapping): EmptinessOutcome {
  const empty: Candidate[] = [];
  const heldByBudget: { candidate: Candidate; message: string }[] = [];
  for (const candidate of [...candidates].sort(bySavingsRatio)) {
    if (deletableWhenEmpty(candidate) !== true) continue;
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
