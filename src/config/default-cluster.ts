import type { ClusterConfigInput } from "./cluster-schema";

/**
 * The cluster synthesized when no CLUSTER_CONFIG is given: only the name is set; every other field takes
 * its documented default (us-east-1, three zones, a /16 VPC, the default NodePool and EC2NodeClass).
 */
export const DEFAULT_CLUSTER: ClusterConfigInput = {
  name: "karpenter-autonomous",
};
