import { poolTotals } from "../consolidation/balanced";
import { blockingBudget, budgetMapping } from "../consolidation/budget-mapping";
import { type Candidate, isCandidate, newCandidate } from "../consolidation/candidates";
import type { ClusterNode } from "../consolidation/cluster-node";
import { type Command, computeConsolidation, isCommand } from "../consolidation/compute-consolidation";
import { disruptionContext } from "../consolidation/disruption-context";
import { launchesOf, nextCommand } from "../consolidation/disruption-controller";
import type { DisruptionMethod } from "../consolidation/disruption-method";
import { EMPTINESS, emptiness } from "../consolidation/emptiness";
import type { DisruptionContext, PendingPods } from "../consolidation/simulate-scheduling";
import { podDisruptionBudgets } from "../workload/pod-disruption-budgets";
import { BudgetSchedules } from "./budget-schedules";
import type { ReplayCluster } from "./replay-cluster";
import type { ReplayNode } from "./replay-node";
import { CONSOLIDATION_STATE_TTL_SECONDS, DISRUPTION_POLL_SECONDS, TERMINATION_SECONDS, VALIDATION_SECONDS } from "./replay-timing";
import type { DisruptionRecord, ReplayInput } from "./replay-types";

// Karpenter's disruption controller at the replay's clock: a pass every 10 s (at once after a command, skipped while
// the cluster has not changed), the planner's methods in their order, each command validated 15 s after it was
// computed, its replacements launched when it starts and its candidates deleted once they are initialized (their
// pods created again onto the replacements), the instances terminated 5 s later.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/controller.go (Reconcile), validation.go,
//      queue.go (StartCommand, waitOrTerminate)

/** A command whose replacements are not initialized within 10 minutes is abandoned (queue.go maxRetryDuration). */
export const COMMAND_TIMEOUT_SECONDS = 600;

interface Validating {
  readonly at: number;
  readonly method: DisruptionMethod;
  readonly command: Command;
  readonly candidates: readonly ReplayNode[];
}

interface InFlight {
  readonly startedAt: number;
  readonly kind: "delete" | "replace";
  readonly candidates: readonly ReplayNode[];
  readonly replacements: readonly ReplayNode[];
}

export class ReplayDisruption {
  readonly commands: DisruptionRecord[] = [];
  deleted = 0;
  replaced = 0;
  evicted = 0;
  /** Commands the validation dropped, or that timed out waiting for their replacements. */
  abandoned = 0;
  private inFlight: InFlight[] = [];
  private validating: Validating | undefined;
  private nextPass = 0;
  private lastNoOp: { signature: string; t: number } | undefined;
  private readonly schedules: BudgetSchedules;
  /** The last pass found nothing to do only because a budget held a candidate. */
  private held = false;
  /** When a budget schedule next turns on or off, within `horizon`; undefined when none does. */
  private budgetChangeAt: number | undefined;

  /** `horizon`: how far past now a budget schedule's change is looked for. */
  constructor(
    private readonly cluster: ReplayCluster,
    private readonly input: ReplayInput,
    private readonly horizon: number,
  ) {
    this.schedules = new BudgetSchedules(input.simulation.disruption.values(), input.start);
  }

  /** The pass or the validation due at the cluster's time. */
  step(): void {
    if (this.validating !== undefined) {
      if (this.validating.at <= this.cluster.t) this.validate(this.validating);
    } else if (this.nextPass <= this.cluster.t) this.pass();
  }

  nextTimes(): (number | undefined)[] {
    return [this.validating === undefined ? this.nextPass : this.validating.at, ...this.inFlight.map((c) => c.startedAt + COMMAND_TIMEOUT_SECONDS)];
  }

  /** Nothing due: no command validating or waiting, and the last pass found nothing a budget schedule could release. */
  quiet(): boolean {
    if (this.validating !== undefined || this.inFlight.length > 0) return false;
    if (this.held && this.budgetChangeAt !== undefined) return false;
    return this.lastNoOp !== undefined && this.lastNoOp.signature === this.signature();
  }

  /** The nodes as the controller reads them now, by name. */
  views(): ClusterNode[] {
    const t = this.cluster.t;
    return this.cluster.nodes.map((n) => n.viewAt(t)).sort((a, b) => (a.state.name < b.state.name ? -1 : a.state.name > b.state.name ? 1 : 0));
  }

