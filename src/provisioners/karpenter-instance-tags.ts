/**
 * The tag keys Karpenter puts on every EC2 instance it launches, besides the EC2NodeClass's tags (which hold
 * the cluster's): four at launch (getTags in pkg/cloudprovider/cloudprovider.go of aws/karpenter-provider-aws)
 * and two once the node has registered (tagInstance in pkg/controllers/nodeclaim/tagging/controller.go, which
 * leaves out a key the instance already has, such as a Name set in the node class). Volumes, network
 * interfaces, launch templates and instance profiles get fewer of Karpenter's own, so instances bind.
 */
export function karpenterInstanceTagKeys(clusterName: string): readonly string[] {
  return [
    `kubernetes.io/cluster/${clusterName}`,
    "karpenter.sh/nodepool",
    "eks:eks-cluster-name",
    "karpenter.k8s.aws/ec2nodeclass",
    "Name",
    "karpenter.sh/nodeclaim",
  ];
}
