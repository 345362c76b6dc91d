import { goDurationNanos } from "../../provisioners/go-duration";
import { isRecord, type Raw } from "../workload/raw-object";
import type { PodDisruption } from "../workload/workload-model";

// What the disruption controller and the provisioner read of one running cluster's pod, as Karpenter's pod helpers
// define it: who owns it, whether it is active, reschedulable, provisionable and ready, and what weighs on
// disrupting it. Each answer cites the helper it follows.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/utils/pod/scheduling.go

export interface PodFacts {
  readonly name: string;
  readonly namespace: string;
  readonly nodeName?: string;
  readonly controller?: { readonly apiVersion: string; readonly kind: string; readonly name: string };
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly phase?: string;
  readonly startTime?: string;
  /** metadata.deletionTimestamp is set: the pod is terminating. */
  readonly terminating: boolean;
  readonly nominatedNodeName?: string;
  readonly schedulerName?: string;
  /** The PodScheduled condition's reason when it is False ("Unschedulable", "SchedulingGated"). */
  readonly unscheduledReason?: string;
  /** The Ready condition's status, when the pod has one. */
  readonly ready?: "True" | "False" | "Unknown";
  readonly spec: unknown;
}

const strings = (value: unknown): Record<string, string> =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string")) : {};

/** The status condition of a type, when the pod has one. */
function condition(status: Raw, type: string): Raw | undefined {
  return Array.isArray(status.conditions) ? status.conditions.find((c): c is Raw => isRecord(c) && c.type === type) : undefined;
}

export function podFactsOf(pod: Raw): PodFacts {
  const metadata = isRecord(pod.metadata) ? pod.metadata : {};
  const spec = isRecord(pod.spec) ? pod.spec : {};
  const status = isRecord(pod.status) ? pod.status : {};
  const owners = Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences.filter(isRecord) : [];
  const owner = owners.find((o) => o.controller === true) ?? owners[0];
  const scheduled = condition(status, "PodScheduled");
  const ready = condition(status, "Ready")?.status;
  return {
    name: String(metadata.name ?? ""),
    namespace: typeof metadata.namespace === "string" ? metadata.namespace : "default",
    nodeName: typeof spec.nodeName === "string" && spec.nodeName !== "" ? spec.nodeName : undefined,
    controller: owner === undefined ? undefined : { apiVersion: String(owner.apiVersion ?? ""), kind: String(owner.kind), name: String(owner.name) },
    labels: strings(metadata.labels),
    annotations: strings(metadata.annotations),
    phase: typeof status.phase === "string" ? status.phase : undefined,
    startTime: typeof status.startTime === "string" ? status.startTime : undefined,
    terminating: metadata.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null,
    nominatedNodeName: typeof status.nominatedNodeName === "string" && status.nominatedNodeName !== "" ? status.nominatedNodeName : undefined,
    schedulerName: typeof spec.schedulerName === "string" ? spec.schedulerName : undefined,
    unscheduledReason: scheduled !== undefined && scheduled.status === "False" && typeof scheduled.reason === "string" ? scheduled.reason : undefined,
    ready: ready === "True" || ready === "False" || ready === "Unknown" ? ready : undefined,
    spec,
  };
}

/** Succeeded or Failed: it holds no node (IsTerminal). */
export const isTerminal = (pod: PodFacts) => pod.phase === "Succeeded" || pod.phase === "Failed";

/** A DaemonSet's pod (IsOwnedByDaemonSet): runs where it is, never rescheduled. */
export const isOwnedByDaemonSet = (pod: PodFacts) => pod.controller?.kind === "DaemonSet";

/** A static pod's mirror (IsOwnedByNode), told also by the kubelet's annotation where its owner was trimmed away. */
export const isMirror = (pod: PodFacts) => pod.controller?.kind === "Node" || pod.annotations["kubernetes.io/config.mirror"] !== undefined;