  private at(): Date {
    return new Date(this.input.start.getTime() + this.cluster.t * 1000);
  }

  private pendingPods(): PendingPods[] {
    return [...this.cluster.pending.entries()].filter(([, pods]) => pods.size > 0).map(([group, pods]) => ({ group, count: pods.size }));
  }

  private inputs(): { nodes: ClusterNode[]; ctx: DisruptionContext; candidates: Candidate[] } {
    const nodes = this.views();
    const pdbs = podDisruptionBudgets(
      this.input.pdbs,
      nodes.flatMap((n) => n.state.pods),
    );
    // The replay reports commands, not why nodes stay: simulations that totals rule out are skipped.
    const ctx = { ...disruptionContext(this.input.simulation, { nodes, pending: this.pendingPods(), spotToSpot: false }), screen: true };
    const candidates = nodes.map((n) => newCandidate(n, pdbs)).filter(isCandidate);
    return { nodes, ctx, candidates };
  }

  /** The cluster as consolidation last found it: unchanged and consolidated, a pass has nothing to look at. */
  private signature(): string {
    let consolidatable = 0;
    for (const node of this.cluster.nodes) if (node.consolidatableAt(this.cluster.t)) consolidatable++;
    return `${this.cluster.version}/${consolidatable}/${this.schedules.state(this.cluster.t)}`;
  }

  /** One pass: the first method with a command, which waits 15 s to be validated. */
  private pass(): void {
    const t = this.cluster.t;
    const signature = this.signature();
    if (this.lastNoOp !== undefined && this.lastNoOp.signature === signature && t - this.lastNoOp.t < CONSOLIDATION_STATE_TTL_SECONDS) {
      this.nextPass = t + DISRUPTION_POLL_SECONDS;
      return;
    }
    const { nodes, ctx, candidates } = this.inputs();
    const step = candidates.length === 0 ? undefined : nextCommand(ctx, nodes, candidates, this.at());
    if (step?.command === undefined || step.method === undefined) {
      // Held by a budget, the pass is not a settled cluster: a schedule ending may let the command through.
      this.held =
        step !== undefined &&
        (emptiness(candidates, budgetMapping(nodes, "Empty", this.at())).heldByBudget.length > 0 ||
          [...step.refused.values()].some((b) => b.message === blockingBudget("Underutilized")));
      this.budgetChangeAt = this.held ? this.schedules.nextChange(t, this.horizon) : undefined;
      this.lastNoOp = { signature, t };
      this.nextPass = t + DISRUPTION_POLL_SECONDS;
      return;
    }
    const named = step.command.candidates.map((c) => this.cluster.byName.get(c.node.state.name) as ReplayNode);
    this.validating = { at: t + VALIDATION_SECONDS, method: step.method, command: step.command, candidates: named };
  }

  /**
   * 15 s on: the candidates must still be candidates the method would take (consolidatable, not nominated, within
   * budgets); emptiness keeps those that are, consolidation needs every one and the same decision from a new
   * simulation. Then the command starts; either way the next pass follows at once.
   * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/validation.go (EmptinessValidator, ConsolidationValidator)
   */
  private validate(pending: Validating): void {
    this.validating = undefined;
    this.nextPass = this.cluster.t;
    const { nodes, ctx, candidates } = this.inputs();
    const wanted = new Set(pending.candidates.filter((n) => n.live && n.deletingSince === undefined).map((n) => n.name));
    const still = candidates.filter((c) => wanted.has(c.node.state.name) && pending.method.shouldDisrupt(ctx, c) === undefined);
    const command = this.revalidated(pending, nodes, ctx, still);
    if (command === undefined) {
      this.abandoned++;
      return;
    }
    this.start(pending.method, command);
  }

