import { formatValue } from "../../shared/format-issues";
import { podShapeOf, type Report } from "./pod-spec";
import type { DaemonSetShape, PodGroup } from "./workload-model";

// Kubernetes objects into pod groups: how many pods of which template each workload kind runs.

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

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
  "HorizontalPodAutoscaler",
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

function at(object: Raw, path: readonly string[]): unknown {
  return path.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), object);
}

export interface ObjectResult {
  readonly groups: PodGroup[];
  readonly daemonSets: DaemonSetShape[];
  readonly skippedKinds: string[];
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
  if (kind === "List") {
    const items = object.items;
    if (!Array.isArray(items)) problems.push(`${where} (List): items: got ${formatValue(items)}; must be a list of objects`);
    else for (const [i, item] of items.entries()) objectPods(item, file, `${where} (List) items[${i}]`, problems, result);
    return;
  }
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === "string" ? metadata.name : undefined;
  const label = `${where} (${kind}${name === undefined ? "" : ` ${name}`})`;
  if (NOT_WORKLOADS.has(kind)) return;
  const isPod = kind === "Pod";
  const workload = WORKLOADS[kind];
  if (!isPod && kind !== "DaemonSet" && workload === undefined) {
    result.skippedKinds.push(kind);
    return;
  }
  if (name === undefined) {
    problems.push(`${label}: metadata.name: got ${formatValue(metadata.name)}; must be the object's name`);
    return;
  }
  const namespace = typeof metadata.namespace === "string" ? metadata.namespace : "default";
  const id = `${namespace}/${name}`;
  const spec = isRecord(object.spec) ? object.spec : undefined;
  if (spec === undefined) {
    problems.push(`${label}: spec: got ${formatValue(object.spec)}; must be the ${kind}'s spec`);
    return;
  }
  const templatePath = isPod ? [] : workload === undefined ? ["spec", "template"] : workload.template;
  const template = isPod ? object : at(object, templatePath);
  const templateMeta = isRecord(template) && isRecord(template.metadata) ? template.metadata : {};
  const pod = podShapeOf(isRecord(template) ? template.spec : undefined, [...templatePath, "spec"].join("."), report(label));
  if (kind === "DaemonSet") {
    result.daemonSets.push({ id, pod, file });
    return;
  }
  const labels = isRecord(templateMeta.labels)
    ? (Object.fromEntries(Object.entries(templateMeta.labels).map(([k, v]) => [k, String(v)])) as Record<string, string>)
    : {};
  result.groups.push({ id, kind, namespace, labels, replicas: isPod ? 1 : (workload as (typeof WORKLOADS)[string]).count(spec, report(label)), pod, file });
}
