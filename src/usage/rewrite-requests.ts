import { isRecord } from "../planner/workload/raw-object";

// A pod spec with the recommended requests applied: each right-sized container's CPU and memory requests, and its
// memory limit set equal to the request as the method recommends (its CPU limit dropped: the method recommends
// none, and one below the new request would be refused). Everything else as it was.

export type RecommendedRequests = ReadonlyMap<string, { readonly cpu: number; readonly memoryBytes: number }>;

/** The containers of a pod spec with the recommendations applied; the spec itself when none applies. */
export function withRecommendedRequests(spec: unknown, recommended: RecommendedRequests | undefined): unknown {
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
