import type { Requirement } from "../../instance-catalogue/requirements";
import { normalizedLabel } from "../../shared/vocabulary/well-known-labels";
import { effectiveRequests } from "./container-resources";
import { type LimitRangeItem, limitRangeRefusal, withContainerDefaults } from "./limit-ranges";
import { addAmounts, aggregateRequests } from "./pod-requests";
import { MATCH_FIELDS_IGNORED } from "./pod-scheduling";
import type { PodSpecFacts } from "./pod-spec";
import type { RuntimeClassSpec } from "./runtime-classes";
import { noVolumeObjects, type VolumeObjects, volumeTopology } from "./volume-topology";
import { PLAIN_POD, type PodShape } from "./workload-model";

// A pod as the cluster creates it from a template, and as the scheduler and Karpenter then read it: the
// namespace's LimitRange defaults in its containers, its requests added up (pod-level requests standing for
// the containers' where set), its RuntimeClass's overhead and scheduling, and the zones its volumes allow
// (Karpenter adds them to the requirements a NodeClaim must meet for the pod, outside its affinity, so that no relaxation drops them).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/volumetopology.go (VolumeTopology.GetRequirements)
// @see kubernetes/kubernetes pkg/apis/core/v1/defaults.go (defaultPodRequests)

/** The objects of the workload that admission reads, gathered from every file before any pod is admitted. */
export interface AdmissionObjects {
  /** By namespace. */
  readonly limitRanges: Map<string, LimitRangeItem[]>;
  readonly runtimeClasses: Map<string, RuntimeClassSpec>;
  readonly volumes: VolumeObjects;
}

export const noAdmissionObjects = (): AdmissionObjects => ({ limitRanges: new Map(), runtimeClasses: new Map(), volumes: noVolumeObjects() });

export interface AdmittedPod {
  readonly pod: PodShape;
  /** Why Karpenter provisions nothing for the pod (matchFields, its volumes), when it does not. */
  readonly ignoredBecause: string | undefined;
  /** Why admission refuses to create the pod at all (a LimitRange's bounds), naming what refuses it. */
  readonly refusedBy: string | undefined;
  /** What its containers' limits come to together (as its requests are added up): what a ResourceQuota's limits.* count. */
  readonly limits: Readonly<Record<string, number>>;
  /** CPU, memory and ephemeral storage that some container has no request (or no limit) for: a quota tracking one refuses the pod. */
  readonly unset: { readonly requests: ReadonlySet<string>; readonly limits: ReadonlySet<string> };
  /** What was assumed of objects the pod names that the workload does not hold. */
  readonly assumed: readonly string[];
}

/** The resources a ResourceQuota may make every container state (pkg/quota/v1/evaluator/core/pods.go validationSet). */
const QUOTA_TRACKED = ["cpu", "memory", "ephemeral-storage"];

/** Resources a pod may set for itself; the others stay the containers' (KEP-2837). */
const POD_LEVEL = /^(cpu|memory|hugepages-.+)$/;

/**
 * What the pod requests (its containers' together, pod-level requests standing for them where set, plus overhead)
 * and what its limits come to, once the LimitRanges' defaults are in its containers; and each container so.
 */
function podAmounts(facts: PodSpecFacts, items: readonly LimitRangeItem[], overhead: Readonly<Record<string, number>>) {
  const containers = facts.containers.map((c) => ({ name: c.name, role: c.role, amounts: withContainerDefaults(c.resources, items) }));
  const requests = aggregateRequests(containers.map((c) => ({ role: c.role, requests: effectiveRequests(c.amounts) })));
  const limits = aggregateRequests(containers.map((c) => ({ role: c.role, requests: c.amounts.limits })));
  const own = facts.podResources;
  if (own !== undefined && Object.keys(own.limits).length + Object.keys(own.requests).length > 0) {
    // A pod-level request not written defaults to the containers' sum where they request it, else to the pod-level limit.
    const names = new Set([...Object.keys(own.requests), ...Object.keys(own.limits)]);
    for (const name of names) if (POD_LEVEL.test(name)) requests[name] = own.requests[name] ?? requests[name] ?? own.limits[name];
    for (const [name, limit] of Object.entries(own.limits)) limits[name] = limit;
  }
  return { containers, requests: addAmounts(requests, overhead), limits };
}