/**
 * Whether Karpenter reschedules the pod when its node goes (IsReschedulable): an active pod, or a StatefulSet's
 * terminating one (its replacement cannot be created before it is gone, so Karpenter plans room for it).
 */
export const isReschedulable = (pod: PodFacts) => (!pod.terminating || pod.controller?.kind === "StatefulSet") && !isOwnedByDaemonSet(pod) && !isMirror(pod);

/** The scheduler the pod waits for; Karpenter provisions only for the ones kube-scheduler marked unschedulable. */
const DEFAULT_SCHEDULER = "default-scheduler";

/**
 * Why Karpenter's provisioner does not provision for a pod bound to no node, or undefined when it does
 * (IsProvisionable: kube-scheduler marked it Unschedulable, no node is nominated for it, no DaemonSet or node owns it).
 */
export function notProvisionableBecause(pod: PodFacts): string | undefined {
  if (pod.schedulerName !== undefined && pod.schedulerName !== DEFAULT_SCHEDULER) {
    return `its scheduler is ${pod.schedulerName}, not kube-scheduler: Karpenter provisions only for pods kube-scheduler marks unschedulable`;
  }
  if (pod.nominatedNodeName !== undefined) return `kube-scheduler nominated node ${pod.nominatedNodeName} for it (preemption): Karpenter waits (IsPreempting)`;
  if (pod.unscheduledReason === "SchedulingGated") return "its scheduling gates are not removed yet: kube-scheduler has not tried it";
  if (pod.unscheduledReason !== "Unschedulable") {
    return "kube-scheduler has not marked it unschedulable (no PodScheduled condition with reason Unschedulable): Karpenter does not provision for it yet (FailedToSchedule)";
  }
  return undefined;
}

/**
 * karpenter.sh/do-not-disrupt: "true" holds the node; a duration holds it until that long after the pod started
 * (IsDoNotDisruptActive), or while the pod has not started; anything else does not.
 */
function doNotDisrupt(pod: PodFacts, at: Date): boolean {
  const value = pod.annotations["karpenter.sh/do-not-disrupt"];
  if (value === undefined) return false;
  if (value === "true") return true;
  const nanos = goDurationNanos(value);
  if (nanos === undefined || nanos <= 0n) return false;
  if (pod.startTime === undefined) return true;
  return at.getTime() - Date.parse(pod.startTime) < Number(nanos / 1_000_000n);
}

/** What weighs on disrupting the pod's node, as Karpenter reads it at `at`. */
export function disruptionOf(pod: PodFacts, at: Date): PodDisruption {
  const spec = isRecord(pod.spec) ? pod.spec : {};
  const cost = Number(pod.annotations["controller.kubernetes.io/pod-deletion-cost"]);
  return {
    // A terminating pod is no longer active: its annotation holds nothing (IsDisruptable).
    doNotDisrupt: !pod.terminating && doNotDisrupt(pod, at),
    deletionCost: Number.isFinite(cost) ? cost : 0,
    priority: typeof spec.priority === "number" ? spec.priority : 0,
    examplePod: pod.name,
    ...(pod.terminating ? { terminating: true } : {}),
    // AlwaysAllow lets a pod whose Ready condition is False be evicted past its budget; Unknown or none does not.
    ...(pod.ready === "False" ? { unready: true } : {}),
  };
}

/** The workload a pod belongs to: a ReplicaSet's Deployment (its name less the pod-template-hash), else its owner. */
export function workloadOf(pod: PodFacts): { readonly kind: string; readonly name: string } {
  const owner = pod.controller;
  if (owner === undefined) return { kind: "Pod", name: pod.name };
  const hash = pod.labels["pod-template-hash"];
  if (owner.kind === "ReplicaSet" && hash !== undefined && owner.name.endsWith(`-${hash}`)) {
    return { kind: "Deployment", name: owner.name.slice(0, -(hash.length + 1)) };
  }
  return { kind: owner.kind, name: owner.name };
}
