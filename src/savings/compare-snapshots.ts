import { HOURS_PER_MONTH, roundUsd } from "../planner/plan/plan-types";
import type { MoveJson } from "./moves/moves";
import type { NodeJson, SavingsJson } from "./savings-report";

// `--compare <before>`: a saved report against what runs now. Nodes added, removed and replaced (a node gone and
// one come in the same NodePool: what consolidation and a move to Graviton or spot do), the cost per hour and
// per month, per namespace, and what the snapshot predicted against what was measured: the converged cost, and
// each move it priced (arm64, spot, both), beside the cost now.

export interface NodeRef {
  readonly name: string;
  readonly instanceType: string;
}

export interface ChangeJson {
  /** The snapshot compared with. */
  readonly before: { readonly source: string; readonly at: string; readonly hourlyUsd: number };
  /** Now less before: negative is a saving. */
  readonly hourlyUsd: number;
  readonly monthlyUsd: number;
  readonly nodesAdded: readonly NodeRef[];
  readonly nodesRemoved: readonly NodeRef[];
  /** A node removed, and the node of its NodePool that came in its place. */
  readonly nodesReplaced: readonly (NodeRef & { readonly by: NodeRef })[];
  readonly byNamespace: readonly {
    readonly namespace: string;
    readonly beforeHourlyUsd: number;
    readonly nowHourlyUsd: number;
    readonly changeHourlyUsd: number;
  }[];
  /** What the snapshot predicted, against the cost measured now. */
  readonly predicted: readonly {
    readonly what: string;
    readonly predictedHourlyUsd: number;
    readonly measuredHourlyUsd: number;
    readonly differenceHourlyUsd: number;
  }[];
}

/**
 * The moves a saved report priced: a list since the report listed the spot moves offline; a snapshot saved before
 * kept them under moves.moves, each priced.
 */
function movesOf(report: SavingsJson): readonly Pick<MoveJson, "name" | "hourlyUsd" | "priced">[] {
  const moves = report.moves as unknown;
  if (Array.isArray(moves)) return moves as MoveJson[];
  const older = (moves as { moves?: unknown } | undefined)?.moves;
  return Array.isArray(older) ? (older as MoveJson[]).map((m) => ({ ...m, priced: true })) : [];
}

export function compareReports(before: SavingsJson, now: SavingsJson): ChangeJson {
  const beforeNodes = new Map(before.now.nodes.map((n) => [n.name, n]));
  const nowNodes = new Map(now.now.nodes.map((n) => [n.name, n]));
  const removed = [...beforeNodes.values()].filter((n) => !nowNodes.has(n.name));
  const added = [...nowNodes.values()].filter((n) => !beforeNodes.has(n.name));
  const replaced: (NodeRef & { by: NodeRef })[] = [];
  const unmatched = [...added];
  for (const gone of removed) {
    const i = unmatched.findIndex((n) => n.nodePool !== null && n.nodePool === gone.nodePool);
    if (i < 0) continue;
    const [by] = unmatched.splice(i, 1);
    replaced.push({ name: gone.name, instanceType: gone.instanceType, by: { name: by.name, instanceType: by.instanceType } });
  }
  const replacedNames = new Set(replaced.map((r) => r.name));
  const ref = (n: NodeJson): NodeRef => ({ name: n.name, instanceType: n.instanceType });
  const namespaces = new Set([...before.now.byNamespace.map((n) => n.namespace), ...now.now.byNamespace.map((n) => n.namespace)]);
  const cost = (report: SavingsJson, namespace: string) => report.now.byNamespace.find((n) => n.namespace === namespace)?.hourlyUsd ?? 0;
  const measured = now.now.hourlyUsd;
  const prediction = (what: string, predicted: number) => ({
    what,
    predictedHourlyUsd: predicted,
    measuredHourlyUsd: measured,
    differenceHourlyUsd: roundUsd(measured - predicted),
  });
  return {
    before: { source: before.source, at: before.at, hourlyUsd: before.now.hourlyUsd },
    hourlyUsd: roundUsd(measured - before.now.hourlyUsd),
    monthlyUsd: roundUsd((measured - before.now.hourlyUsd) * HOURS_PER_MONTH, 2),
    nodesAdded: unmatched.map(ref),
    nodesRemoved: removed.filter((n) => !replacedNames.has(n.name)).map(ref),
    nodesReplaced: replaced,
    byNamespace: [...namespaces].sort().map((namespace) => ({
      namespace,
      beforeHourlyUsd: cost(before, namespace),
      nowHourlyUsd: cost(now, namespace),
      changeHourlyUsd: roundUsd(cost(now, namespace) - cost(before, namespace)),
    })),
    predicted: [
      prediction("converged (consolidation alone)", before.converged.hourlyUsd),
      ...movesOf(before).map((m) => prediction(`move: ${m.name}${m.priced === false ? " (spot at the on-demand rate)" : ""}`, m.hourlyUsd)),
    ],
  };
}
