import { z } from "zod";
import { goDurationNanos } from "../provisioners/go-duration";
import { dnsLabel, strictObject } from "../shared/schema-helpers";
import { DEFAULT_NAMESPACE, KARPENTER_VERSION } from "./karpenter-release";

/** The longest batch window this config takes: beyond, pods would wait minutes for a node by design. */
const MAX_BATCH_NANOS = 10n * 60n * 1_000_000_000n;

/** A batch window's length as the chart takes it: a Go duration from 1ms to 10m ("1s", "10s", "500ms"). */
const batchDuration = (what: string) =>
  z
    .string({ error: `must be a duration such as "1s" or "10s": ${what}` })
    .refine(
      (text) => {
        const nanos = goDurationNanos(text);
        return nanos !== undefined && nanos >= 1_000_000n && nanos <= MAX_BATCH_NANOS;
      },
      { error: 'must be a Go duration from 1ms to 10m, such as "1s", "500ms" or "10s"' },
    )
    .optional();

/** The `karpenter` section of the cluster config: how the controller is installed and run. */
export const karpenterSettingsSchema = strictObject({
  version: z
    .literal(KARPENTER_VERSION, { error: `must be ${KARPENTER_VERSION}: the IAM policy and chart values here are written for that release` })
    .default(KARPENTER_VERSION)
    .meta({
      description:
        "Optional, and not a switch: a config may state the release it was written for, and synth fails when the code installs another (the IAM policy, chart values and CRD rules are that release's). To upgrade Karpenter, see docs/operations.md, Upgrades.",
    }),
  namespace: dnsLabel("namespace").default(DEFAULT_NAMESPACE).meta({
    description:
      "The controller's namespace: created by the Karpenter stack (with the `restricted` Pod Security standard) before the charts, with a Fargate profile and the FlowSchemas. `kube-system` is possible (no namespace, profile or FlowSchemas of its own).",
  }),
  replicas: z
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(3, { error: "must be at most 3" })
    .default(2)
    .meta({ description: "Controller replicas, spread over zones (two need Fargate subnets in two zones)." }),
  createSpotServiceLinkedRole: z
    .boolean()
    .default(false)
    .meta({ description: "Create `AWSServiceRoleForEC2Spot` (account-wide, once); leave false when the account already has it." }),
  nodeSsm: z.boolean().default(false).meta({
    description:
      "AmazonSSMManagedInstanceCore on the node roles, for Session Manager shells and Run Command on nodes. Off by default (least privilege); SSM's Default Host Management Configuration gives IMDSv2 instances the same, account-wide, without it.",
  }),
  logLevel: z.enum(["debug", "info", "error"]).default("info").meta({ description: "The controller's log level." }),
  batchIdleDuration: batchDuration("how long after the last new pending pod a provisioning batch closes").meta({
    description:
      "The chart's `settings.batchIdleDuration` (BATCH_IDLE_DURATION): a provisioning batch closes once no new pending pod came for this long. Unset: Karpenter's 1s. `npm run replay` reads it.",
  }),
  batchMaxDuration: batchDuration("how long a provisioning batch stays open at most").meta({
    description:
      "The chart's `settings.batchMaxDuration` (BATCH_MAX_DURATION): a provisioning batch closes this long after it opened however pods keep coming; longer batches give fewer, larger nodes. Unset: Karpenter's 10s. `npm run replay` reads it.",
  }),
  kubernetesAuth: z.enum(["token", "exec"]).default("token").meta({
    description:
      "How helm and kubectl authenticate: `token`, the ephemeral `aws_eks_cluster_auth` (never in state, no AWS CLI needed, valid 15 minutes per run); or `exec`, `aws eks get-token` per request (needs the AWS CLI; for runs longer than 15 minutes, such as a destroy draining many nodes). Synth warns about `exec` with `backend.type: cloud`: HCP Terraform's hosted runners have no AWS CLI.",
  }),
})
  .prefault({})
  .meta({ title: "the controller", description: "How the Karpenter controller is installed and run." });

export type KarpenterSettings = z.output<typeof karpenterSettingsSchema>;
