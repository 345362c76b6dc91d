import { formatValue } from "../../shared/format-issues";
import { type Autoscaler, autoscalerOf } from "./autoscalers";
import { OPERATOR_KINDS, operatorPodTemplate } from "./operator-pods";
import { podShapeOf } from "./pod-spec";
import { at, isRecord, type Raw, type Report } from "./raw-object";
import type { DaemonSetShape, PodGroup } from "./workload-model";

// Kubernetes objects into pod groups: how many pods of which template each workload kind runs, and the
// autoscalers that own replica counts. An object defined twice is taken as kubectl apply takes it: each is
// applied in order, so the last one stands. Helm hook objects (pre-install Jobs, test Pods, ...) run once
// around a release and are not steady pods: they are left out, with a word.

/** Where each kind keeps its pod template, and how many pods run at once. */
const WORKLOADS: Readonly<Record<string, { readonly template: readonly string[]; readonly count: (spec: Raw, report: Report) => number }>> = {
  Deployment: { template: ["spec", "template"], count: (spec, report) => replicas(spec, "replicas", report) },
  StatefulSet: { template: ["spec", "template"], count: (spec, report) => replicas(spec, "replicas", report) },
  ReplicaSet: { template: ["spec", "template"], count: (spec, report) => replicas(spec, "replicas", report) },
  // A Job runs `parallelism` pods at once (default 1), never more than its completions.
  Job: { template: ["spec", "template"], count: (spec, report) => jobPods(spec, "spec", report) },
  CronJob: {
    template: ["spec", "jobTemplate", "spec", "template"],
    count: (spec, report) =>
      jobPods(isRecord(spec.jobTemplate) && isRecord(spec.jobTemplate.spec) ? spec.jobTemplate.spec : {}, "spec.jobTemplate.spec", report),
  },
};

/** Kinds that run no pods of their own: skipped without a word. */
const NOT_WORKLOADS = new Set([
  "Namespace",
  "Service",
  "ConfigMap",
  "Secret",
  "ServiceAccount",
  "PodDisruptionBudget",
  "Ingress",
  "NetworkPolicy",
  "Role",
  "RoleBinding",
  "ClusterRole",
  "ClusterRoleBinding",
  "PersistentVolumeClaim",
  "StorageClass",
  "CustomResourceDefinition",
  "PriorityClass",
  "LimitRange",
  "ResourceQuota",
]);

const AUTOSCALERS = new Set(["HorizontalPodAutoscaler", "ScaledObject"]);

function replicas(spec: Raw, field: string, report: Report, path = "spec"): number {
  const value = spec[field];
  if (value === undefined) return 1;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    report(`${path}.${field}`, value, "must be a non-negative integer");
    return 0;
  }
  return value;
}

function jobPods(spec: Raw, path: string, report: Report): number {
  const parallelism = replicas(spec, "parallelism", report, path);
  return spec.completions === undefined ? parallelism : Math.min(parallelism, replicas(spec, "completions", report, path));
}

export interface ObjectResult {
  /** By kind, namespace and name: the last definition of an object stands. */
  readonly groups: Map<string, PodGroup>;
  readonly daemonSets: Map<string, DaemonSetShape>;
  readonly autoscalers: Autoscaler[];
  /** Groups whose manifest pins replicas to 0 (an HPA leaves them alone). */
  readonly pinnedToZero: Set<PodGroup>;
  readonly skippedKinds: string[];
  /** "Job default/migrate (helm.sh/hook: pre-install)". */
  readonly hooks: string[];
  /** Objects defined more than once: "Deployment default/web (a.yaml, b.yaml)". */
  readonly repeated: string[];
}

export const emptyObjectResult = (): ObjectResult => ({
  groups: new Map(),
  daemonSets: new Map(),
  autoscalers: [],
  pinnedToZero: new Set(),
  skippedKinds: [],
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

/**
 * The pods of one document. `where` names it in problems ("chip.yaml: document 2 (Deployment chip)");
 * `kind: List` documents (kubectl get -o yaml) are expanded.
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
    if (!Array.isArray(items)) problems.push(`${where} (${kind}): items: got ${formatValue(items)}; must be a list of objects`);
    else for (const [i, item] of items.entries()) objectPods(item, file, `${where} (${kind}) items[${i}]`, problems, result);
    return;
  }
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === "string" ? metadata.name : undefined;
  const label = `${where} (${kind}${name === undefined ? "" : ` ${name}`})`;
  if (NOT_WORKLOADS.has(kind)) return;
  const operator = OPERATOR_KINDS[kind];
  const isPod = kind === "Pod";
  const workload = WORKLOADS[kind];
  if (!isPod && kind !== "DaemonSet" && workload === undefined && operator === undefined && !AUTOSCALERS.has(kind)) {
    result.skippedKinds.push(kind);
    return;
  }
  if (name === undefined) {
    problems.push(`${label}: metadata.name: got ${formatValue(metadata.name)}; must be the object's name`);
    return;
  }
  const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
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
    const pod = podShapeOf(template.spec, "spec", report(label));
    const count = replicas({ replicas: operator.pods(spec) }, "replicas", report(label));
    const podName = operator.statefulSet(name);
    const group = {
      id: `${namespace}/${podName}`,
      kind: "StatefulSet",
      namespace,
      name: podName,
      labels: stringLabels(at(template, ["metadata", "labels"])),
      replicas: count,
      pod,
      file,
    };
    keep(result.groups, `${kind}\0${namespace}\0${name}`, group, `${kind} ${namespace}/${name}`, result);
    return;
  }
  const templatePath = isPod ? [] : workload === undefined ? ["spec", "template"] : workload.template;
  const template = isPod ? object : at(object, templatePath);
  const pod = podShapeOf(isRecord(template) ? template.spec : undefined, [...templatePath, "spec"].join("."), report(label));
  const id = `${namespace}/${name}`;
  if (kind === "DaemonSet") {
    keep(result.daemonSets, `${namespace}\0${name}`, { id, pod, file }, `DaemonSet ${id}`, result);
    return;
  }
  const count = isPod ? 1 : (workload as (typeof WORKLOADS)[string]).count(spec, report(label));
  const group: PodGroup = { id, kind, namespace, name, labels: stringLabels(at(template, ["metadata", "labels"])), replicas: count, pod, file };
  keep(result.groups, `${kind}\0${namespace}\0${name}`, group, `${kind} ${id}`, result);
  if (spec.replicas === 0) result.pinnedToZero.add(group);
}