  private revalidated(pending: Validating, nodes: readonly ClusterNode[], ctx: DisruptionContext, still: readonly Candidate[]): Command | undefined {
    const budgets = budgetMapping(nodes, pending.method.reason, this.at());
    if (pending.method === EMPTINESS) {
      if (still.length === 0) return undefined;
      return EMPTINESS.computeCommand({ ctx, nodes, candidates: still, budgets, totals: poolTotals(nodes, still) }).command;
    }
    if (still.length !== pending.candidates.length) return undefined;
    const perPool = new Map<string, number>();
    for (const c of still) perPool.set(c.pool.pool, (perPool.get(c.pool.pool) ?? 0) + 1);
    for (const [pool, count] of perPool) if ((budgets.get(pool) ?? 0) < count) return undefined;
    const again = computeConsolidation(ctx, nodes, still);
    if (!isCommand(again) || (again.replacement === undefined) !== (pending.command.replacement === undefined)) return undefined;
    return again;
  }

  /** StartCommand: the candidates are tainted and marked for deletion, the replacements launch. */
  private start(method: DisruptionMethod, command: Command): void {
    const { cluster } = this;
    const candidates = command.candidates.map((c) => cluster.byName.get(c.node.state.name) as ReplayNode);
    for (const node of candidates) {
      node.deletingSince = cluster.t;
      node.touched();
    }
    // Emptiness launches nothing upstream: the pods of no eviction cost an empty node may hold are created again and
    // provisioned like any pending pod. A replace launches its replacement, room held for the candidates' pods.
    const launches = method === EMPTINESS ? [] : launchesOf(command);
    const replacements = launches.map((request) => {
      const node = cluster.launch(request);
      node.reserved = new Map(request.pods.map(({ group, count }) => [group, count]));
      node.touched();
      return node;
    });
    const kind = command.replacement === undefined ? "delete" : "replace";
    this.inFlight.push({ startedAt: cluster.t, kind, candidates, replacements });
    this.commands.push({ t: cluster.t, method: method.name, kind, nodes: candidates.map((n) => n.name), replacements: replacements.map((n) => n.name) });
    cluster.version++;
    this.carryOutCommands();
  }

  /** Once its replacements are initialized, a command deletes its candidates; after 10 minutes it is abandoned. */
  carryOutCommands(): void {
    const waiting: InFlight[] = [];
    for (const command of this.inFlight) {
      if (command.replacements.every((n) => n.ready)) this.deleteCandidates(command);
      else if (this.cluster.t - command.startedAt >= COMMAND_TIMEOUT_SECONDS) {
        for (const node of command.candidates) {
          node.deletingSince = undefined;
          node.touched();
        }
        // The replacements stay, as upstream leaves them: empty, emptiness will have them.
        for (const node of command.replacements) releaseReservation(node);
        this.abandoned++;
        this.cluster.version++;
      } else waiting.push(command);
    }
    this.inFlight = waiting;
  }

  /** The candidates' pods are evicted and created again: onto the replacements' reservations, or pending. */
  private deleteCandidates(command: InFlight): void {
    const { cluster } = this;
    for (const node of command.candidates) {
      for (const { group, count } of node.state.pods) {
        this.evicted += count;
        let left = count;
        for (const replacement of command.replacements) {
          const held = Math.min(left, replacement.reserved?.get(group) ?? 0);
          if (held === 0) continue;
          replacement.reserved?.set(group, (replacement.reserved.get(group) ?? 0) - held);
          cluster.bind(replacement, group, [{ createdAt: cluster.t, count: held }]);
          left -= held;
        }
        if (left > 0) cluster.createPods(group, left);
      }
      node.state = { ...node.state, pods: [] };
      node.terminateAt = cluster.t + TERMINATION_SECONDS;
      if (command.kind === "delete") this.deleted++;
      else this.replaced++;
    }
    // What a reservation still holds was for pods that went meanwhile: the replacement's room is free again.
    for (const replacement of command.replacements) releaseReservation(replacement);
    cluster.version++;
  }
}

/** A replacement's room held for the candidates' pods, given back: the pods it held for are not on it. */
function releaseReservation(replacement: ReplayNode): void {
  const held = replacement.reserved;
  replacement.reserved = undefined;
  if (held === undefined) return;
  replacement.state = {
    ...replacement.state,
    pods: replacement.state.pods.flatMap((p) => {
      const extra = held.get(p.group) ?? 0;
      return p.count > extra ? [{ group: p.group, count: p.count - extra }] : [];
    }),
  };
}
