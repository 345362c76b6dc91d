/**
 * Read → decide → patch → wait. The Deployment and its pods are read first, and nothing is written when
 * CoreDNS already runs on Fargate (see decideCorednsAction): a second invocation must not restart it. When a
 * restart is needed the read also keeps the patch minimal: the compute-type key is deleted only when it is
 * there, and a missing Deployment (404) is retried without sending a write.
 */

import { decideCorednsAction } from "./coredns-action";
import {
  COREDNS_DEPLOYMENT_PATH,
  type DeploymentState,
  describeRollout,
  isRolledOut,
  readDeploymentState,
  renderCorednsPatch,
  STRATEGIC_MERGE_PATCH,
} from "./coredns-deployment";
import { CorednsFixError } from "./coredns-fix-error";
import { corednsPodsPath, describePod, readPodList } from "./coredns-pods";
import type { KubeClient } from "./kube-client";
import { type RetryContext, runWithRetries } from "./run-with-retries";

export interface FixCorednsOptions extends RetryContext {
  readonly kube: KubeClient;
  /** Called before every request: tokens are cheap to sign and a fresh one never expires mid-retry. */
  readonly mintToken: () => Promise<string>;
  /** Wait between two reads of a rollout that is still in progress. */
  readonly pollIntervalMs: number;
}

/** CoreDNS already ran on Fargate: nothing was written. */
export interface CorednsUnchanged {
  readonly action: "none";
  /** Why nothing was done, for the log and the Terraform state. */
  readonly reason: string;
  readonly availableReplicas: number;
  /** HTTP requests sent, retries included. */
  readonly attempts: number;
}

export interface CorednsRestarted {
  readonly action: "restart";
  /** Why a restart was needed. */
  readonly reason: string;
  /** True when the compute-type annotation was on the pod template and this invocation removed it. */
  readonly removedComputeType: boolean;
  /** The annotation's value before the patch, or null when it was absent. */
  readonly previousComputeType: string | null;
  /** The restartedAt annotation this invocation set. */
  readonly restartedAt: string;
  readonly availableReplicas: number;
  /** HTTP requests sent, retries included. */
  readonly attempts: number;
}

/** Results go to the Terraform state in plain text: they hold names and counts, never a token or a key. */
export type FixCorednsResult = CorednsUnchanged | CorednsRestarted;

export async function fixCoredns(options: FixCorednsOptions): Promise<FixCorednsResult> {
  const { kube, log, timing } = options;
  let attempts = 0;

  const readDeployment = async (step: string): Promise<DeploymentState> => {
    const result = await runWithRetries(step, options, async (timeoutMs) =>
      readDeploymentState(await kube.requestJson({ method: "GET", path: COREDNS_DEPLOYMENT_PATH, token: await options.mintToken(), timeoutMs })),
    );
    attempts += result.attempts;
    return result.value;
  };

  const before = await readDeployment("read");
  log({ level: "info", step: "read", message: "read the coredns Deployment", computeType: before.computeType ?? null });

  const podsPath = corednsPodsPath(before.matchLabels);
  const listed = await runWithRetries("pods", options, async (timeoutMs) =>
    readPodList(await kube.requestJson({ method: "GET", path: podsPath, token: await options.mintToken(), timeoutMs })),
  );
  attempts += listed.attempts;
  const pods = listed.value;
  log({ level: "info", step: "pods", message: "listed the coredns pods", pods: pods.map(describePod) });

  const decision = decideCorednsAction(before, pods);
  if (decision.action === "none") {
    log({ level: "info", step: "decide", message: "coredns already runs on Fargate, nothing to do", reason: decision.reason });
    return { action: "none", reason: decision.reason, availableReplicas: before.availableReplicas, attempts };
  }
  const { removeComputeType } = decision;
  log({ level: "info", step: "decide", message: "coredns needs a restart", reason: decision.reason });

  // Fixed before the first attempt: when a PATCH times out after the server applied it, the retry sends the
  // same value and so does not start a second rollout.
  const restartedAt = new Date(timing.now()).toISOString();
  const patch = renderCorednsPatch({ removeComputeType, restartedAt });
  const patched = await runWithRetries("patch", options, async (timeoutMs) =>
    kube.requestJson({
      method: "PATCH",
      path: COREDNS_DEPLOYMENT_PATH,
      token: await options.mintToken(),
      body: patch,
      contentType: STRATEGIC_MERGE_PATCH,
      timeoutMs,
    }),
  );
  attempts += patched.attempts;
  log({ level: "info", step: "patch", message: "patched the coredns pod template", removedComputeType: removeComputeType, restartedAt });

  for (let polls = 1; ; polls++) {
    const state = await readDeployment("wait");
    if (isRolledOut(state)) {
      log({ level: "info", step: "wait", message: "coredns rollout finished", polls, availableReplicas: state.availableReplicas });
      return {
        action: "restart",
        reason: decision.reason,
        removedComputeType: removeComputeType,
        previousComputeType: before.computeType ?? null,
        restartedAt,
        availableReplicas: state.availableReplicas,
        attempts,
      };
    }
    if (timing.now() + options.pollIntervalMs >= options.deadline) {
      throw new CorednsFixError(
        `CoreDNS fix failed at step "wait": the rollout did not finish before the deadline after ${polls} poll${polls === 1 ? "" : "s"}; ` +
          `last status: ${describeRollout(state)}`,
      );
    }
    log({ level: "info", step: "wait", message: "coredns rollout in progress", polls, status: describeRollout(state) });
    await timing.sleep(options.pollIntervalMs);
  }
}
