/** ARN building blocks known at synth time, so the synthesized JSON shows readable ARNs. */

/** The partition and DNS suffix of a region. */
export function partitionOf(region: string): { readonly partition: string; readonly dnsSuffix: string } {
  if (region.startsWith("cn-")) return { partition: "aws-cn", dnsSuffix: "amazonaws.com.cn" };
  if (region.startsWith("us-gov-")) return { partition: "aws-us-gov", dnsSuffix: "amazonaws.com" };
  return { partition: "aws", dnsSuffix: "amazonaws.com" };
}

/** ARN of an AWS managed IAM policy in the partition. */
export function managedPolicyArn(partition: string, name: string): string {
  return `arn:${partition}:iam::aws:policy/${name}`;
}

/** ARN of an EKS access policy in the partition. */
export function accessPolicyArn(partition: string, name: string): string {
  return `arn:${partition}:eks::aws:cluster-access-policy/${name}`;
}
