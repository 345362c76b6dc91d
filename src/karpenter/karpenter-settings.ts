import { z } from "zod";
import { dnsLabel, strictObject } from "../shared/schema-helpers";
import { DEFAULT_NAMESPACE, KARPENTER_VERSION } from "./karpenter-release";

/** The `karpenter` section of the cluster config: how the controller is installed and run. */
export const karpenterSettingsSchema = strictObject({
  /** Pinned: the controller IAM policy and Helm values are written for this release. */
  version: z
    .literal(KARPENTER_VERSION, { error: `must be ${KARPENTER_VERSION}: the IAM policy and chart values here are written for that release` })
    .default(KARPENTER_VERSION),
  namespace: dnsLabel("namespace").default(DEFAULT_NAMESPACE),
  /** Two replicas need Fargate subnets in two zones (the chart spreads them by zone). */
  replicas: z.number().int().min(1, { error: "must be at least 1" }).max(3, { error: "must be at most 3" }).default(2),
  /** Creates the account-wide AWSServiceRoleForEC2Spot; leave false when the account already has it. */
  createSpotServiceLinkedRole: z.boolean().default(false),
  logLevel: z.enum(["debug", "info", "error"]).default("info"),
  /**
   * How the helm and kubectl providers authenticate. token: the ephemeral aws_eks_cluster_auth token, valid
   * 15 minutes, no AWS CLI needed (HCP Terraform runners). exec: `aws eks get-token` per request, for runs that
   * may outlast 15 minutes (a destroy draining many nodes), where the AWS CLI is installed.
   */
  kubernetesAuth: z.enum(["token", "exec"]).default("token"),
}).prefault({});

export type KarpenterSettings = z.output<typeof karpenterSettingsSchema>;
