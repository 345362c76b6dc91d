import { plural } from "../../shared/plural";
import { formatBytes, formatCpu } from "../../shared/quantity";
import { resourceQuantity } from "./container-resources";
import { isRecord, type Raw, type Report } from "./raw-object";
import type { PodGroup } from "./workload-model";

// ResourceQuotas, as the quota admission plugin applies them when a controller creates pods: a pod that would take
// its namespace past a quota's hard limit (pods, CPU and memory requests and limits, ephemeral storage, extended
// resources) is refused, and never exists; nor is a pod whose containers leave out a request or limit the quota
// tracks. So a plan holds only the pods the quotas admit. Controllers create their pods at once and in no set
// order; the plan admits the workload's pods in the order of its files, each workload's pods until one is refused.
// Quotas with scopes (BestEffort, Terminating, PriorityClass, ...) are not modelled, and the plan says so.
// @see kubernetes/kubernetes plugin/pkg/admission/resourcequota/controller.go (checkRequest)
// @see kubernetes/kubernetes pkg/quota/v1/evaluator/core/pods.go (podComputeUsageHelper, enforcePodContainerConstraints)

export interface ResourceQuotaSpec {
  readonly namespace: string;
  readonly name: string;
  /** The limits the plan models, by the quota's own key ("pods", "requests.cpu", ...), in the resources' units. */
  readonly hard: Readonly<Record<string, number>>;
  /** scopes or a scopeSelector: the quota counts some pods only, which the plan does not model. */
  readonly scoped: boolean;
}

/** What of a pod a quota counts: its requests and limits together, and the resources some container leaves out. */
export interface QuotaUsage {
  readonly requests: Readonly<Record<string, number>>;
  readonly limits: Readonly<Record<string, number>>;
  /** Resources some container has no request for (requests) or no limit for (limits), once LimitRange defaults are in. */
  readonly missing: { readonly requests: ReadonlySet<string>; readonly limits: ReadonlySet<string> };
}

/** A quota key the plan models, as the part of the pod it counts: "requests.cpu" and "cpu" alike count requests. */
function counted(key: string): { readonly part: "pods" | "requests" | "limits"; readonly resource: string } | undefined {
  if (key === "pods" || key === "count/pods") return { part: "pods", resource: "pods" };
  if (key.startsWith("requests.")) return { part: "requests", resource: key.slice("requests.".length) };
  if (key.startsWith("limits.")) return { part: "limits", resource: key.slice("limits.".length) };
  if (key === "cpu" || key === "memory" || key === "ephemeral-storage") return { part: "requests", resource: key };
  return undefined;
}

export function readResourceQuota(object: Raw, report: Report): ResourceQuotaSpec {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const spec = isRecord(object.spec) ? object.spec : {};
  const hard: Record<string, number> = {};
  for (const [key, value] of Object.entries(isRecord(spec.hard) ? spec.hard : {})) {
    const what = counted(key);
    // Object counts (services, configmaps, count/deployments.apps) and claim storage do not touch pods.
    if (what === undefined || what.resource === "storage") continue;
    const amount =
      typeof value === "string" || typeof value === "number" ? resourceQuantity(what.resource === "pods" ? "pods" : what.resource, value) : undefined;
    if (amount === undefined) report(`spec.hard.${key}`, value, "must be a quantity");
    else hard[key] = amount;
  }
  return {
    namespace: typeof metadata.namespace === "string" ? metadata.namespace : "default",
    name: String(metadata.name ?? ""),
    hard,
    scoped: (Array.isArray(spec.scopes) && spec.scopes.length > 0) || isRecord(spec.scopeSelector),
  };
}

const amount = (resource: string, value: number) =>
  resource === "cpu" ? formatCpu(value) : resource === "memory" || resource.includes("storage") ? formatBytes(value) : String(value);

/** What one pod adds to a quota key. */
function usageOf(key: string, pod: QuotaUsage): number {
  const what = counted(key);
  if (what === undefined) return 0;
  if (what.part === "pods") return 1;
  return (what.part === "requests" ? pod.requests : pod.limits)[what.resource] ?? 0;
}

