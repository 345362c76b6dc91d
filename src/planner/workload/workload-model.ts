import type { Requirement } from "../../instance-catalogue/requirements";

// What the planner takes from Kubernetes workload YAML: pods as groups of identical replicas, and the
// DaemonSets that add overhead to every node they run on.

export interface Toleration {
  readonly key?: string;
  readonly operator?: "Equal" | "Exists";
  readonly value?: string;
  readonly effect?: string;
}

export interface PodShape {
  /** CPU and memory as the scheduler counts them: the larger of the init peak and the running sum. */
  readonly cpuMillis: number;
  readonly memoryBytes: number;
  /** GPUs and other extended resources, by resource name. */
  readonly extended: Readonly<Record<string, number>>;
  /** nodeSelector entries, as In requirements. */
  readonly nodeSelector: readonly Requirement[];
  /** Required node affinity: terms are ORed, the requirements of a term ANDed. Empty: no affinity. */
  readonly affinityTerms: readonly (readonly Requirement[])[];
  readonly tolerations: readonly Toleration[];
  /** False when no container requests CPU or memory: the pod counts as zero (and is warned about). */
  readonly hasRequests: boolean;
}

export interface PodGroup {
  /** "<namespace>/<name>", unique in a workload. */
  readonly id: string;
  readonly kind: string;
  readonly namespace: string;
  /** Pod template labels: Fargate profile selectors match them. */
  readonly labels: Readonly<Record<string, string>>;
  readonly replicas: number;
  readonly pod: PodShape;
  /** The file it came from. */
  readonly file: string;
}

export interface DaemonSetShape {
  readonly id: string;
  readonly pod: PodShape;
  readonly file: string;
}

export interface Workload {
  readonly groups: readonly PodGroup[];
  readonly daemonSets: readonly DaemonSetShape[];
  readonly warnings: readonly string[];
}
