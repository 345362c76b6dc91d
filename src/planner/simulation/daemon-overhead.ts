import type { DaemonSetShape } from "../workload/workload-model";
import type { FitCache, PodForm } from "./pod-fit";
import type { PoolOfferings } from "./pool-offerings";
import { addResources, NO_RESOURCES, type Resources } from "./resources";
import { TOLERATE_PREFER_NO_SCHEDULE } from "./taints";

// The DaemonSet pods on a node, per instance type, as Karpenter counts them (scheduler.go
// buildDaemonOverheadGroups / isDaemonPodCompatible): a DaemonSet's pod counts on a type when it tolerates
// the pool's taints (PreferNoSchedule always tolerated) and one of its required node affinity terms, with
// its node selector, is compatible with the pool and the type. So an arm64-only DaemonSet costs nothing on
// amd64 types, and the types a node may launch as each carry their own overhead.
// @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go

/** The forms a DaemonSet pod is tried in: one per required node affinity term (ORed), each with its node selector. */
function daemonForms(ds: DaemonSetShape): PodForm[] {
  const tolerations = [...ds.pod.tolerations, TOLERATE_PREFER_NO_SCHEDULE];
  const terms = ds.pod.affinityTerms.length === 0 ? [[]] : ds.pod.affinityTerms;
  return terms.map((term) => {
    const requirements = [...ds.pod.nodeSelector, ...term];
    return { requirements, tolerations, key: `daemon\0${JSON.stringify(requirements)}\0${JSON.stringify(tolerations)}` };
  });
}

/** Which of the pool's candidates a DaemonSet's pod runs on (by index). */
export function daemonSetRunsOn(ds: DaemonSetShape, offerings: PoolOfferings, fits: FitCache): (index: number) => boolean {
  const masks = daemonForms(ds).flatMap((form) => {
    const fit = fits.fit(form, offerings);
    return fit.ok ? [fit.fit.accepts] : [];
  });
  return (index) => masks.some((mask) => mask[index] === 1);
}

/** The pool's candidates, each with the requests of the DaemonSet pods that would run on it. */
export function withDaemonOverhead(offerings: PoolOfferings, daemonSets: readonly DaemonSetShape[], fits: FitCache): PoolOfferings {
  const overhead: Resources[] = offerings.candidates.map(() => NO_RESOURCES);
  for (const ds of daemonSets) {
    const runsOn = daemonSetRunsOn(ds, offerings, fits);
    const requests: Resources = { cpu: ds.pod.cpuMillis, memory: ds.pod.memoryBytes, pods: 1, extended: ds.pod.extended };
    overhead.forEach((sum, i) => {
      if (runsOn(i)) overhead[i] = addResources(sum, requests);
    });
  }
  return { ...offerings, candidates: offerings.candidates.map((c, i) => ({ ...c, overhead: overhead[i] })) };
}
