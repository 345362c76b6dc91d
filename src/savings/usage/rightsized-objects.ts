import type { ClusterObjects } from "../../cluster-state/cluster-objects";
import { podFactsOf, workloadOf } from "../../planner/state/pod-facts";
import { isRecord } from "../../planner/workload/raw-object";
import { recommendedByWorkload } from "../../usage/recommendations";
import { withRecommendedRequests } from "../../usage/rewrite-requests";
import type { RightsizingJson } from "./rightsizing";

// The cluster's objects as they would be with the recommended requests applied: each right-sized container's CPU
// and memory requests (and its memory limit, set equal to the request as the method recommends) rewritten in its
// running pods and in its DaemonSet's template, everything else as it was. Read again as a state, they are what the
// rightsize move re-plans: the pods' requests as the scheduler counts them (init containers, overhead) follow
// from the containers as they do for any pod.

export function rightsizedObjects(objects: ClusterObjects, rightsizing: RightsizingJson): ClusterObjects {
  const byWorkload = recommendedByWorkload(rightsizing.workloads);
  const pods = objects.byKind.Pod.map((raw) => {
    const pod = podFactsOf(raw);
    const { kind, name } = workloadOf(pod);
    const spec = withRecommendedRequests(raw.spec, byWorkload.get(`${pod.namespace}/${kind}/${name}`));
    return spec === raw.spec ? raw : { ...raw, spec };
  });
  const daemonSets = objects.byKind.DaemonSet.map((raw) => {
    const metadata = isRecord(raw.metadata) ? raw.metadata : {};
    const recommended = byWorkload.get(`${String(metadata.namespace ?? "default")}/DaemonSet/${String(metadata.name ?? "")}`);
    const spec = isRecord(raw.spec) ? raw.spec : undefined;
    const template = spec !== undefined && isRecord(spec.template) ? spec.template : undefined;
    if (template === undefined || recommended === undefined) return raw;
    return { ...raw, spec: { ...spec, template: { ...template, spec: withRecommendedRequests(template.spec, recommended) } } };
  });
  return { ...objects, byKind: { ...objects.byKind, Pod: pods, DaemonSet: daemonSets } };
}
