import type { DisruptionReason } from "../model";
import type { PoolTotals } from "./balanced";
import type { BudgetMapping } from "./budget-mapping";
import type { Blocker, Candidate } from "./candidates";
import type { ClusterNode } from "./cluster-node";
import type { Command } from "./compute-consolidation";
import type { DisruptionContext } from "./simulate-scheduling";

// One way the disruption controller finds work: which candidates it considers, and the command it computes from
// them within its reason's budgets. The controller tries its methods in order each pass and carries out the first
// command. Drift (and StaticDrift) come between emptiness and consolidation upstream; the planner models none.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/types.go (Method)
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/controller.go (NewMethods)

/** How the output names a method (the action's `method`). */
export type MethodName = "emptiness" | "multi-node" | "single-node";

/** Karpenter's consolidation types (types.go ConsolidationType). */
export type ConsolidationType = "empty" | "multi" | "single";

/** What a method found: the command to carry out, if any, and why it refused each candidate it tried. */
export interface MethodOutcome {
  readonly command?: Command;
  readonly refused: ReadonlyMap<Candidate, Blocker>;
}

/** What a method computes its command from: one pass of the controller. */
export interface MethodInput {
  readonly ctx: DisruptionContext;
  /** Every node of the cluster now. */
  readonly nodes: readonly ClusterNode[];
  /** The candidates the method should disrupt (its ShouldDisrupt passed), in the controller's order. */
  readonly candidates: readonly Candidate[];
  /** What each NodePool's budgets allow for the method's reason now; the method takes from it. */
  readonly budgets: BudgetMapping;
  /** Each pool's cost and disruption, for the Balanced policy. */
  readonly totals: ReadonlyMap<string, PoolTotals>;
}

export interface DisruptionMethod {
  readonly name: MethodName;
  /** The budget reason it disrupts for (Reason). */
  readonly reason: DisruptionReason;
  /** Graceful: the candidates' pods are evicted respecting their budgets (Class). */
  readonly class: "graceful";
  readonly consolidationType: ConsolidationType;
  /** Why the method leaves the candidate alone, or undefined when it considers it (ShouldDisrupt). */
  shouldDisrupt(ctx: DisruptionContext, candidate: Candidate): Blocker | undefined;
  /** The command it would carry out now, or none with why each candidate tried was refused (ComputeCommands). */
  computeCommand(input: MethodInput): MethodOutcome;
}
