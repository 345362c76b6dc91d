import { isRecord, type Raw, type Report } from "./raw-object";
import type { PodGroup } from "./workload-model";

// HorizontalPodAutoscalers and KEDA ScaledObjects: they own the replica count of the workload they target.
// The plan runs the workload at the autoscaler's minimum, and a scenario of its own at the maximum.
// HPA: minReplicas defaults to 1 and maxReplicas is required; a target whose replicas is set to 0 is left
// alone (the HPA is inactive). KEDA: minReplicaCount defaults to 0, maxReplicaCount to 100, the target kind
// to Deployment.
// @see https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/horizontal-pod-autoscaler-v2/
// @see https://keda.sh/docs/latest/reference/scaledobject-spec/

export interface Autoscaler {
  readonly source: string;
  readonly namespace: string;
  readonly target: { readonly kind: string; readonly name: string };
  readonly minReplicas: number;
  readonly maxReplicas: number;
}

const count = (value: unknown, fallback: number | undefined, least: number, path: string, report: Report): number | undefined => {
  if (value === undefined || value === null) {
    if (fallback === undefined) report(path, value, "must be set: the most replicas the autoscaler may run");
    return fallback;
  }
  if (typeof value === "number" && Number.isInteger(value) && value >= least) return value;
  report(path, value, least === 0 ? "must be a non-negative integer" : LEAST_ONE);
  return undefined;
};

/** An HPA's minReplicas of 0 needs the HPAScaleToZero feature gate, alpha and off unless the control plane turns it on (EKS does not). */
const LEAST_ONE = "must be an integer of at least 1: the API server refuses 0 unless the HPAScaleToZero feature gate (alpha, off on EKS) is on";

/** The autoscaler an HPA or ScaledObject document describes, or undefined after reporting every field that is wrong. */
export function autoscalerOf(
  kind: "HorizontalPodAutoscaler" | "ScaledObject",
  name: string,
  namespace: string,
  spec: Raw,
  report: Report,
): Autoscaler | undefined {
  const ref = isRecord(spec.scaleTargetRef) ? spec.scaleTargetRef : undefined;
  const hpa = kind === "HorizontalPodAutoscaler";
  const targetKind = ref?.kind ?? (hpa ? undefined : "Deployment");
  const target = typeof targetKind === "string" && typeof ref?.name === "string" ? { kind: targetKind, name: ref.name } : undefined;
  if (target === undefined) report("spec.scaleTargetRef", spec.scaleTargetRef, "must name the workload it scales {kind, name}");
  // HPA: minReplicas defaults to 1, maxReplicas is required and at least 1 (ValidateHorizontalPodAutoscalerSpec);
  // KEDA: minReplicaCount defaults to 0, maxReplicaCount to 100 (the ScaledObject webhook checks the rest).
  const min = hpa ? count(spec.minReplicas, 1, 1, "spec.minReplicas", report) : count(spec.minReplicaCount, 0, 0, "spec.minReplicaCount", report);
  const max = hpa ? count(spec.maxReplicas, undefined, 1, "spec.maxReplicas", report) : count(spec.maxReplicaCount, 100, 0, "spec.maxReplicaCount", report);
  const maxField = hpa ? "spec.maxReplicas" : "spec.maxReplicaCount";
  const tooFew = min !== undefined && max !== undefined && max < min;
  if (tooFew) report(maxField, max, `must be at least the minimum (${min})`);
  const wrongIdle = hpa ? false : idleProblem(spec, min, report);
  const noTriggers = !hpa && !(Array.isArray(spec.triggers) && spec.triggers.length > 0);
  if (noTriggers) report("spec.triggers", spec.triggers, "must list at least one trigger (what KEDA scales on)");
  if (target === undefined || min === undefined || max === undefined || tooFew || wrongIdle || noTriggers) return undefined;
  return { source: `${kind} ${namespace}/${name}`, namespace, target, minReplicas: min, maxReplicas: max };
}

/** KEDA's idleReplicaCount, when set, must be below minReplicaCount; true after reporting that it is not. */
function idleProblem(spec: Raw, min: number | undefined, report: Report): boolean {
  const idle = spec.idleReplicaCount;
  if (idle === undefined || idle === null) return false;
  if (typeof idle !== "number" || !Number.isInteger(idle) || idle < 0) {
    report("spec.idleReplicaCount", idle, "must be a non-negative integer");
    return true;
  }
  if (min !== undefined && idle >= min) {
    report("spec.idleReplicaCount", idle, `must be below minReplicaCount (${min}): KEDA refuses the ScaledObject otherwise`);
    return true;
  }
  return false;
}

/**
 * The groups with their autoscalers applied: each targeted workload runs at the minimum and records the
 * maximum. `pinnedToZero` are workloads whose manifest sets replicas to 0, which an HPA leaves alone.
 */
export function withAutoscalers(
  groups: readonly PodGroup[],
  autoscalers: readonly Autoscaler[],
  pinnedToZero: ReadonlySet<PodGroup>,
  warnings: string[],
): PodGroup[] {
  const byTarget = new Map(groups.map((g) => [`${g.kind}\0${g.namespace}\0${g.name}`, g]));
  const scaled = new Map<PodGroup, Autoscaler>();
  for (const a of autoscalers) {
    const group = byTarget.get(`${a.target.kind}\0${a.namespace}\0${a.target.name}`);
    if (group === undefined) warnings.push(`${a.source} scales ${a.target.kind} ${a.namespace}/${a.target.name}, which the workload does not hold: ignored`);
    else if (scaled.has(group)) warnings.push(`${a.source} scales ${group.id}, which ${scaled.get(group)?.source} already scales: ignored`);
    else if (!pinnedToZero.has(group)) scaled.set(group, a);
  }
  return groups.map((g) => {
    const a = scaled.get(g);
    return a === undefined ? g : { ...g, replicas: a.minReplicas, autoscaling: { source: a.source, minReplicas: a.minReplicas, maxReplicas: a.maxReplicas } };
  });
}
