// The clocks of Karpenter 1.14.1's controllers that decide how a replica curve plays out, each with where it comes
// from. Everything the replay waits for is one of these; nothing else takes time in it.

export interface ReplayTiming {
  /** The batch closes once no new pending pod came for this long (BATCH_IDLE_DURATION, chart settings.batchIdleDuration). */
  readonly batchIdleSeconds: number;
  /** ...or once it has been open this long (BATCH_MAX_DURATION, chart settings.batchMaxDuration). */
  readonly batchMaxSeconds: number;
  /** From NodeClaim creation to an initialized node the kube-scheduler binds pods to: an assumption (--node-ready). */
  readonly nodeReadySeconds: number;
}

/**
 * Karpenter's defaults for the batch window.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/operator/options/options.go (BATCH_IDLE_DURATION 1s, BATCH_MAX_DURATION 10s)
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/batcher.go (Batcher.Wait)
 */
export const DEFAULT_BATCH_IDLE_SECONDS = 1;
export const DEFAULT_BATCH_MAX_SECONDS = 10;

/**
 * Node start: no AWS or Karpenter figure exists to cite. Published measurements of AL2023 nodes under Karpenter
 * put launch-to-schedulable at 30 to 90 s; 60 s is the middle, and a flag, since AMIs and user data differ.
 */
export const DEFAULT_NODE_READY_SECONDS = 60;
export const NODE_READY_SOURCE =
  "an assumption, not a measurement: published figures for AL2023 nodes under Karpenter give 30-90 s from NodeClaim to schedulable node; set --node-ready to your AMI's";

/**
 * A pod that stays provisionable triggers the batcher again every 10 s.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/dynamic/trigger_controllers.go (PodTriggerController.Reconcile)
 */
export const PROVISIONABLE_RETRIGGER_SECONDS = 10;

/**
 * The disruption controller's singleton loop: every 10 s when no method did anything, at once after a command.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/controller.go (pollingPeriod, Reconcile)
 */
export const DISRUPTION_POLL_SECONDS = 10;

/**
 * A command waits 15 s, then is validated again (candidates still consolidatable, budgets, the simulation) before it
 * starts; the loop blocks meanwhile.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/disruption/consolidation.go (consolidationTTL), validation.go
 */
export const VALIDATION_SECONDS = 15;

/**
 * A cluster found consolidated is looked at again when it changes, or after 5 minutes without a change.
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/state/cluster.go (ConsolidationState)
 */
export const CONSOLIDATION_STATE_TTL_SECONDS = 300;

/**
 * From a NodeClaim's deletion to TerminateInstances: the termination controller drains the node (requeued every
 * 5 s) and terminates the instance. The evicted pods are replaced at once by their controllers; their own grace
 * period is not waited for (an assumption: an upper bound would add up to terminationGracePeriodSeconds).
 * @see kubernetes-sigs/karpenter v1.14.1 pkg/controllers/node/termination/controller.go, drain.go (RequeueAfter 5s)
 */
export const TERMINATION_SECONDS = 5;

/** EC2 bills Linux instances per second with a minimum of 60 s, from running until terminated (AWS What's New, 2017-10-02). */
export const EC2_MINIMUM_BILLED_SECONDS = 60;

/** Fargate bills a pod per second, rounded up, with a 1 minute minimum (aws.amazon.com/fargate/pricing). */
export const FARGATE_MINIMUM_BILLED_SECONDS = 60;
