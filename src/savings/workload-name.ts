import type { PodGroup } from "../planner/workload/workload-model";

// How the savings report names a workload: namespace, kind and name, so that a Deployment's revisions and shapes
// (several pod groups) are one workload, and a Deployment and a StatefulSet of one name are two.

/** "shop/Deployment/web". */
export const workloadOf = (group: Pick<PodGroup, "namespace" | "kind" | "name">) => `${group.namespace}/${group.kind}/${group.name}`;
