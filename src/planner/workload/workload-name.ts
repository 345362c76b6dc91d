import type { PodGroup } from "./workload-model";

// How a workload is named where people name it (the savings report's workloads, a replay's curve): namespace, kind
// and name, so that a Deployment's revisions and shapes (several pod groups) are one workload, and a Deployment
// and a StatefulSet of one name are two.

/** "shop/Deployment/web". */
export const workloadName = (group: Pick<PodGroup, "namespace" | "kind" | "name">): string => `${group.namespace}/${group.kind}/${group.name}`;
