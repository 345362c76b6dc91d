import type { ClusterObjects } from "../../cluster-state/cluster-objects";
import { podFactsOf, workloadOf } from "../../planner/state/pod-facts";
import { isRecord } from "../../planner/workload/raw-object";
import type { RightsizingJson } from "./rightsizing";

// The cluster's objects as they would be with the recommended requests applied: each right-sized container's CPU
// and memory requests (and its memory limit, set equal to the request as the method recommends) rewritten in its
// running pods and in its DaemonSet's template, everything else as it was. Read again as a state, they are what the
// rightsize move re-plans: the pods' requests as the scheduler counts them (init containers, overhead) follow
// from the containers as they do for any pod.

type Recommended = ReadonlyMap<string, { readonly cpu: number; readonly memoryBytes: number }>;

/** The containers of a pod spec with the recommendations applied; the spec itself when none applies. */
function rewriteSpec(spec: unknown, recommended: Recommended | undefined): unknown {
  if (recommended === undefined || !isRecord(spec) || !Array.isArray(spec.containers)) return spec;
  const containers = spec.containers.map((container) => {
    if (!isRecord(container)) return container;
    const r = recommended.get(String(container.name ?? ""));
    if (r === undefined) return container;
    const resources = isRecord(container.resources) ? container.resources : {};
    const requests = { ...(isRecord(resources.requests) ? resources.requests : {}), cpu: `${Math.round(r.cpu * 1000)}m`, memory: String(r.memoryBytes) };
    const limits = { ...(isRecord(resources.limits) ? resources.limits : {}), memory: String(r.memoryBytes) };
    // A CPU limit below the new request would be refused by the API server: the method recommends none.
    delete (limits as Record<string, unknown>).cpu;
    return { ...container, resources: { ...resources, requests, limits } };
  });
  return { ...spec, containers };
}

export function rightsizedObjects(objects: ClusterObjects, rightsizing: RightsizingJson): ClusterObjects {
  const byWorkload = new Map<string, Recommended>();
  for (const w of rightsizing.workloads) {
    const changed = w.containers.filter((c) => c.status !== "no-data").map((c) => [c.name, c.recommended] as const);
    if (changed.length > 0) byWorkload.set(w.workload, new Map(changed));
  }
  const pods = objects.byKind.Pod.map((raw) => {
    const pod = podFactsOf(raw);
    const { kind, name } = workloadOf(pod);
    const spec = rewriteSpec(raw.spec, byWorkload.get(`${pod.namespace}/${kind}/${name}`));
    return spec === raw.spec ? raw : { ...raw, spec };
  });
  const daemonSets = objects.byKind.DaemonSet.map((raw) => {
    const metadata = isRecord(raw.metadata) ? raw.metadata : {};
    const recommended = byWorkload.get(`${String(metadata.namespace ?? "default")}/DaemonSet/${String(metadata.name ?? "")}`);
    const spec = isRecord(raw.spec) ? raw.spec : undefined;
    const template = spec !== undefined && isRecord(spec.template) ? spec.template : undefined;
    if (template === undefined || recommended === undefined) return raw;
    return { ...raw, spec: { ...spec, template: { ...template, spec: rewriteSpec(template.spec, recommended) } } };
  });
  return { ...objects, byKind: { ...objects.byKind, Pod: pods, DaemonSet: daemonSets } };
}
