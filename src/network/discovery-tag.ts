/**
 * The tag Karpenter's EC2NodeClasses select subnets and security groups by, with the cluster name as its
 * value. One constant for both sides: the tags this project puts on the private subnets and the cluster
 * security group, and the selectors it renders.
 */
export const DISCOVERY_TAG = "karpenter.sh/discovery";

/**
 * The tags the AWS Load Balancer Controller (and the in-tree service controller) pick subnets by: public
 * subnets for internet-facing load balancers, private ones for internal load balancers.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/network-load-balancing.html
 */
export const LOAD_BALANCER_SUBNET_TAGS = { public: "kubernetes.io/role/elb", private: "kubernetes.io/role/internal-elb" } as const;
