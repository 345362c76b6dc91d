import type { FargateProfileModel } from "../model";
import type { PodGroup, PodShape } from "../workload/workload-model";
import { fargateProfileFor } from "./fargate";

// Where each pod of the workload goes before Karpenter sees it: a pod bound to a named node (spec.nodeName) is
// there already; a pod a Fargate profile selects is Fargate's (which refuses hostNetwork, hostPort and
// privileged pods: they stay Pending, and Karpenter does not provision for them either); a pod Karpenter ignores
// (a volume it cannot place it by) stays Pending; the rest are Karpenter's. Jobs and CronJobs run to completion:
// the steady state leaves them out, and the jobs-burst scenario adds them.
// @see https://docs.aws.amazon.com/eks/latest/userguide/fargate.html (Fargate considerations)

export interface HeldPods {
  readonly group: PodGroup;
  /** Why no node runs them. */
  readonly reason: string;
}

export interface PodDestinations {
  /** Steady pods for Karpenter's nodes. */
  readonly nodes: readonly PodGroup[];
  /** Pods of Jobs and CronJobs for Karpenter's nodes: the jobs-burst scenario's. */
  readonly jobs: readonly PodGroup[];
  /** Steady pods Fargate runs. */
  readonly fargate: readonly PodGroup[];
  /** Pods bound to a named node from the start. */
  readonly boundToNodes: readonly PodGroup[];
  /** Steady pods no node will run, and why. */
  readonly held: readonly HeldPods[];
  /** The same for the pods of Jobs and CronJobs. */
  readonly heldJobs: readonly HeldPods[];
}

/** Jobs and CronJobs: their pods run to completion. */
export const runsToCompletion = (group: PodGroup): boolean => group.kind === "Job" || group.kind === "CronJob";

/** What of a pod Fargate refuses, if anything: "hostNetwork", "hostPort 80", "a privileged container". */
function fargateRefuses(pod: PodShape): string | undefined {
  if (pod.hostNetwork === true) return "hostNetwork";
  if (pod.hostPorts !== undefined && pod.hostPorts.length > 0) return `hostPort ${pod.hostPorts[0].port}`;
  if (pod.privileged === true) return "a privileged container";
  return undefined;
}

/** The workload's running groups, by where their pods go. */
export function podDestinations(groups: readonly PodGroup[], profiles: readonly FargateProfileModel[]): PodDestinations {
  const result = {
    nodes: [] as PodGroup[],
    jobs: [] as PodGroup[],
    fargate: [] as PodGroup[],
    boundToNodes: [] as PodGroup[],
    held: [] as HeldPods[],
    heldJobs: [] as HeldPods[],
  };
  for (const group of groups) {
    const job = runsToCompletion(group);
    const hold = (reason: string) => (job ? result.heldJobs : result.held).push({ group, reason });
    if (group.boundTo !== undefined) {
      result.boundToNodes.push(group);
      continue;
    }
    const profile = fargateProfileFor(group.namespace, group.labels, profiles);
    if (profile !== undefined) {
      const refused = fargateRefuses(group.pod);
      if (refused !== undefined)
        hold(
          `Fargate profile ${profile.name} selects it, and Fargate admits no pod with hostNetwork, hostPort or privileged containers (it has ${refused}): it stays Pending, and Karpenter does not provision for a pod Fargate's scheduler owns`,
        );
      else if (!job) result.fargate.push(group);
      continue;
    }
    if (group.ignoredBecause !== undefined) hold(group.ignoredBecause);
    else (job ? result.jobs : result.nodes).push(group);
  }
  return result;
}
