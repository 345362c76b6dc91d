/**
 * The coredns Deployment as this Lambda sees it: where it lives, the one patch it sends, and when its
 * rollout counts as finished.
 */

import { asRecord, numberOr } from "./json-fields";

export const COREDNS_DEPLOYMENT_PATH = "/apis/apps/v1/namespaces/kube-system/deployments/coredns";

/**
 * EKS creates coredns with this pod-template annotation set to `ec2`, which keeps its pods off Fargate on
 * a cluster with no EC2 nodes. Newer clusters may not have it at all.
 */
export const COMPUTE_TYPE_ANNOTATION = "eks.amazonaws.com/compute-type";

/** What `kubectl rollout restart` sets: a changed pod template makes the Deployment replace every pod. */
export const RESTARTED_AT_ANNOTATION = "kubectl.kubernetes.io/restartedAt";

export const STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

export interface CorednsPatch {
  readonly spec: {
    readonly template: { readonly metadata: { readonly annotations: Readonly<Record<string, string | null>> } };
  };
}

export interface DeploymentState {
  /** The compute-type pod-template annotation, or undefined when the template does not carry it. */
  readonly computeType: string | undefined;
  readonly generation: number;
  readonly observedGeneration: number;
  readonly replicas: number;
  readonly updatedReplicas: number;
  readonly availableReplicas: number;
  /** Pods of every template (status.replicas): more than updatedReplicas while old pods remain. */
  readonly totalReplicas: number;
  /** spec.selector.matchLabels: which pods are this Deployment's (EKS: k8s-app=kube-dns and its component label). */
  readonly matchLabels: Readonly<Record<string, string>>;
}

/**
 * A strategic-merge patch where `null` deletes exactly one annotation key. The original Lambda sent
 * `"$patch": "delete"` inside the annotations map, which replaces the whole map and drops every other
 * pod-template annotation.
 */
export function renderCorednsPatch(options: { readonly removeComputeType: boolean; readonly restartedAt: string }): CorednsPatch {
  return {
    spec: {
      template: {
        metadata: {
          annotations: {
            ...(options.removeComputeType ? { [COMPUTE_TYPE_ANNOTATION]: null } : {}),
            [RESTARTED_AT_ANNOTATION]: options.restartedAt,
          },
        },
      },
    },
  };
}

/** Reads the fields this Lambda uses from a Deployment; throws when the answer is not a Deployment at all. */
export function readDeploymentState(json: unknown): DeploymentState {
  const deployment = asRecord(json);
  if (deployment?.kind !== "Deployment") {
    throw new Error(`expected a Deployment, got ${typeof deployment?.kind === "string" ? `kind ${deployment.kind}` : "something else"}`);
  }
  const metadata = asRecord(deployment.metadata);
  const spec = asRecord(deployment.spec);
  const status = asRecord(deployment.status);
  const annotations = asRecord(asRecord(asRecord(spec?.template)?.metadata)?.annotations);
  const computeType = annotations?.[COMPUTE_TYPE_ANNOTATION];
  const matchLabels = Object.entries(asRecord(asRecord(spec?.selector)?.matchLabels) ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  return {
    computeType: typeof computeType === "string" ? computeType : undefined,
    generation: numberOr(metadata?.generation, 0),
    // Status counters are omitted from the JSON while they are zero; spec.replicas defaults to 1.
    observedGeneration: numberOr(status?.observedGeneration, 0),
    replicas: numberOr(spec?.replicas, 1),
    updatedReplicas: numberOr(status?.updatedReplicas, 0),
    availableReplicas: numberOr(status?.availableReplicas, 0),
    totalReplicas: numberOr(status?.replicas, 0),
    matchLabels: Object.fromEntries(matchLabels),
  };
}

/**
 * The controller has seen the latest template, every desired replica runs it, no pod of an older template
 * is left (so an available pod is a new one, even on a re-run where the old pods were serving), and at least
 * one pod serves DNS. Like `kubectl rollout status`, but satisfied by one available replica: Fargate starts
 * pods one by one.
 */
export function isRolledOut(state: DeploymentState): boolean {
  return (
    state.observedGeneration >= state.generation &&
    state.updatedReplicas === state.replicas &&
    state.totalReplicas === state.updatedReplicas &&
    state.availableReplicas >= 1
  );
}

/**
 * Stricter than isRolledOut, for deciding that there is nothing to do: every desired replica is available
 * and runs the latest template. A rollout still in progress (say, a previous invocation that hit its
 * deadline) is not taken as done.
 */
export function isFullyAvailable(state: DeploymentState): boolean {
  return (
    state.observedGeneration >= state.generation &&
    state.replicas >= 1 &&
    state.updatedReplicas === state.replicas &&
    state.totalReplicas === state.replicas &&
    state.availableReplicas === state.replicas
  );
}

export function describeRollout(state: DeploymentState): string {
  return (
    `availableReplicas=${state.availableReplicas} updatedReplicas=${state.updatedReplicas} replicas=${state.replicas} ` +
    `observedGeneration=${state.observedGeneration} generation=${state.generation} totalReplicas=${state.totalReplicas}`
  );
}
