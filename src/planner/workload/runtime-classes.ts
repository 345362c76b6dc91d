import { readResourceList } from "./container-resources";
import { isRecord, type Raw, type Report } from "./raw-object";
import type { Toleration } from "./workload-model";

// RuntimeClasses, as the RuntimeClass admission plugin applies them to a pod that names one: its `overhead`
// (podFixed) becomes the pod's spec.overhead, which the scheduler, and Karpenter, add to what the pod requests;
// its `scheduling` joins the pod's node selector and tolerations.
// @see kubernetes/kubernetes plugin/pkg/admission/runtimeclass/admission.go (setOverhead, setScheduling)
// @see https://kubernetes.io/docs/concepts/scheduling-eviction/pod-overhead/

export interface RuntimeClassSpec {
  /** overhead.podFixed, in the resources' units. */
  readonly overhead: Readonly<Record<string, number>>;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly Toleration[];
}

/** The parts of a RuntimeClass document a pod's requests and placement read. */
export function readRuntimeClass(object: Raw, report: Report): RuntimeClassSpec {
  const podFixed = isRecord(object.overhead) ? object.overhead.podFixed : undefined;
  if (podFixed !== undefined && !isRecord(podFixed)) report("overhead.podFixed", podFixed, "must be a mapping of resource names to quantities");
  const scheduling = isRecord(object.scheduling) ? object.scheduling : {};
  const nodeSelector = isRecord(scheduling.nodeSelector)
    ? Object.fromEntries(Object.entries(scheduling.nodeSelector).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};
  const tolerations = Array.isArray(scheduling.tolerations) ? scheduling.tolerations.filter((t): t is Toleration => isRecord(t)) : [];
  return { overhead: isRecord(podFixed) ? readResourceList(podFixed, "overhead.podFixed", report) : {}, nodeSelector, tolerations };
}
