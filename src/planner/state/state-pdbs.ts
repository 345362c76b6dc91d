import type { PodDisruptionBudget } from "../consolidation/cluster-node";
import { labelSelectorOf, selects } from "../workload/label-selector";
import { isRecord, type Raw } from "../workload/raw-object";
import type { PodGroup } from "../workload/workload-model";

// A running cluster's PodDisruptionBudgets: how many of the pods each selects may be disrupted now. The state's
// own status.disruptionsAllowed when it has one; else what the disruption controller would compute with every
// pod it selects healthy: minAvailable and maxUnavailable, percentages of the pods selected rounded up.
// @see https://kubernetes.io/docs/tasks/run-application/configure-pdb/#rounding-logic-when-specifying-percentages

/** A count, or a percentage of `of` rounded up (intstr.GetScaledValueFromIntOrPercent, roundUp). */
function scaled(value: unknown, of: number): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\d+%$/.test(value)) return Math.ceil((of * Number(value.slice(0, -1))) / 100);
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

export function statePdbs(pdbs: readonly Raw[], groups: readonly PodGroup[], problems: string[]): PodDisruptionBudget[] {
  return pdbs.flatMap((raw) => {
    const metadata = isRecord(raw.metadata) ? raw.metadata : {};
    const name = String(metadata.name ?? "");
    const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
    const where = `PodDisruptionBudget ${namespace}/${name}`;
    const spec = isRecord(raw.spec) ? raw.spec : {};
    const selector = labelSelectorOf(spec.selector, `${where}: spec.selector`, (path, _value, message) => problems.push(`${path}: ${message}`));
    // policy/v1: a PDB without a selector selects no pod.
    if (selector === undefined) return [];
    const status = isRecord(raw.status) ? raw.status : {};
    if (typeof status.disruptionsAllowed === "number") return [{ namespace, name, selector, disruptionsAllowed: status.disruptionsAllowed }];
    const expected = groups.filter((g) => g.namespace === namespace && selects(selector, g.labels)).reduce((sum, g) => sum + g.replicas, 0);
    const minAvailable = scaled(spec.minAvailable, expected);
    const maxUnavailable = scaled(spec.maxUnavailable, expected);
    const allowed = minAvailable !== undefined ? expected - minAvailable : maxUnavailable !== undefined ? maxUnavailable : expected;
    return [{ namespace, name, selector, disruptionsAllowed: Math.max(0, allowed) }];
  });
}
