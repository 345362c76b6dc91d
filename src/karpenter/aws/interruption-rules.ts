/**
 * The EC2 and Health events Karpenter handles, one EventBridge rule each, all sent to the interruption
 * queue. The suffix names the rule `<cluster>-karpenter-<suffix>`; keep suffixes within "state-change"'s
 * length, which the cluster-name limit assumes (src/shared/resource-names.ts).
 * @see https://github.com/aws/karpenter-provider-aws/blob/v1.14.1/website/content/en/v1.14/getting-started/getting-started-with-karpenter/cloudformation.yaml
 */
export const INTERRUPTION_RULES: readonly { readonly suffix: string; readonly source: string; readonly detailType: string }[] = [
  { suffix: "health", source: "aws.health", detailType: "AWS Health Event" },
  { suffix: "spot", source: "aws.ec2", detailType: "EC2 Spot Instance Interruption Warning" },
  { suffix: "rebalance", source: "aws.ec2", detailType: "EC2 Instance Rebalance Recommendation" },
  { suffix: "state-change", source: "aws.ec2", detailType: "EC2 Instance State-change Notification" },
  // Since Karpenter 1.10: capacity reservations about to be reclaimed.
  { suffix: "reservation", source: "aws.ec2", detailType: "EC2 Capacity Reservation Instance Interruption Warning" },
];
