// Kubernetes' taint effects. NoSchedule and NoExecute keep pods that do not tolerate them off a node;
// PreferNoSchedule only asks the scheduler to avoid it.
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/

export const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"] as const;

export type TaintEffect = (typeof TAINT_EFFECTS)[number];
