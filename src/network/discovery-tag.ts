/**
 * The tag Karpenter's EC2NodeClasses select subnets and security groups by, with the cluster name as its
 * value. One constant for both sides: the tags this project puts on the private subnets and the cluster
 * security group, and the selectors it renders.
 */
export const DISCOVERY_TAG = "karpenter.sh/discovery";
