import { IamServiceLinkedRole } from "@cdktf/provider-aws/lib/iam-service-linked-role";
import { Construct } from "constructs";
import type { AwsContext } from "../../iam/aws-context";
import type { ResourceNames } from "../../shared/resource-names";
import type { KarpenterSettings } from "../karpenter-settings";
import { ControllerRole } from "./controller-role";
import { InterruptionQueue } from "./interruption-queue";

export interface KarpenterAwsProps {
  readonly settings: Pick<KarpenterSettings, "namespace" | "createSpotServiceLinkedRole">;
  readonly names: ResourceNames;
  readonly aws: AwsContext;
  /** The roles Karpenter may pass to the nodes it launches. */
  readonly nodeRoleArns: readonly string[];
  readonly oidcProviderArn: string;
  /** The OIDC issuer without "https://". */
  readonly oidcIssuerHost: string;
}

/** Karpenter's AWS side: the controller's IRSA role and policies, the interruption queue and its rules. */
export class KarpenterAws extends Construct {
  readonly controllerRole: ControllerRole;
  readonly interruptionQueue: InterruptionQueue;

  constructor(scope: Construct, id: string, props: KarpenterAwsProps) {
    super(scope, id);
    const { settings, names, aws } = props;
    this.interruptionQueue = new InterruptionQueue(this, "interruption", { names });
    this.controllerRole = new ControllerRole(this, "controller", {
      names,
      namespace: settings.namespace,
      oidcProviderArn: props.oidcProviderArn,
      oidcIssuerHost: props.oidcIssuerHost,
      policyScope: {
        partition: aws.partition,
        region: aws.region,
        accountId: aws.accountId,
        clusterName: names.cluster,
        nodeRoleArns: props.nodeRoleArns,
        interruptionQueueArn: this.interruptionQueue.queue.arn,
      },
    });
    if (settings.createSpotServiceLinkedRole) {
      // Account-wide and created once: without it the first spot launch fails with
      // AuthFailure.ServiceLinkedRoleCreationNotPermitted. Off by default because most accounts have it.
      new IamServiceLinkedRole(this, "spot-service-linked-role", { awsServiceName: "spot.amazonaws.com" });
    }
  }
}
