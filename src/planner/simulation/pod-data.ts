import type { HostPort, PodGroup } from "../workload/workload-model";
import { type SchedulingForm, schedulingForms } from "./preferences";
import { type Resources, requestsOf } from "./resources";

// What the scheduler works out once per pod and reads at every attempt: its requests, and the forms it is
// tried in, from the pod as written to the most relaxed. The planner schedules groups of identical replicas, so
// this is worked out once per group.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go (PodData, updateCachedPodData)

export interface PodData {
  readonly group: PodGroup;
  readonly requests: Resources;
  /** From the pod as written to the most relaxed (preferences.ts). */
  readonly forms: readonly SchedulingForm[];
  /**
   * Without spread or affinity of its own, a pod meets the same refusal from a node (or a pool) as its twin before
   * it: nodes only fill and limits only shrink. Only a pod with spread or affinity can fit later in the same
   * loop, once other pods open the domain it needs.
   */
  readonly monotone: boolean;
  /** The ports it binds on its node; undefined when none (most pods: then nothing is checked). */
  readonly hostPorts: readonly HostPort[] | undefined;
}

/** `canToleratePreferNoSchedule`: some NodePool has a PreferNoSchedule taint (the last relaxation step). */
export function podDataOf(group: PodGroup, canToleratePreferNoSchedule: boolean): PodData {
  const forms = schedulingForms(group.pod, canToleratePreferNoSchedule);
  const ports = group.pod.hostPorts;
  return {
    group,
    requests: requestsOf(group.pod),
    forms,
    monotone: forms[0].constraints.every((c) => c.kind === "anti-affinity"),
    hostPorts: ports === undefined || ports.length === 0 ? undefined : ports,
  };
}