/** Why the quota refuses every pod of the group whatever its usage: a container leaves out what it tracks. */
function leftOut(quota: ResourceQuotaSpec, pod: QuotaUsage): string | undefined {
  for (const key of Object.keys(quota.hard)) {
    const what = counted(key);
    if (what === undefined || what.part === "pods") continue;
    if ((what.part === "requests" ? pod.missing.requests : pod.missing.limits).has(what.resource)) {
      return `ResourceQuota ${quota.namespace}/${quota.name} tracks ${key}, and a container of the pod sets no ${what.part === "requests" ? "request" : "limit"} for ${what.resource} (quota admission: "must specify ${what.part}.${what.resource}")`;
    }
  }
  return undefined;
}

export interface QuotaOutcome {
  /** The groups with the replicas the quotas admit (an autoscaler's maximum capped too). */
  readonly groups: readonly PodGroup[];
  readonly warnings: readonly string[];
}

/** The workload's pods the quotas admit, in the order of its groups, and what they refuse. */
export function admitWithinQuotas(groups: readonly PodGroup[], quotas: readonly ResourceQuotaSpec[], usage: (group: PodGroup) => QuotaUsage): QuotaOutcome {
  if (quotas.length === 0) return { groups, warnings: [] };
  const warnings: string[] = [];
  const scoped = quotas.filter((q) => q.scoped).map((q) => `${q.namespace}/${q.name}`);
  if (scoped.length > 0) warnings.push(`ResourceQuotas with scopes are not modelled (the pods they count depend on the scope): ${scoped.join(", ")}`);
  const modelled = quotas.filter((q) => !q.scoped);
  const used = new Map<ResourceQuotaSpec, Record<string, number>>(modelled.map((q) => [q, {}]));
  const admit = (group: PodGroup, wanted: number): { admitted: number; refusal?: string } => {
    const mine = modelled.filter((q) => q.namespace === group.namespace);
    if (mine.length === 0 || wanted === 0) return { admitted: wanted };
    const pod = usage(group);
    const missing = mine.map((q) => leftOut(q, pod)).find((r) => r !== undefined);
    if (missing !== undefined) return { admitted: 0, refusal: missing };
    for (let n = 0; n < wanted; n++) {
      for (const q of mine) {
        const counts = used.get(q) ?? {};
        for (const [key, hard] of Object.entries(q.hard)) {
          const next = (counts[key] ?? 0) + usageOf(key, pod);
          if (next > hard) {
            const what = counted(key);
            const shown = what?.part === "pods" ? String(hard) : amount(what?.resource ?? key, hard);
            return { admitted: n, refusal: `ResourceQuota ${q.namespace}/${q.name} allows ${key}: ${shown} in the namespace` };
          }
        }
      }
      for (const q of mine) {
        const counts = used.get(q) ?? {};
        for (const key of Object.keys(q.hard)) counts[key] = (counts[key] ?? 0) + usageOf(key, pod);
        used.set(q, counts);
      }
    }
    return { admitted: wanted };
  };
  const steady = groups.map((group) => {
    const { admitted, refusal } = admit(group, group.replicas);
    if (refusal !== undefined)
      warnings.push(
        `${group.id}: quota admission lets its controller create ${admitted} of ${plural(group.replicas, "pod")}; the others are never created: ${refusal}`,
      );
    return { group, admitted };
  });
  // An autoscaler grows into what the steady pods leave of the quota.
  const result = steady.map(({ group, admitted }) => {
    const scaling = group.autoscaling;
    if (admitted < group.replicas)
      return { ...group, replicas: admitted, ...(scaling === undefined ? {} : { autoscaling: { ...scaling, maxReplicas: admitted } }) };
    if (scaling === undefined) return group;
    const more = admit(group, scaling.maxReplicas - group.replicas);
    if (more.refusal !== undefined)
      warnings.push(
        `${group.id}: at ${scaling.source}'s maximum of ${scaling.maxReplicas}, quota admission creates ${group.replicas + more.admitted}: ${more.refusal}`,
      );
    return more.admitted === scaling.maxReplicas - group.replicas
      ? group
      : { ...group, autoscaling: { ...scaling, maxReplicas: group.replicas + more.admitted } };
  });
  return { groups: result, warnings };
}
