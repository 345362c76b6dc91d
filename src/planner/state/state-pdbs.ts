import { podDisruptionBudgets, readPodDisruptionBudget } from "../workload/pod-disruption-budgets";
import type { Raw } from "../workload/raw-object";
import type { PodDisruptionBudget, PodGroup } from "../workload/workload-model";

// A running cluster's PodDisruptionBudgets: how many of the pods each selects may be disrupted now, as the
// cluster's disruption controller wrote it (status.disruptionsAllowed), else as it would compute it with every pod
// it selects healthy (pod-disruption-budgets.ts). What the planner cannot read of one is a warning: the API server
// admitted it.

export function statePdbs(pdbs: readonly Raw[], groups: readonly PodGroup[], warnings: string[]): PodDisruptionBudget[] {
  const specs = pdbs.flatMap((raw) => {
    const metadata = (raw.metadata ?? {}) as { name?: unknown; namespace?: unknown };
    const where = `PodDisruptionBudget ${String(metadata.namespace ?? "default")}/${String(metadata.name ?? "")}`;
    const spec = readPodDisruptionBudget(raw, (path, _value, message) => warnings.push(`${where}: ${path}: ${message}; read as far as the planner models it`));
    return spec === undefined ? [] : [spec];
  });
  return podDisruptionBudgets(
    specs,
    groups.map((group) => ({ group, count: group.replicas })),
  );
}