/** Every required node affinity term with these requirements added (one term of them alone when there is none). */
function withRequirements(terms: readonly (readonly Requirement[])[], added: readonly Requirement[]): readonly (readonly Requirement[])[] {
  if (added.length === 0) return terms;
  return terms.length === 0 ? [added] : terms.map((term) => [...term, ...added]);
}

/** The pod a template's spec makes in `namespace`, with what the cluster's admission adds to it. */
export function admittedPod(facts: PodSpecFacts | undefined, namespace: string, objects: AdmissionObjects): AdmittedPod {
  if (facts === undefined)
    return {
      pod: { ...PLAIN_POD, cpuMillis: 0, memoryBytes: 0, hasRequests: false },
      ignoredBecause: undefined,
      refusedBy: undefined,
      limits: {},
      unset: { requests: new Set(), limits: new Set() },
      assumed: [],
    };
  const defaults = objects.limitRanges.get(namespace) ?? [];
  const runtimeClass = facts.runtimeClassName === undefined ? undefined : objects.runtimeClasses.get(facts.runtimeClassName);
  // The RuntimeClass's overhead where the workload holds it; else what admission already wrote into the pod (a running one's).
  const amounts = podAmounts(facts, defaults, runtimeClass?.overhead ?? facts.overhead ?? {});
  const { cpu, memory, ...extended } = amounts.requests;
  const refusedBy = defaults.length === 0 ? undefined : limitRangeRefusal(defaults, amounts.containers, { requests: amounts.requests, limits: amounts.limits });
  const requested = (name: string) =>
    facts.containers.some((c) => name in c.resources.requests || name in c.resources.limits) ||
    defaults.some((d) => name in d.requests) ||
    (facts.podResources !== undefined && (name in facts.podResources.requests || name in facts.podResources.limits));
  const volumes = volumeTopology(facts.claims, namespace, objects.volumes);
  const { placement } = facts;
  const scheduling = runtimeClass === undefined ? [] : Object.entries(runtimeClass.nodeSelector);
  // Every field written out, in PodShape's order: pods built alike share one shape, which the scheduler's hot
  // paths read millions of times.
  const pod: PodShape = {
    cpuMillis: cpu ?? 0,
    memoryBytes: memory ?? 0,
    extended,
    nodeSelector:
      scheduling.length === 0
        ? placement.nodeSelector
        : [...placement.nodeSelector, ...scheduling.map(([key, value]): Requirement => ({ key: normalizedLabel(key), operator: "In", values: [value] }))],
    affinityTerms: withRequirements(placement.affinityTerms, volumes.requirements),
    preferredAffinity: placement.preferredAffinity,
    podAffinity: placement.podAffinity,
    preferredPodAffinity: placement.preferredPodAffinity,
    podAntiAffinity: placement.podAntiAffinity,
    preferredPodAntiAffinity: placement.preferredPodAntiAffinity,
    topologySpread: placement.topologySpread,
    tolerations: runtimeClass === undefined ? placement.tolerations : [...placement.tolerations, ...runtimeClass.tolerations],
    hasRequests: requested("cpu") || requested("memory"),
  };
  const missingClass =
    facts.runtimeClassName !== undefined && runtimeClass === undefined
      ? [`RuntimeClass ${facts.runtimeClassName} is not in the workload: its pods are planned without its overhead`]
      : [];
  // What few pods have is added to those only.
  const onHost = facts.hostPorts.length > 0 || facts.hostNetwork || facts.privileged;
  const admitted = onHost
    ? {
        ...pod,
        ...(facts.hostPorts.length > 0 ? { hostPorts: facts.hostPorts } : {}),
        ...(facts.hostNetwork ? { hostNetwork: true } : {}),
        ...(facts.privileged ? { privileged: true } : {}),
      }
    : pod;
  // Karpenter validates the node affinity before the volumes (provisioner.go Validate), and says the first refusal.
  const ignoredBecause = placement.matchFields ? MATCH_FIELDS_IGNORED : volumes.ignoredBecause;
  const unsetIn = (part: "requests" | "limits") =>
    new Set(QUOTA_TRACKED.filter((name) => amounts.containers.some((c) => !(name in (part === "requests" ? effectiveRequests(c.amounts) : c.amounts.limits)))));
  const unset = { requests: unsetIn("requests"), limits: unsetIn("limits") };
  return { pod: admitted, ignoredBecause, refusedBy, limits: amounts.limits, unset, assumed: [...missingClass, ...volumes.assumed] };
}
