import { labelSelectorOf, selects } from "./label-selector";
import { isRecord, type Raw, type Report } from "./raw-object";
import type { PodDisruptionBudget, PodDisruptionBudgetSpec, PodGroup } from "./workload-model";

// PodDisruptionBudgets, as written in a workload and as a running cluster holds them: the pods a budget selects in
// its namespace, and how many of them may be disrupted now. A cluster's disruption controller writes that number
// to status.disruptionsAllowed; a workload has no status, so it is what the controller would compute with every
// pod it selects healthy: minAvailable or maxUnavailable, a percentage of the pods selected rounded up.
// @see kubernetes/kubernetes pkg/controller/disruption/disruption.go (getExpectedPodCount, updatePdbStatus): maxUnavailable
//      wins when both are written, as the API server refuses both together anyway
// @see https://kubernetes.io/docs/tasks/run-application/configure-pdb/#rounding-logic-when-specifying-percentages

const intOrPercent = (value: unknown): number | string | undefined =>
  typeof value === "number" || (typeof value === "string" && /^\d+%?$/.test(value)) ? value : undefined;

/** A PodDisruptionBudget object; undefined for one that selects no pod (policy/v1: no selector selects nothing). */
export function readPodDisruptionBudget(object: Raw, report: Report): PodDisruptionBudgetSpec | undefined {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = String(metadata.name ?? "");
  const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
  const spec = isRecord(object.spec) ? object.spec : {};
  const selector = labelSelectorOf(spec.selector, "spec.selector", report);
  if (selector === undefined) return undefined;
  for (const field of ["minAvailable", "maxUnavailable"] as const) {
    if (spec[field] !== undefined && intOrPercent(spec[field]) === undefined)
      report(`spec.${field}`, spec[field], "must be a count or a percentage such as 50%");
  }
  const policy = spec.unhealthyPodEvictionPolicy;
  const status = isRecord(object.status) ? object.status : {};
  return {
    namespace,
    name,
    selector,
    minAvailable: intOrPercent(spec.minAvailable),
    maxUnavailable: intOrPercent(spec.maxUnavailable),
    ...(policy === "AlwaysAllow" || policy === "IfHealthyBudget" ? { unhealthyPodEvictionPolicy: policy } : {}),
    ...(typeof status.disruptionsAllowed === "number" ? { statusAllowed: status.disruptionsAllowed } : {}),
  };
}

/** A count, or a percentage of `of` rounded up (intstr.GetScaledValueFromIntOrPercent, roundUp). */
function scaled(value: number | string | undefined, of: number): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.endsWith("%")) return Math.ceil((of * Number(value.slice(0, -1))) / 100);
  return value === undefined ? undefined : Number(value);
}

/** How many of `expected` healthy pods the budget lets go: the disruption controller's arithmetic. */
export function allowedWithEveryPodHealthy(spec: PodDisruptionBudgetSpec, expected: number): number {
  const minAvailable = scaled(spec.minAvailable, expected);
  const maxUnavailable = scaled(spec.maxUnavailable, expected);
  // Neither written: policy/v1 has no default (only v1beta1 defaulted minAvailable to 1), and the controller
  // then wants no pod healthy: every pod may go.
  const allowed = maxUnavailable !== undefined ? maxUnavailable : minAvailable !== undefined ? expected - minAvailable : expected;
  return Math.max(0, allowed);
}

/**
 * The budgets as the disruption controller weighs them: the cluster's own status where it has one, else the
 * arithmetic over the pods each selects among `pods`.
 */
export function podDisruptionBudgets(
  specs: readonly PodDisruptionBudgetSpec[],
  pods: Iterable<{ readonly group: PodGroup; readonly count: number }>,
): PodDisruptionBudget[] {
  const counted = [...pods];
  return specs.map((spec) => {
    const disruptionsAllowed =
      spec.statusAllowed ??
      allowedWithEveryPodHealthy(
        spec,
        counted.filter(({ group }) => group.namespace === spec.namespace && selects(spec.selector, group.labels)).reduce((sum, p) => sum + p.count, 0),
      );
    return {
      namespace: spec.namespace,
      name: spec.name,
      selector: spec.selector,
      disruptionsAllowed,
      ...(spec.unhealthyPodEvictionPolicy === undefined ? {} : { unhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy }),
    };
  });
}
