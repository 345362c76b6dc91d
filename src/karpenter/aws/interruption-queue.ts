import { CloudwatchEventRule } from "@cdktf/provider-aws/lib/cloudwatch-event-rule";
import { CloudwatchEventTarget } from "@cdktf/provider-aws/lib/cloudwatch-event-target";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { SqsQueuePolicy } from "@cdktf/provider-aws/lib/sqs-queue-policy";
import { Construct } from "constructs";
import { PolicyDocument } from "../../iam/policy-document";
import type { ResourceNames } from "../../shared/resource-names";
import { INTERRUPTION_RULES } from "./interruption-rules";

export interface InterruptionQueueProps {
  readonly names: ResourceNames;
}

/**
 * The SQS queue Karpenter reads interruption events from (spot reclaims, rebalance, scheduled maintenance,
 * state changes), and the EventBridge rules that feed it.
 */
export class InterruptionQueue extends Construct {
  readonly queue: SqsQueue;

  constructor(scope: Construct, id: string, props: InterruptionQueueProps) {
    super(scope, id);
    const { names } = props;
    this.queue = new SqsQueue(this, "queue", {
      name: names.interruptionQueue,
      // Events older than five minutes describe instances that are already gone.
      messageRetentionSeconds: 300,
      // SQS-managed keys: SSE-KMS with the aws/sqs key would block EventBridge delivery.
      sqsManagedSseEnabled: true,
    });
    const rules = INTERRUPTION_RULES.map((rule) => {
      const eventRule = new CloudwatchEventRule(this, `rule-${rule.suffix}`, {
        name: `${names.interruptionRulePrefix}${rule.suffix}`,
        description: `Karpenter interruption handling for ${names.cluster}: ${rule.detailType}`,
        eventPattern: JSON.stringify({ source: [rule.source], "detail-type": [rule.detailType] }),
      });
      new CloudwatchEventTarget(this, `rule-${rule.suffix}-target`, {
        rule: eventRule.name,
        targetId: "KarpenterInterruptionQueueTarget",
        arn: this.queue.arn,
      });
      return eventRule;
    });
    const policy = new PolicyDocument(this, "queue-policy-document", [
      {
        // EventBridge delivers to an SQS target as events.amazonaws.com, on behalf of a rule: only these
        // rules may send (confused-deputy guard). Karpenter's template also admits sqs.amazonaws.com and no
        // source; neither is needed for EventBridge's delivery.
        // @see https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-use-resource-based.html#eb-sqs-permissions
        sid: "AllowEventBridgeToSend",
        effect: "Allow",
        actions: ["sqs:SendMessage"],
        resources: [this.queue.arn],
        principals: [{ type: "Service", identifiers: ["events.amazonaws.com"] }],
        conditions: [{ test: "ArnEquals", variable: "aws:SourceArn", values: rules.map((r) => r.arn) }],
      },
      {
        sid: "DenyHTTP",
        effect: "Deny",
        actions: ["sqs:*"],
        resources: [this.queue.arn],
        principals: [{ type: "*", identifiers: ["*"] }],
        conditions: [{ test: "Bool", variable: "aws:SecureTransport", values: ["false"] }],
      },
    ]);
    new SqsQueuePolicy(this, "queue-policy", { queueUrl: this.queue.url, policy: policy.json });
  }
}
