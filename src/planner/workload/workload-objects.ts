import { formatValue } from "../../shared/format-issues";
import { type AdmissionObjects, noAdmissionObjects } from "./admission";
import { type Autoscaler, autoscalerOf } from "./autoscalers";
import { readLimitRange } from "./limit-ranges";
import { skippedKind, WORKLOAD_KINDS } from "./object-kinds";
import { OPERATOR_KINDS, operatorPodTemplate } from "./operator-pods";
import { readPodDisruptionBudget } from "./pod-disruption-budgets";
import { claimTemplate, type PodSpecFacts, readPodSpec } from "./pod-spec";
import { at, isRecord, type Raw, type Report } from "./raw-object";
import { type ResourceQuotaSpec, readResourceQuota } from "./resource-quotas";
import { readRuntimeClass } from "./runtime-classes";
import { readVolumeObject, volumeStorage } from "./volume-topology";
import type { PodDisruptionBudgetSpec, PodGroup } from "./workload-model";

// Kubernetes objects into pod groups: how many pods of which template each workload kind runs, the autoscalers
// that own replica counts, and the objects the cluster's admission reads when it creates the pods (LimitRanges,
// RuntimeClasses, StorageClasses, PersistentVolumeClaims and PersistentVolumes). Pods are admitted once every
// file is read (admission.ts), since a LimitRange may come after the Deployment it applies to. An object defined
// twice is taken as kubectl apply takes it: each is applied in order, so the last one stands. Helm hook objects
// (pre-install Jobs, test Pods, ...) run once around a release and are not steady pods: they are left out.

/** A pod group before admission: the pod spec as written. */
export interface DraftGroup extends Omit<PodGroup, "pod" | "ignoredBecause"> {
  readonly facts: PodSpecFacts | undefined;
}

export interface DraftDaemonSet {
  readonly id: string;
  readonly namespace: string;
  readonly facts: PodSpecFacts | undefined;
  readonly file: string;
}

const AUTOSCALERS = new Set(["HorizontalPodAutoscaler", "ScaledObject"]);

/** The kinds admission reads (readAdmissionObject). */
const ADMISSION_KINDS = new Set(["LimitRange", "RuntimeClass", "StorageClass", "PersistentVolumeClaim", "PersistentVolume"]);

/** Whether the planner reads objects of this kind (a list may hold any): one it does not may be skipped unread. */
export const readsKind = (kind: string): boolean =>
  kind === "Pod" ||
  kind === "DaemonSet" ||
  kind.endsWith("List") ||
  WORKLOAD_KINDS[kind] !== undefined ||
  OPERATOR_KINDS[kind] !== undefined ||
  AUTOSCALERS.has(kind) ||
  ADMISSION_KINDS.has(kind) ||
  kind === "PodDisruptionBudget" ||
  kind === "ResourceQuota";

function replicas(spec: Raw, field: string, report: Report, path = "spec"): number {
  const value = spec[field];
  if (value === undefined) return 1;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    report(`${path}.${field}`, value, "must be a non-negative integer");
    return 0;
  }
  return value;
}

/** A Job runs `parallelism` pods at once (default 1), never more than its completions. */
function jobPods(spec: Raw, path: string, report: Report): number {
  const parallelism = replicas(spec, "parallelism", report, path);
  return spec.completions === undefined ? parallelism : Math.min(parallelism, replicas(spec, "completions", report, path));
}

function podCount(kind: string, spec: Raw, report: Report): number {
  if (kind === "Job") return jobPods(spec, "spec", report);
  if (kind === "CronJob")
    return jobPods(isRecord(spec.jobTemplate) && isRecord(spec.jobTemplate.spec) ? spec.jobTemplate.spec : {}, "spec.jobTemplate.spec", report);
  return replicas(spec, "replicas", report);
}

/** A workload's pod spec as the planner should read it: as written, or with other requests (right-sizing). */
export type PodSpecOf = (workload: { readonly namespace: string; readonly kind: string; readonly name: string }, spec: unknown) => unknown;

export interface ObjectResult {
  /** Sees (and may rewrite) each workload's pod spec before it is read; the spec as written when undefined. */
  readonly podSpecOf?: PodSpecOf;
  /** By kind, namespace and name: the last definition of an object stands. */
  readonly groups: Map<string, DraftGroup>;
  readonly daemonSets: Map<string, DraftDaemonSet>;
  readonly autoscalers: Autoscaler[];
  readonly admission: AdmissionObjects;
  /** By namespace and name: what consolidation may disrupt of the pods each selects. */
  readonly pdbs: Map<string, PodDisruptionBudgetSpec & { readonly file: string }>;
  /** By namespace and name: how many pods quota admission lets the controllers create. */
  readonly quotas: Map<string, ResourceQuotaSpec & { readonly file: string }>;
  /** Groups whose manifest pins replicas to 0 (an HPA leaves them alone). */
  readonly pinnedToZero: Set<DraftGroup>;
  /** Kinds the planner does not know, which seem to run no pods. */
  readonly skippedKinds: string[];
  /** Objects of kinds that create pods the planner does not read: "Rollout default/web (argoproj.io/v1alpha1)". */
  readonly podCreators: string[];
  /** "Job default/migrate (helm.sh/hook: pre-install)". */
  readonly hooks: string[];
  /** Objects defined more than once: "Deployment default/web (a.yaml, b.yaml)". */
  readonly repeated: string[];
}

