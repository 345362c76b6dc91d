/**
 * Whether this invocation has anything to do. The invocation re-runs whenever the function's code or the
 * kube-system profile changes, so a restart on every run would restart CoreDNS in every cluster on the next
 * apply after a code change. It restarts only when CoreDNS is not yet serving from Fargate.
 */
import { COMPUTE_TYPE_ANNOTATION, type DeploymentState, describeRollout, isFullyAvailable } from "./coredns-deployment";
import { describePod, isRunningOnFargate, type PodState } from "./coredns-pods";

export type CorednsAction =
  | { readonly action: "none"; readonly reason: string }
  | { readonly action: "restart"; readonly removeComputeType: boolean; readonly reason: string };

export function decideCorednsAction(deployment: DeploymentState, pods: readonly PodState[]): CorednsAction {
  if (deployment.computeType !== undefined) {
    return { action: "restart", removeComputeType: true, reason: `the pod template has ${COMPUTE_TYPE_ANNOTATION}=${deployment.computeType}` };
  }
  const restart = (why: string): CorednsAction => ({
    action: "restart",
    removeComputeType: false,
    reason: `the pod template has no ${COMPUTE_TYPE_ANNOTATION} annotation, but ${why}`,
  });

  // A terminating pod is leaving whatever it runs on; its replacement is what must be on Fargate.
  const live = pods.filter((pod) => !pod.terminating);
  if (live.length === 0) return restart("no coredns pod was found, terminating ones aside");
  // Pods created while no profile matched (before the first profile, or while it was being replaced) stay
  // Pending or wherever they were scheduled: only new pods are matched against the current profile.
  const elsewhere = live.filter((pod) => !isRunningOnFargate(pod));
  if (elsewhere.length > 0) {
    return restart(`${elsewhere.length} of ${live.length} coredns pods not running on Fargate: ${elsewhere.map(describePod).join("; ")}`);
  }
  if (!isFullyAvailable(deployment)) return restart(`the rollout is not complete: ${describeRollout(deployment)}`);
  return {
    action: "none",
    reason: `the pod template has no ${COMPUTE_TYPE_ANNOTATION} annotation, all ${live.length} coredns pods run on Fargate and ${deployment.availableReplicas} of ${deployment.replicas} replicas are available`,
  };
}
