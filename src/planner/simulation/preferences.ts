import type { Requirement } from "../../instance-catalogue/requirements";
import type { PodAffinityTerm, PodShape, PreferredNodeTerm, SpreadConstraint } from "../workload/workload-model";
import type { PodForm } from "./pod-fit";
import { TOLERATE_PREFER_NO_SCHEDULE } from "./taints";

// Karpenter treats every preference as a requirement first, and relaxes one at a time only when a pod cannot
// be scheduled: Preferences.Relax applies the first of these that changes something, and the pod is tried
// again. The next pod of the same workload starts again from the full preferences.
//   1. drop the first of several required node affinity terms (they are ORed; the first one is used)
//   2. drop the heaviest preferred pod affinity term
//   3. drop the heaviest preferred pod anti-affinity term
//   4. drop the heaviest preferred node affinity term (the heaviest one left is used as a requirement)
//   5. drop the first ScheduleAnyway topology spread constraint (swapped with the last, then truncated)
//   6. tolerate PreferNoSchedule taints, when some NodePool has one
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/preferences.go Relax
// @see kubernetes-sigs/karpenter v1.14.1 pkg/scheduling/requirements.go NewPodRequirements

/** A topology constraint a pod carries, as the topology registry tracks it. */
export type PodConstraint =
  | { readonly kind: "spread"; readonly spread: SpreadConstraint }
  | { readonly kind: "affinity" | "anti-affinity"; readonly term: PodAffinityTerm; readonly preferred: boolean };

export interface SchedulingForm extends PodForm {
  /** The required-only requirements (node selector and the required term in use): the pod's own domains. */
  readonly strict: readonly Requirement[];
  readonly constraints: readonly PodConstraint[];
  /** What this form has given up, for the reader of a plan; empty for the pod as written. */
  readonly relaxed: readonly string[];
}

const byWeight = <T extends { readonly weight?: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => (b.weight ?? 0) - (a.weight ?? 0));

interface State {
  readonly terms: readonly (readonly Requirement[])[];
  readonly preferredAffinity: readonly PodAffinityTerm[];
  readonly preferredAnti: readonly PodAffinityTerm[];
  readonly preferredNode: readonly PreferredNodeTerm[];
  readonly spreads: readonly SpreadConstraint[];
  readonly toleratePreferNoSchedule: boolean;
  readonly relaxed: readonly string[];
}

function formOf(pod: PodShape, state: State): SchedulingForm {
  const strict = [...pod.nodeSelector, ...(state.terms[0] ?? [])];
  const requirements = [...strict, ...(state.preferredNode[0]?.requirements ?? [])];
  const tolerations = state.toleratePreferNoSchedule ? [...pod.tolerations, TOLERATE_PREFER_NO_SCHEDULE] : pod.tolerations;
  const constraints: PodConstraint[] = [
    ...pod.podAffinity.map((term) => ({ kind: "affinity" as const, term, preferred: false })),
    ...state.preferredAffinity.map((term) => ({ kind: "affinity" as const, term, preferred: true })),
    ...pod.podAntiAffinity.map((term) => ({ kind: "anti-affinity" as const, term, preferred: false })),
    ...state.preferredAnti.map((term) => ({ kind: "anti-affinity" as const, term, preferred: true })),
    ...state.spreads.map((spread) => ({ kind: "spread" as const, spread })),
  ];
  return { requirements, strict, tolerations, constraints, relaxed: state.relaxed, key: `${JSON.stringify(requirements)}\0${JSON.stringify(tolerations)}` };
}

/** The state after one Relax, or undefined when nothing is left to relax. */
function relax(state: State, canToleratePreferNoSchedule: boolean): State | undefined {
  const gave = (what: string) => [...state.relaxed, what];
  if (state.terms.length > 1) return { ...state, terms: state.terms.slice(1), relaxed: gave("its first required node affinity term") };
  if (state.preferredAffinity.length > 0)
    return {
      ...state,
      preferredAffinity: state.preferredAffinity.slice(1),
      relaxed: gave(`preferred pod affinity on ${state.preferredAffinity[0].topologyKey}`),
    };
  if (state.preferredAnti.length > 0)
    return { ...state, preferredAnti: state.preferredAnti.slice(1), relaxed: gave(`preferred pod anti-affinity on ${state.preferredAnti[0].topologyKey}`) };
  if (state.preferredNode.length > 0) return { ...state, preferredNode: state.preferredNode.slice(1), relaxed: gave("a preferred node affinity term") };
  const anyway = state.spreads.findIndex((s) => s.whenUnsatisfiable === "ScheduleAnyway");
  if (anyway >= 0) {
    const spreads = [...state.spreads];
    const removed = spreads[anyway];
    spreads[anyway] = spreads[spreads.length - 1];
    spreads.pop();
    return { ...state, spreads, relaxed: gave(`the ScheduleAnyway spread on ${removed.topologyKey}`) };
  }
  if (!state.toleratePreferNoSchedule && canToleratePreferNoSchedule)
    return { ...state, toleratePreferNoSchedule: true, relaxed: gave("PreferNoSchedule taints") };
  return undefined;
}

/** Forms by pod shape, shared by every scenario of a plan (a shape's forms do not depend on the pools' requirements). */
const cache = new WeakMap<PodShape, Map<boolean, readonly SchedulingForm[]>>();

/** Every form a pod is tried in, from the pod as written to the most relaxed. */
export function schedulingForms(pod: PodShape, canToleratePreferNoSchedule: boolean): readonly SchedulingForm[] {
  let byFlag = cache.get(pod);
  if (byFlag === undefined) {
    byFlag = new Map();
    cache.set(pod, byFlag);
  }
  let forms = byFlag.get(canToleratePreferNoSchedule);
  if (forms === undefined) {
    forms = formsOf(pod, canToleratePreferNoSchedule);
    byFlag.set(canToleratePreferNoSchedule, forms);
  }
  return forms;
}

function formsOf(pod: PodShape, canToleratePreferNoSchedule: boolean): SchedulingForm[] {
  let state: State | undefined = {
    terms: pod.affinityTerms,
    preferredAffinity: byWeight(pod.preferredPodAffinity),
    preferredAnti: byWeight(pod.preferredPodAntiAffinity),
    preferredNode: byWeight(pod.preferredAffinity),
    spreads: pod.topologySpread,
    toleratePreferNoSchedule: false,
    relaxed: [],
  };
  const forms: SchedulingForm[] = [];
  while (state !== undefined) {
    forms.push(formOf(pod, state));
    state = relax(state, canToleratePreferNoSchedule);
  }
  return forms;
}