export const emptyObjectResult = (podSpecOf?: PodSpecOf): ObjectResult => ({
  podSpecOf,
  groups: new Map(),
  daemonSets: new Map(),
  autoscalers: [],
  admission: noAdmissionObjects(),
  pdbs: new Map(),
  quotas: new Map(),
  pinnedToZero: new Set(),
  skippedKinds: [],
  podCreators: [],
  hooks: [],
  repeated: [],
});

const stringLabels = (labels: unknown): Record<string, string> =>
  isRecord(labels) ? Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)])) : {};

/** Keeps the last definition of an object, and notes that there was an earlier one. */
function keep<T extends { readonly file: string }>(map: Map<string, T>, key: string, value: T, what: string, result: ObjectResult): void {
  const earlier = map.get(key);
  if (earlier !== undefined) result.repeated.push(`${what} (${earlier.file === value.file ? earlier.file : `${earlier.file}, ${value.file}`})`);
  map.set(key, value);
}

/** The objects admission reads; true when the object was one of them. */
function readAdmissionObject(kind: string, object: Raw, name: string, namespace: string, report: Report, into: AdmissionObjects): boolean {
  if (kind === "LimitRange") {
    const spec = isRecord(object.spec) ? object.spec : {};
    into.limitRanges.set(namespace, [...(into.limitRanges.get(namespace) ?? []), ...readLimitRange(spec, `LimitRange ${namespace}/${name}`, report)]);
    return true;
  }
  if (kind === "RuntimeClass") {
    into.runtimeClasses.set(name, readRuntimeClass(object, report));
    return true;
  }
  return readVolumeObject(kind, object, name, namespace, volumeStorage, report, into.volumes);
}

/**
 * A StatefulSet's pods also mount a claim per volumeClaimTemplates entry, made for each pod; a template's claim
 * stands for a pod-template volume of the same name, whatever that volume says (the controller's updateStorage).
 * @see kubernetes/kubernetes pkg/controller/statefulset/stateful_set_utils.go (updateStorage)
 */
function statefulSetFacts(facts: PodSpecFacts | undefined, spec: Raw): PodSpecFacts | undefined {
  const templates = Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates.filter(isRecord) : [];
  if (facts === undefined || templates.length === 0) return facts;
  const names = new Set(templates.map((t) => String(at(t, ["metadata", "name"]))));
  const claims = templates.map((t) =>
    claimTemplate(isRecord(t.spec) ? t.spec : {}, `the StatefulSet's volumeClaimTemplates ${String(at(t, ["metadata", "name"]))}`),
  );
  const own = facts.claims.filter((c) => c.kind !== "named" || !names.has(c.volume));
  return { ...facts, claims: [...own, ...claims] };
}

/**
 * The pods of one document. `where` names it in problems ("chip.yaml: document 2 (Deployment chip)");
 * `kind: List` documents (kubectl get -o yaml) are expanded, and the items of a typed list (PodList, ...) that
 * leave out their kind take it from the list's, as kubectl reads what the API server returns.
 */
