import { getOrAdd } from "../../shared/get-or-add";
import { type AdmissionObjects, admittedPod } from "../workload/admission";
import { readPodSpec } from "../workload/pod-spec";
import { isRecord, type Raw } from "../workload/raw-object";
import type { DaemonSetShape, PodGroup, PodShape } from "../workload/workload-model";
import { disruptionOf, isMirror, isOwnedByDaemonSet, isTerminal, notProvisionableBecause, type PodFacts, podFactsOf, workloadOf } from "./pod-facts";

// A running cluster's pods as the scheduler and the disruption controller see them: grouped by workload, shape and
// what weighs on their disruption (identical pods of one Deployment are one group, on however many nodes), counted
// per node. Pods that finished hold no node; DaemonSet and mirror (static) pods run where they are and are never
// moved, but still count when Karpenter decides whether a node may be disrupted; pods bound to no node are pending,
// and Karpenter provisions for those kube-scheduler marked unschedulable (pod-facts.ts).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/pod/scheduling.go (IsReschedulable, IsActive, IsProvisionable)

/** Labels that differ from pod to pod of one workload: kept off the group, or every pod would be its own. */
const PER_POD_LABELS = new Set(["statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index", "batch.kubernetes.io/job-completion-index"]);

export interface PendingPods {
  readonly group: PodGroup;
  readonly count: number;
  /** Why Karpenter's provisioner leaves them alone; undefined for the pods it provisions for. */
  readonly ignored?: string;
}

export interface StatePods {
  /** Each node's pods Karpenter may move, by group. */
  readonly byNode: ReadonlyMap<string, { readonly group: PodGroup; count: number }[]>;
  /** Each node's DaemonSet and mirror pods. */
  readonly fixedByNode: ReadonlyMap<string, DaemonSetShape[]>;
  /** Every group, in the order first seen. */
  readonly groups: readonly PodGroup[];
  /**
   * Pods bound to no node, by group: `ignored` says why Karpenter does not provision for them (not marked
   * unschedulable, nominated, another scheduler's, or refused by Provisioner.Validate); the others it provisions
   * for, and consolidation simulates them beside the pods it moves.
   */
  readonly pending: readonly PendingPods[];
  /** The DaemonSets known from their pods, for nodes that have none of their pods yet. */
  readonly daemonSetsFromPods: readonly DaemonSetShape[];
  /** EKS's CapacityProvisioned annotation ("0.25vCPU 0.5GB") by the node of its pod: a Fargate node runs one pod. */
  readonly capacityProvisioned: ReadonlyMap<string, string>;
  /** The container images each group runs (init containers included): whether they have run on arm64 is read from them. */
  readonly images: ReadonlyMap<PodGroup, readonly string[]>;
  /** What the planner could not model of the pods, once per workload: never a refusal, the API server admitted them. */
  readonly warnings: readonly string[];
}

/** Every image a pod spec names, init containers included. */
function imagesOf(spec: unknown): string[] {
  if (!isRecord(spec)) return [];
  const containers = ["initContainers", "containers"].flatMap((field) => (Array.isArray(spec[field]) ? spec[field].filter(isRecord) : []));
  return [...new Set(containers.flatMap((c) => (typeof c.image === "string" ? [c.image] : [])))];
}

/** What could not be modelled of a workload's pods: the first pod's problems, and how many of its pods had any. */
interface Unmodelled {
  readonly pod: string;
  readonly problems: readonly string[];
  pods: number;
}

/** A bound pod pinned to its node by name: Karpenter's scheduler would move it as if it were not. */
const PINNED_BY_NAME =
  "pinned to its node by name (a node selector term with matchFields): Karpenter's scheduler reads only matchExpressions (scheduling.NewPodRequirements), so consolidation may move it, though it could not run elsewhere";

/**
 * The pods of a state, grouped. A pod the API server admitted is never refused: what the planner cannot model of
 * it is a warning, once per workload, and the pod is read as far as the planner models it. `at` decides whether a
 * duration-valued do-not-disrupt annotation still holds. `admission`: the state's volumes, whose zones hold a pod
 * to where its volume is (LimitRange defaults and RuntimeClass overhead are in a running pod's spec already).
 */
