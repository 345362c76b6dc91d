import type { Requirement } from "../../instance-catalogue/requirements";

// What the planner takes from Kubernetes workload YAML: pods as groups of identical replicas, with what the
// scheduler and Karpenter read of them, and the DaemonSets that add overhead to every node they run on.

export interface Toleration {
  readonly key?: string;
  readonly operator?: "Equal" | "Exists";
  readonly value?: string;
  readonly effect?: string;
}

/** A Kubernetes label selector. Matches nothing when a term names no label at all (an empty selector matches every pod). */
export interface LabelSelector {
  readonly matchLabels: Readonly<Record<string, string>>;
  readonly matchExpressions: readonly {
    readonly key: string;
    readonly operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
    readonly values: readonly string[];
  }[];
}

/** Which namespaces a pod affinity term counts pods in: its own (the default), a list, or all (namespaceSelector: {}). */
export type NamespaceScope = { readonly kind: "own" } | { readonly kind: "list"; readonly namespaces: readonly string[] } | { readonly kind: "all" };

/** One term of pod affinity or anti-affinity: pods the selector matches, counted per domain of topologyKey. */
export interface PodAffinityTerm {
  readonly topologyKey: string;
  /** Undefined: the term selects no pod (a term without labelSelector). */
  readonly selector: LabelSelector | undefined;
  readonly namespaces: NamespaceScope;
  /** Label keys whose values on the incoming pod are added to the selector (matchLabelKeys). */
  readonly matchLabelKeys: readonly string[];
  /** Preferred terms only: 1-100. */
  readonly weight?: number;
}

export interface SpreadConstraint {
  readonly topologyKey: string;
  readonly maxSkew: number;
  readonly whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway";
  readonly selector: LabelSelector | undefined;
  readonly matchLabelKeys: readonly string[];
  readonly minDomains?: number;
  /** Honor: only domains of nodes whose taints the pod tolerates count. Kubernetes' default is Ignore. */
  readonly nodeTaintsPolicy: "Honor" | "Ignore";
}

export interface PreferredNodeTerm {
  readonly weight: number;
  readonly requirements: readonly Requirement[];
}

/** A port a pod binds on its node's network: one pod per node may hold it (kubernetes-sigs/karpenter v1.14.1 pkg/scheduling/hostportusage.go). */
export interface HostPort {
  readonly port: number;
  /** TCP, UDP or SCTP. */
  readonly protocol: string;
  /** The node address it binds; 0.0.0.0 (every address) unless the pod names one. */
  readonly ip: string;
}

/** The resource name of ephemeral storage, which pods request and nodes offer like an extended resource. */
export const EPHEMERAL_STORAGE = "ephemeral-storage";

export interface PodShape {
  /** CPU and memory as the scheduler counts them: the larger of the init peak and the running sum (or the pod-level requests), plus the RuntimeClass overhead. */
  readonly cpuMillis: number;
  readonly memoryBytes: number;
  /** GPUs and other extended resources, and ephemeral storage (EPHEMERAL_STORAGE, in bytes), by resource name. */
  readonly extended: Readonly<Record<string, number>>;
  /** nodeSelector entries, as In requirements. */
  readonly nodeSelector: readonly Requirement[];
  /** Required node affinity: terms are ORed, the requirements of a term ANDed. Empty: no affinity. */
  readonly affinityTerms: readonly (readonly Requirement[])[];
  /** Preferred node affinity, in the order written. */
  readonly preferredAffinity: readonly PreferredNodeTerm[];
  readonly podAffinity: readonly PodAffinityTerm[];
  readonly preferredPodAffinity: readonly PodAffinityTerm[];
  readonly podAntiAffinity: readonly PodAffinityTerm[];
  readonly preferredPodAntiAffinity: readonly PodAffinityTerm[];
  readonly topologySpread: readonly SpreadConstraint[];
  readonly tolerations: readonly Toleration[];
  /** False when no container requests CPU or memory: the pod counts as zero (and is warned about). */
  readonly hasRequests: boolean;
  /** The ports it binds on the node (a hostPort, or every container port with hostNetwork); absent when none. */
  readonly hostPorts?: readonly HostPort[];
  /** hostNetwork: true (Fargate refuses the pod). */
  readonly hostNetwork?: boolean;
  /** Some container runs privileged (Fargate refuses the pod). */
  readonly privileged?: boolean;
}

/** A HorizontalPodAutoscaler (or KEDA ScaledObject) that owns a group's replica count. */
export interface Autoscaling {
  /** "HorizontalPodAutoscaler default/web". */
  readonly source: string;
  readonly minReplicas: number;
  readonly maxReplicas: number;
}

