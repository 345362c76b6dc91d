import { isMirror, isTerminal, podFactsOf, workloadOf } from "../planner/state/pod-facts";
import { isRecord, type Raw } from "../planner/workload/raw-object";
import { getOrAdd } from "../shared/get-or-add";
import { bytes, cpuMillis } from "../shared/quantity";
import { regExpLiteral } from "../shared/regexp-literal";

// The workloads whose containers are right-sized, as the report names them ("namespace/Kind/name"): the containers
// each runs with their requests (a running pod's, as the API server holds them: defaulted from limits where only a
// limit was written), the pods that run them now, and how to tell a pod of the workload that ran earlier in the
// usage window (a rollout names its new pods afresh) from its name. Static pods' mirrors are left out: no
// controller would apply a recommendation to them.

export interface ContainerRequests {
  readonly name: string;
  /** Cores (0 when not requested). */
  readonly cpu: number;
  /** Bytes (0 when not requested). */
  readonly memoryBytes: number;
}

export interface WorkloadContainers {
  /** "namespace/Kind/name". */
  readonly workload: string;
  readonly namespace: string;
  readonly kind: string;
  readonly name: string;
  /** Its containers (init and sidecar containers are not right-sized), as its first running pod has them. */
  readonly containers: readonly ContainerRequests[];
  /** Its pods now, each with the node it runs on (undefined while pending). */
  readonly pods: readonly { readonly name: string; readonly node: string | undefined }[];
}

function requestsOf(container: Record<string, unknown>): ContainerRequests {
  const resources = isRecord(container.resources) ? container.resources : {};
  const requests = isRecord(resources.requests) ? resources.requests : {};
  const limits = isRecord(resources.limits) ? resources.limits : {};
  const quantity = (key: string) => {
    const value = requests[key] ?? limits[key];
    return typeof value === "string" || typeof value === "number" ? value : undefined;
  };
  const cpu = quantity("cpu");
  const memory = quantity("memory");
  return {
    name: String(container.name ?? ""),
    cpu: cpu === undefined ? 0 : (cpuMillis(cpu) ?? 0) / 1000,
    memoryBytes: memory === undefined ? 0 : (bytes(memory) ?? 0),
  };
}

/** The containers of a pod spec with their requests (init and sidecar containers are not right-sized). */
export function containerRequestsOf(spec: unknown): ContainerRequests[] {
  return isRecord(spec) && Array.isArray(spec.containers) ? spec.containers.filter(isRecord).map(requestsOf) : [];
}

/** Every workload of the pods (running or pending; finished pods left out), in the order first seen. */
export function workloadContainers(pods: readonly Raw[]): WorkloadContainers[] {
  const byId = new Map<
    string,
    { namespace: string; kind: string; name: string; containers: ContainerRequests[]; pods: WorkloadContainers["pods"][number][] }
  >();
  for (const raw of pods) {
    const pod = podFactsOf(raw);
    if (isTerminal(pod) || isMirror(pod)) continue;
    const { kind, name } = workloadOf(pod);
    const workload = `${pod.namespace}/${kind}/${name}`;
    let entry = byId.get(workload);
    if (entry === undefined) {
      entry = { namespace: pod.namespace, kind, name, containers: containerRequestsOf(pod.spec), pods: [] };
      byId.set(workload, entry);
    }
    entry.pods.push({ name: pod.name, node: pod.nodeName });
  }
  return [...byId.entries()].map(([workload, w]) => ({ workload, ...w }));
}

/**
 * How the controllers name a workload's pods, as a regular expression (unanchored; RE2 and JavaScript alike): a
 * Deployment's <name>-<template hash>-<5 characters>, a StatefulSet's <name>-<ordinal>, a DaemonSet's, ReplicaSet's
 * or Job's <name>-<5 characters>, a CronJob's <name>-<schedule>-<5 characters>; undefined for a bare pod, which is
 * its own name.
 * @see kubernetes/kubernetes pkg/controller/controller_utils.go (getPodsPrefix), pkg/controller/statefulset/stateful_set_utils.go (getPodName)
 */
function podNamePattern(kind: string, name: string): string | undefined {
  if (kind === "StatefulSet") return `${regExpLiteral(name)}-[0-9]+`;
  if (kind === "Deployment") return generated(`${name}-`, `${SAFE}{1,10}-`, 11);
  if (kind === "DaemonSet" || kind === "ReplicaSet" || kind === "Job" || kind === "ReplicationController") return generated(`${name}-`, "", 0);
  // A CronJob's Jobs are named <cronjob>-<scheduled minutes since the epoch>, their pods as any Job's.
  if (kind === "CronJob") return generated(`${name}-`, "[0-9]{1,10}-", 11);
  return undefined;
}

/**
 * The characters of a pod-template hash and of a generated name's suffix (apimachinery's rand.SafeEncodeString:
 * no vowels, no 0, 1 or 3), so that a look-alike name (api-agent-x7k2p) is not taken for a Deployment's (api).
 */
const SAFE = "[bcdfghjklmnpqrstvwxz2456789]";

/**
 * A name the API server generates: `base` + `middle` (a pattern at most `middleMax` long) + 5 characters, the prefix
 * cut to 58 characters first when longer, so that the whole stays within 63 (names.SimpleNameGenerator).
 * @see kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/names/generate.go (maxGeneratedNameLength)
 */
function generated(base: string, middle: string, middleMax: number): string {
  const full = `${regExpLiteral(base)}${middle}${SAFE}{5}`;
  if (base.length + middleMax <= 58) return full;
  // Cut at 58: the base alone, or the base and the first characters of the middle.
  const cut = base.length >= 58 ? regExpLiteral(base.slice(0, 58)) : `${regExpLiteral(base)}[a-z0-9-]{${58 - base.length}}`;
  return `${full}|${cut}${SAFE}{5}`;
}

/** A regular expression (unanchored) of the names of every pod the workload ran or runs: for a pod=~ matcher. */
export function podNamesRegExp(workload: WorkloadContainers): string {
  const pattern = podNamePattern(workload.kind, workload.name);
  // The names the pattern already covers are left out: a DaemonSet's thousands of pods are one pattern.
  const covered = pattern === undefined ? undefined : new RegExp(`^(?:${pattern})$`);
  const others = workload.pods.filter((p) => covered === undefined || !covered.test(p.name)).map((p) => regExpLiteral(p.name));
  return [...(pattern === undefined ? [] : [pattern]), ...others].join("|");
}

/**
 * The workload a pod named in Prometheus belongs to: the workload that runs it now, else the one whose controller
 * would have named it so (a pod a rollout replaced within the window), else undefined.
 */
export function podOwner(workloads: readonly WorkloadContainers[]): (namespace: string, pod: string) => WorkloadContainers | undefined {
  const byPod = new Map<string, WorkloadContainers>();
  const byNamespace = new Map<string, { readonly workload: WorkloadContainers; readonly pattern: RegExp }[]>();
  for (const w of workloads) {
    for (const pod of w.pods) byPod.set(`${w.namespace}/${pod.name}`, w);
    const pattern = podNamePattern(w.kind, w.name);
    if (pattern !== undefined) getOrAdd(byNamespace, w.namespace, () => []).push({ workload: w, pattern: new RegExp(`^(?:${pattern})$`) });
  }
  return (namespace, pod) => byPod.get(`${namespace}/${pod}`) ?? byNamespace.get(namespace)?.find((c) => c.pattern.test(pod))?.workload;
}
