import { z } from "zod";
import { dnsLabel, strictObject } from "../shared/schema-helpers";
import { DEFAULT_NAMESPACE, KARPENTER_VERSION } from "./karpenter-release";

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
  kubernetesAuth: z.enum(["token", "exec"]).default("token").meta({
    description:
      "How helm and kubectl authenticate: `token`, the ephemeral `aws_eks_cluster_auth` (never in state, no AWS CLI needed, valid 15 minutes per run); or `exec`, `aws eks get-token` per request (needs the AWS CLI; for runs longer than 15 minutes, such as a destroy draining many nodes). Synth warns about `exec` with `backend.type: cloud`: HCP Terraform's hosted runners have no AWS CLI.",
  }),
})
  .prefault({})
  .meta({ title: "the controller", description: "How the Karpenter controller is installed and run." });

export type KarpenterSettings = z.output<typeof karpenterSettingsSchema>;
