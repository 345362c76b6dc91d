/**
 * CoreDNS's pods as this Lambda sees them: where to list them, and whether one runs on Fargate.
 *
 * What EKS sets on a pod that runs on Fargate, as seen on real clusters:
 * - the Fargate admission webhook labels it `eks.amazonaws.com/fargate-profile: <profile>` (coredns and
 *   karpenter pods on a live EKS 1.34 cluster carry this label and not `eks.amazonaws.com/compute-type`:
 *   https://github.com/aws-samples/sample-apex-skills/pull/210);
 * - it runs on a node of its own named `fargate-ip-<address>.<region>.compute.internal` (a `kubectl describe
 *   pod` of a Fargate pod shows both: https://github.com/aws/containers-roadmap/issues/1976).
 * Both are required: the label alone can be put on a pod template by hand to pick a profile
 * (https://docs.aws.amazon.com/eks/latest/userguide/fargate-profile.html), and says nothing about where the
 * pod runs. A wrong guess here only costs a restart, the behaviour before this check existed.
 */

import { asRecord } from "./json-fields";

export const FARGATE_PROFILE_LABEL = "eks.amazonaws.com/fargate-profile";
const FARGATE_NODE_PREFIX = "fargate-";

export interface PodState {
  readonly name: string;
  /** status.phase: Pending, Running, Succeeded, Failed or Unknown. */
  readonly phase: string;
  /** spec.nodeName, or undefined while the pod is not scheduled. */
  readonly nodeName: string | undefined;
  readonly fargateProfile: string | undefined;
  /** metadata.deletionTimestamp is set: the pod is on its way out. */
  readonly terminating: boolean;
}

/**
 * The pods of the Deployment's selector in kube-system. Only matchLabels are sent: a selector that also had
 * matchExpressions would list more pods than the Deployment's, which can only make "all on Fargate" harder
 * to satisfy, never easier. Keys are sorted so the path is the same whatever order the API answered in.
 * Listing pods is within the access policy: AmazonEKSEditPolicy grants get/list/watch on pods
 * (https://docs.aws.amazon.com/eks/latest/userguide/access-policy-permissions.html).
 */
export function corednsPodsPath(matchLabels: Readonly<Record<string, string>>): string {
  const selector = Object.keys(matchLabels)
    .sort()
    .map((key) => `${key}=${matchLabels[key]}`)
    .join(",");
  const query = selector === "" ? "" : `?${new URLSearchParams({ labelSelector: selector }).toString()}`;
  return `/api/v1/namespaces/kube-system/pods${query}`;
}

/** Reads the fields this Lambda uses from a PodList; throws when the answer is not a PodList at all. */
export function readPodList(json: unknown): readonly PodState[] {
  const list = asRecord(json);
  if (list?.kind !== "PodList" || !Array.isArray(list.items)) {
    throw new Error(`expected a PodList, got ${typeof list?.kind === "string" ? `kind ${list.kind}` : "something else"}`);
  }
  return list.items.map((item: unknown): PodState => {
    const pod = asRecord(item);
    const metadata = asRecord(pod?.metadata);
    const profile = asRecord(metadata?.labels)?.[FARGATE_PROFILE_LABEL];
    const nodeName = asRecord(pod?.spec)?.nodeName;
    const phase = asRecord(pod?.status)?.phase;
    return {
      name: typeof metadata?.name === "string" ? metadata.name : "(unnamed)",
      phase: typeof phase === "string" ? phase : "Unknown",
      nodeName: typeof nodeName === "string" && nodeName !== "" ? nodeName : undefined,
      fargateProfile: typeof profile === "string" ? profile : undefined,
      terminating: metadata?.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null,
    };
  });
}

export function isRunningOnFargate(pod: PodState): boolean {
  return pod.phase === "Running" && pod.fargateProfile !== undefined && (pod.nodeName?.startsWith(FARGATE_NODE_PREFIX) ?? false);
}

/** One line per pod for logs and reasons: the name, phase, node and profile; nothing secret is in a pod's placement. */
export function describePod(pod: PodState): string {
  const profile = pod.fargateProfile === undefined ? "no Fargate profile" : `Fargate profile ${pod.fargateProfile}`;
  return `${pod.name} ${pod.phase} on ${pod.nodeName ?? "no node"}, ${profile}${pod.terminating ? ", terminating" : ""}`;
}