export function objectPods(object: unknown, file: string, where: string, problems: string[], result: ObjectResult): void {
  if (object === null || object === undefined) return;
  const report =
    (prefix: string): Report =>
    (path, value, message) =>
      problems.push(`${prefix}: ${path}: got ${formatValue(value)}; ${message}`);
  if (!isRecord(object)) {
    problems.push(`${where}: got ${formatValue(object)}; must be a Kubernetes object (a mapping with apiVersion and kind)`);
    return;
  }
  const kind = object.kind;
  if (typeof kind !== "string") {
    problems.push(`${where}: kind: got ${formatValue(kind)}; must be a Kubernetes kind such as Deployment`);
    return;
  }
  // kind: List, and the typed lists kubectl get writes (ConfigMapList, RoleList, ...): kubectl applies their items.
  if (kind === "List" || (kind.endsWith("List") && Array.isArray(object.items))) {
    const items = object.items;
    const typed = kind === "List" ? undefined : { kind: kind.slice(0, -"List".length), apiVersion: object.apiVersion };
    if (!Array.isArray(items)) problems.push(`${where} (${kind}): items: got ${formatValue(items)}; must be a list of objects`);
    else
      for (const [i, item] of items.entries()) {
        const named = typed !== undefined && isRecord(item) && item.kind === undefined ? { ...typed, ...item, kind: typed.kind } : item;
        objectPods(named, file, `${where} (${kind}) items[${i}]`, problems, result);
      }
    return;
  }
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === "string" ? metadata.name : undefined;
  const label = `${where} (${kind}${name === undefined ? "" : ` ${name}`})`;
  const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
  if (name !== undefined && readAdmissionObject(kind, object, name, namespace, report(label), result.admission)) return;
  if (kind === "ResourceQuota") {
    const quota = readResourceQuota(object, report(label));
    keep(result.quotas, `${quota.namespace}\0${quota.name}`, { ...quota, file }, `ResourceQuota ${quota.namespace}/${quota.name}`, result);
    return;
  }
  if (kind === "PodDisruptionBudget") {
    const pdb = readPodDisruptionBudget(object, report(label));
    if (pdb !== undefined) keep(result.pdbs, `${pdb.namespace}\0${pdb.name}`, { ...pdb, file }, `PodDisruptionBudget ${pdb.namespace}/${pdb.name}`, result);
    return;
  }
  const operator = OPERATOR_KINDS[kind];
  const isPod = kind === "Pod";
  const workload = WORKLOAD_KINDS[kind];
  if (!isPod && kind !== "DaemonSet" && workload === undefined && operator === undefined && !AUTOSCALERS.has(kind)) {
    const skipped = skippedKind(object, kind);
    if (skipped === "creates pods") result.podCreators.push(`${kind} ${namespace}/${name ?? "(no name)"} (${String(object.apiVersion ?? "no apiVersion")})`);
    else if (skipped === "unknown") result.skippedKinds.push(kind);
    return;
  }
  if (name === undefined) {
    problems.push(`${label}: metadata.name: got ${formatValue(metadata.name)}; must be the object's name`);
    return;
  }
  const hook = isRecord(metadata.annotations) ? metadata.annotations["helm.sh/hook"] : undefined;
  if (hook !== undefined) {
    result.hooks.push(`${kind} ${namespace}/${name} (helm.sh/hook: ${String(hook)})`);
    return;
  }
  const spec = isRecord(object.spec) ? object.spec : undefined;
  if (spec === undefined) {
    problems.push(`${label}: spec: got ${formatValue(object.spec)}; must be the ${kind}'s spec`);
    return;
  }
  if (AUTOSCALERS.has(kind)) {
    const autoscaler = autoscalerOf(kind as "HorizontalPodAutoscaler" | "ScaledObject", name, namespace, spec, report(label));
    if (autoscaler !== undefined) result.autoscalers.push(autoscaler);
    return;
  }
  if (operator !== undefined) {
    const template = operatorPodTemplate(operator, name, spec);
    const facts = readPodSpec(template.spec, "spec", report(label));
    const count = replicas({ replicas: operator.pods(spec) }, "replicas", report(label));
    const podName = operator.statefulSet(name);
    const group = {
      id: `${namespace}/${podName}`,
      kind: "StatefulSet",
      namespace,
      name: podName,
      labels: stringLabels(at(template, ["metadata", "labels"])),
      replicas: count,
      facts,
      file,
    };
    keep(result.groups, `${kind}\0${namespace}\0${name}`, group, `${kind} ${namespace}/${name}`, result);
    return;
  }
  const templatePath = isPod ? [] : workload === undefined ? ["spec", "template"] : workload.template;
  const template = isPod ? object : at(object, templatePath);
  const asWritten = isRecord(template) ? template.spec : undefined;
  const podSpec = result.podSpecOf === undefined ? asWritten : result.podSpecOf({ namespace, kind, name }, asWritten);
  const written = readPodSpec(podSpec, [...templatePath, "spec"].join("."), report(label));
  const id = `${namespace}/${name}`;
  if (kind === "DaemonSet") {
    keep(result.daemonSets, `${namespace}\0${name}`, { id, namespace, facts: written, file }, `DaemonSet ${id}`, result);
    return;
  }
  const statefulSet = kind === "StatefulSet";
  const facts = statefulSet ? statefulSetFacts(written, spec) : written;
  const count = isPod ? 1 : podCount(kind, spec, report(label));
  const labels = stringLabels(at(template, ["metadata", "labels"]));
  const orderedReady = statefulSet && (spec.podManagementPolicy ?? "OrderedReady") === "OrderedReady";
  const group: DraftGroup = {
    id,
    kind,
    namespace,
    name,
    labels,
    replicas: count,
    facts,
    file,
    ...(facts?.nodeName === undefined ? {} : { boundTo: facts.nodeName }),
    ...(orderedReady ? { orderedReady: true } : {}),
  };
  keep(result.groups, `${kind}\0${namespace}\0${name}`, group, `${kind} ${id}`, result);
  if (spec.replicas === 0) result.pinnedToZero.add(group);
}