export function statePods(pods: readonly Raw[], at: Date, admission: AdmissionObjects): StatePods {
  const byKey = new Map<string, PodGroup>();
  const ids = new Map<string, number>();
  const byNode = new Map<string, { group: PodGroup; count: number }[]>();
  const fixedByNode = new Map<string, DaemonSetShape[]>();
  const daemonSets = new Map<string, DaemonSetShape>();
  const pending = new Map<string, { group: PodGroup; count: number; ignored?: string }>();
  const capacityProvisioned = new Map<string, string>();
  const images = new Map<PodGroup, readonly string[]>();
  const unmodelled = new Map<string, Unmodelled>();
  const pinned = new Set<string>();
  for (const raw of pods) {
    const pod = podFactsOf(raw);
    if (isTerminal(pod)) continue;
    const provisioned = pod.annotations.CapacityProvisioned;
    if (provisioned !== undefined && pod.nodeName !== undefined) capacityProvisioned.set(pod.nodeName, provisioned);
    const where = `Pod ${pod.namespace}/${pod.name}`;
    const found: string[] = [];
    const facts = readPodSpec(pod.spec, `${where}: spec`, (path, _value, message) => found.push(`${path}: ${message}`));
    const admitted = admittedPod(facts, pod.namespace, admission);
    const shape: PodShape = admitted.pod;
    const fixed = isOwnedByDaemonSet(pod) || isMirror(pod);
    const workloadKey = fixed ? `${pod.namespace}/${pod.controller?.kind ?? "Pod"}/${pod.controller?.name ?? pod.name}` : workloadName(pod);
    if (found.length > 0) {
      const seen = unmodelled.get(workloadKey);
      if (seen === undefined) unmodelled.set(workloadKey, { pod: `${pod.namespace}/${pod.name}`, problems: found, pods: 1 });
      else seen.pods++;
    }
    // The DaemonSet controller pins each of its pods to its node; a DaemonSet pod is never rescheduled, so the pin changes nothing.
    if (!fixed && pod.nodeName !== undefined && facts?.placement.matchFields === true) pinned.add(workloadKey);
    if (fixed) {
      const daemonSet = isOwnedByDaemonSet(pod);
      const id = `${pod.namespace}/${daemonSet ? pod.controller?.name : pod.name}`;
      if (daemonSet && !daemonSets.has(id)) daemonSets.set(id, { id, pod: shape, file: "the cluster's state" });
      if (pod.nodeName !== undefined) {
        const running = { name: pod.name, namespace: pod.namespace, labels: pod.labels, disruption: disruptionOf(pod, at), mirror: !daemonSet };
        const on = fixedByNode.get(pod.nodeName) ?? [];
        on.push({ id, pod: shape, file: "the cluster's state", running });
        fixedByNode.set(pod.nodeName, on);
      }
      continue;
    }
    const workload = workloadOf(pod);
    const labels = Object.fromEntries(Object.entries(pod.labels).filter(([key]) => !PER_POD_LABELS.has(key)));
    const disruption = disruptionOf(pod, at);
    const key = JSON.stringify([
      pod.namespace,
      workload,
      labels,
      shape,
      disruption.doNotDisrupt,
      disruption.deletionCost,
      disruption.priority,
      disruption.terminating,
      disruption.unready,
      admitted.ignoredBecause,
    ]);
    let group = byKey.get(key);
    if (group === undefined) {
      const base = `${pod.namespace}/${workload.name}`;
      const seen = (ids.get(base) ?? 0) + 1;
      ids.set(base, seen);
      group = {
        id: seen === 1 ? base : `${base} (${seen})`,
        kind: workload.kind,
        namespace: pod.namespace,
        name: workload.name,
        labels,
        replicas: 0,
        pod: shape,
        file: "the cluster's state",
        disruption,
        ...(admitted.ignoredBecause === undefined ? {} : { ignoredBecause: admitted.ignoredBecause }),
      };
      byKey.set(key, group);
      images.set(group, imagesOf(pod.spec));
    }
    (group as { replicas: number }).replicas++;
    if (pod.nodeName === undefined) {
      // Provisioner.Validate's refusals (matchFields, volumes) come after IsProvisionable's.
      const ignored = notProvisionableBecause(pod) ?? group.ignoredBecause;
      const entry = getOrAdd(pending, `${group.id}\0${ignored ?? ""}`, () => ({ group: group as PodGroup, count: 0, ignored }));
      entry.count++;
      continue;
    }
    const on = byNode.get(pod.nodeName) ?? [];
    const run = on.find((r) => r.group === group);
    if (run === undefined) on.push({ group, count: 1 });
    else run.count++;
    byNode.set(pod.nodeName, on);
  }
  return {
    byNode,
    fixedByNode,
    groups: [...byKey.values()],
    pending: [...pending.values()].map(({ group, count, ignored }) => (ignored === undefined ? { group, count } : { group, count, ignored })),
    daemonSetsFromPods: [...daemonSets.values()],
    capacityProvisioned,
    images,
    warnings: [
      ...[...pinned].sort().map((w) => `${w}: ${PINNED_BY_NAME}`),
      ...[...unmodelled.entries()].map(
        ([w, u]) =>
          `${w}: read as far as the planner models it (${u.pods === 1 ? `pod ${u.pod}` : `pod ${u.pod} and ${u.pods - 1} more of its pods`}): ${u.problems.join("; ")}`,
      ),
    ],
  };
}

/** "namespace/Kind/name" of the workload a pod belongs to, as the report names workloads. */
const workloadName = (pod: PodFacts) => {
  const workload = workloadOf(pod);
  return `${pod.namespace}/${workload.kind}/${workload.name}`;
};
