import { isRecord, type Raw } from "./raw-object";

// What the planner makes of each kind of object: the built-in kinds that run pods (where their pod template is,
// how many pods run at once), the built-in kinds that run none (skipped without a word), and among the kinds it
// does not know, those that create pods (their pods are missing from the plan, so the plan says so).

/** Where a built-in workload kind keeps its pod template. */
export interface WorkloadKind {
  readonly template: readonly string[];
  /** The field its replica count is read from (Jobs: see job-pods). */
  readonly replicas?: string;
}

export const WORKLOAD_KINDS: Readonly<Record<string, WorkloadKind>> = {
  Deployment: { template: ["spec", "template"], replicas: "replicas" },
  StatefulSet: { template: ["spec", "template"], replicas: "replicas" },
  ReplicaSet: { template: ["spec", "template"], replicas: "replicas" },
  ReplicationController: { template: ["spec", "template"], replicas: "replicas" },
  Job: { template: ["spec", "template"] },
  CronJob: { template: ["spec", "jobTemplate", "spec", "template"] },
};

/**
 * The API groups Kubernetes itself serves: a kind of these groups the planner does not read runs no pods
 * (the ones that do are read), so it is skipped without a word.
 * @see https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.35/
 */
const BUILT_IN_GROUPS = new Set([
  "",
  "apps",
  "batch",
  "autoscaling",
  "policy",
  "networking.k8s.io",
  "rbac.authorization.k8s.io",
  "storage.k8s.io",
  "scheduling.k8s.io",
  "node.k8s.io",
  "coordination.k8s.io",
  "discovery.k8s.io",
  "events.k8s.io",
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "apiregistration.k8s.io",
  "flowcontrol.apiserver.k8s.io",
  "certificates.k8s.io",
  "authentication.k8s.io",
  "authorization.k8s.io",
  "resource.k8s.io",
  "storagemigration.k8s.io",
  "internal.apiserver.k8s.io",
]);

/** Built-in kinds that run no pods, for documents that leave out their apiVersion. */
const NO_POD_KINDS = new Set([
  "Namespace",
  "Service",
  "ConfigMap",
  "Secret",
  "ServiceAccount",
  "PodDisruptionBudget",
  "Ingress",
  "IngressClass",
  "NetworkPolicy",
  "Role",
  "RoleBinding",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "PriorityClass",
  "ResourceQuota",
  "Endpoints",
  "EndpointSlice",
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "APIService",
]);

/** The API group of an apiVersion ("apps/v1": apps; "v1": the core group, ""); undefined when there is none. */
const groupOf = (apiVersion: unknown): string | undefined =>
  typeof apiVersion !== "string" ? undefined : apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.lastIndexOf("/")) : "";

/** Custom kinds known to create pods whose spec does not show a pod template where a Deployment has it. */
const POD_CREATING_KINDS = new Set([
  "argoproj.io/Rollout",
  "argoproj.io/Workflow",
  "argoproj.io/CronWorkflow",
  "serving.knative.dev/Service",
  "serving.kserve.io/InferenceService",
]);

export type SkippedKind = "runs no pods" | "creates pods" | "unknown";

/** Why the planner skips an object of a kind it does not read. */
export function skippedKind(object: Raw, kind: string): SkippedKind {
  const group = groupOf(object.apiVersion);
  if (group === undefined ? NO_POD_KINDS.has(kind) : BUILT_IN_GROUPS.has(group)) return "runs no pods";
  const spec = isRecord(object.spec) ? object.spec : {};
  const template = isRecord(spec.template) ? spec.template.spec : undefined;
  if ((isRecord(template) && Array.isArray(template.containers)) || isRecord(spec.jobTemplate) || POD_CREATING_KINDS.has(`${group}/${kind}`))
    return "creates pods";
  return "unknown";
}
