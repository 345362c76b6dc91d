import { satisfies } from "../../instance-catalogue/requirements";
import type { Taint } from "../model";
import type { DaemonSetShape } from "../workload/workload-model";
import type { FitCache, PodForm } from "./pod-fit";
import type { PoolOfferings } from "./pool-offerings";
import { addResources, NO_RESOURCES, type Resources, requestsOf } from "./resources";
import { TOLERATE_PREFER_NO_SCHEDULE, untoleratedTaint } from "./taints";

// The DaemonSet pods on a node, as Karpenter counts them: a DaemonSet's pod counts on a NodePool's instance
// type when it tolerates the pool's taints (PreferNoSchedule always tolerated) and one of its required node
// affinity terms, with its node selector, is compatible with the pool and the type (getDaemonOverhead,
// isDaemonPodCompatible). So an arm64-only DaemonSet costs nothing on amd64 types, and the types a node may
// launch as each carry their own overhead. On a node already running, the same test reads the node's taints
// and labels (calculateExistingNodeClaims).
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go
//      (getDaemonOverhead, calculateExistingNodeClaims)

const formsByDaemonSet = new WeakMap<DaemonSetShape, readonly PodForm[]>();

/** The forms a DaemonSet pod is tried in: one per required node affinity term (ORed), each with its node selector. */
function daemonForms(ds: DaemonSetShape): readonly PodForm[] {
  let forms = formsByDaemonSet.get(ds);
  if (forms === undefined) {
    const tolerations = [...ds.pod.tolerations, TOLERATE_PREFER_NO_SCHEDULE];
    const terms = ds.pod.affinityTerms.length === 0 ? [[]] : ds.pod.affinityTerms;
    forms = terms.map((term) => {
      const requirements = [...ds.pod.nodeSelector, ...term];
      return { requirements, tolerations, key: `daemon\0${JSON.stringify(requirements)}\0${JSON.stringify(tolerations)}` };
    });
    formsByDaemonSet.set(ds, forms);
  }
  return forms;
}

/** Which of the pool's instance options a DaemonSet's pod runs on (by index). */
export function daemonSetRunsOn(ds: DaemonSetShape, offerings: PoolOfferings, fits: FitCache): (index: number) => boolean {
  const masks = daemonForms(ds).flatMap((form) => {
    const fit = fits.fit(form, offerings);
    return fit.ok ? [fit.value.accepts] : [];
  });
  return (index) => masks.some((mask) => mask[index] === 1);
}

/** Whether a DaemonSet's pod runs on a node with these labels and taints. */
export function daemonSetRunsOnNode(ds: DaemonSetShape, labels: Readonly<Record<string, string>>, taints: readonly Taint[]): boolean {
  return daemonForms(ds).some(
    (form) => untoleratedTaint(form.tolerations, taints) === undefined && form.requirements.every((r) => satisfies(labels[r.key], r)),
  );
}

/** The requests of the DaemonSets' pods together. */
export const daemonRequests = (daemonSets: readonly DaemonSetShape[]): Resources =>
  daemonSets.reduce((sum, ds) => addResources(sum, requestsOf(ds.pod)), NO_RESOURCES);

/** The pool's candidates, each with the DaemonSets whose pods would run on it and what they request. */
export function withDaemonOverhead(offerings: PoolOfferings, daemonSets: readonly DaemonSetShape[], fits: FitCache): PoolOfferings {
  const running = daemonSets.map((ds) => ({ ds, runsOn: daemonSetRunsOn(ds, offerings, fits) }));
  return {
    ...offerings,
    options: offerings.options.map((c) => {
      const onIt = running.filter(({ runsOn }) => runsOn(c.index)).map(({ ds }) => ds);
      return { ...c, daemonSets: onIt, overhead: daemonRequests(onIt) };
    }),
  };
}