/** What Karpenter reads of a pod when it decides whether, and at what cost, to disrupt the pod's node. */
export interface PodDisruption {
  /** karpenter.sh/do-not-disrupt: "true" (or a duration not yet over): Karpenter leaves the pod's node alone. */
  readonly doNotDisrupt: boolean;
  /** controller.kubernetes.io/pod-deletion-cost; 0 when not set. */
  readonly deletionCost: number;
  /** spec.priority, as admission resolves it from the priority class; 0 when not set. */
  readonly priority: number;
  /** One of its pods by name, where a running cluster's state names them: Karpenter's messages name a pod. */
  readonly examplePod?: string;
  /**
   * Its pods are terminating (a deletionTimestamp): no longer active, so Karpenter neither evicts them nor lets
   * their annotations or budgets hold the node, and reschedules them only if a StatefulSet owns them (IsReschedulable).
   */
  readonly terminating?: true;
  /** Its pods' Ready condition is False: a budget with unhealthyPodEvictionPolicy AlwaysAllow does not protect them. */
  readonly unready?: true;
}

/** A pod with nothing that weighs on its disruption. */
export const ORDINARY_DISRUPTION: PodDisruption = { doNotDisrupt: false, deletionCost: 0, priority: 0 };

export interface PodGroup {
  /** "<namespace>/<name>", unique in a workload. */
  readonly id: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** Pod template labels: Fargate profile selectors and pod (anti-)affinity selectors match them. */
  readonly labels: Readonly<Record<string, string>>;
  /** The pods that run: the workload's replicas, or its autoscaler's minimum. */
  readonly replicas: number;
  /** The autoscaler that scales the group, whose maximum the plan prices as a scenario of its own. */
  readonly autoscaling?: Autoscaling;
  readonly pod: PodShape;
  /** The file it came from. */
  readonly file: string;
  /** What weighs on disrupting its pods' nodes; ORDINARY_DISRUPTION when undefined. */
  readonly disruption?: PodDisruption;
  /** spec.nodeName: its pods are bound to that node from the start, and Karpenter provisions nothing for them. */
  readonly boundTo?: string;
  /** Why Karpenter provisions nothing for its pods (an unbound volume it cannot place them by), when it does not. */
  readonly ignoredBecause?: string;
  /** A StatefulSet with podManagementPolicy OrderedReady (the default): it creates one pod at a time, each once the one before runs. */
  readonly orderedReady?: boolean;
}

export interface DaemonSetShape {
  readonly id: string;
  readonly pod: PodShape;
  readonly file: string;
  /**
   * A DaemonSet or mirror pod running on a node of a cluster's state: Karpenter checks every pod of a node before it
   * disrupts it (its do-not-disrupt annotation, the budgets that select it by its labels), these too.
   */
  readonly running?: RunningPod;
}

/** A pod of a cluster's state that is never moved, as the disruption controller reads it. */
export interface RunningPod {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly disruption: PodDisruption;
  /** A static pod's mirror: never evicted (IsOwnedByNode), so no budget holds it. */
  readonly mirror: boolean;
}

export interface Workload {
  readonly groups: readonly PodGroup[];
  readonly daemonSets: readonly DaemonSetShape[];
  /** The workload's PodDisruptionBudgets: consolidation may disrupt only so many of the pods each selects. */
  readonly pdbs: readonly PodDisruptionBudgetSpec[];
  readonly warnings: readonly string[];
}

/** A pod shape with no scheduling constraints: what a DaemonSet of the system, or a test, starts from. */
export const PLAIN_POD: Omit<PodShape, "cpuMillis" | "memoryBytes"> = {
  extended: {},
  nodeSelector: [],
  affinityTerms: [],
  preferredAffinity: [],
  podAffinity: [],
  preferredPodAffinity: [],
  podAntiAffinity: [],
  preferredPodAntiAffinity: [],
  topologySpread: [],
  tolerations: [],
  hasRequests: true,
};

/** A budget as written: which pods, and how many must stay or may go. */
export interface PodDisruptionBudgetSpec {
  readonly namespace: string;
  readonly name: string;
  readonly selector: LabelSelector;
  readonly minAvailable?: number | string;
  readonly maxUnavailable?: number | string;
  /** AlwaysAllow: a pod that is not ready may be evicted whatever the budget says (policy/v1, Kubernetes 1.27+). */
  readonly unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
  /** status.disruptionsAllowed, where the cluster's controller wrote it. */
  readonly statusAllowed?: number;
}

/** A budget as the disruption controller weighs it. */
export interface PodDisruptionBudget {
  readonly namespace: string;
  readonly name: string;
  readonly selector: LabelSelector;
  /** status.disruptionsAllowed, or what the controller would compute with every pod healthy. */
  readonly disruptionsAllowed: number;
  readonly unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
}
