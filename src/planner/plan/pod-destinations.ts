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

/** Pods for Karpenter's nodes, and pods no node will run (with why). */
export interface ForKarpenter {
  readonly nodes: readonly PodGroup[];
  readonly held: readonly HeldPods[];
}

export interface PodDestinations {
  /** The steady state's pods. */
  readonly steady: ForKarpenter;
  /** The pods of Jobs and CronJobs: the jobs-burst scenario's. */
  readonly jobs: ForKarpenter;
  /** Steady pods Fargate runs. */
  readonly fargate: readonly PodGroup[];
  /** Pods bound to a named node from the start. */
  readonly boundToNodes: readonly PodGroup[];
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
  const steady = { nodes: [] as PodGroup[], held: [] as HeldPods[] };
  const jobs = { nodes: [] as PodGroup[], held: [] as HeldPods[] };
  const fargate: PodGroup[] = [];
  const boundToNodes: PodGroup[] = [];
  for (const group of groups) {
    const mine = runsToCompletion(group) ? jobs : steady;
    if (group.boundTo !== undefined) {
      boundToNodes.push(group);
      continue;
    }
    const profile = fargateProfileFor(group.namespace, group.labels, profiles);
    if (profile !== undefined) {
      const refused = fargateRefuses(group.pod);
      if (refused !== undefined)
        mine.held.push({
          group,
          reason: `Fargate profile ${profile.name} selects it, and Fargate admits no pod with hostNetwork, hostPort or privileged containers (it has ${refused}): it stays Pending, and Karpenter does not provision for a pod Fargate's scheduler owns`,
        });
      else if (mine === steady) fargate.push(group);
      continue;
    }
    if (group.ignoredBecause !== undefined) mine.held.push({ group, reason: group.ignoredBecause });
    else mine.nodes.push(group);
  }
  return { steady, jobs, fargate, boundToNodes };
}
